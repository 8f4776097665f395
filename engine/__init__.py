"""Game-agnostic AlphaZero engine: network, MCTS, players, checkpoints, self-play, training.

Importing this package is cheap (no torch); the modules that need torch import it themselves.
"""
