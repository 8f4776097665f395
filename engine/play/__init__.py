"""Playing and measuring: players built on the core search, matches between them, exact
solvers and the baseline opponents. Imports the core and `games` only."""
