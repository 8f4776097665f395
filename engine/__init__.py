"""Game-agnostic AlphaZero engine, in layers whose imports point one way (a test checks it):

- `engine.core`: the network, the search (MCTS), evaluators, checkpoints, configs, self-play
  and the replay buffer, plus paths and logging. Knows nothing of players, matches or protocols.
- `engine.play`: players built on the core, matches (arena), exact solvers and baseline opponents.
- `engine.training`: the learning loop (self-play workers, training runs, the background trainer,
  the Ray backend). Uses the core and play.
- `engine.protocols`: engines that other programs speak to (UCI, ...) and clients for outside
  engines. Uses the core and play; never training.
- `engine.commands`: the command-line tools (analyse, arena, bench, evaluate, the engine
  commands, player specs, the self-test checks). Uses everything below.

Importing this package is cheap (no torch); the modules that need torch import it themselves.
"""

import os as _os

# torch's OpenMP threads wait for each other passively (a futex) instead of spinning. Spinning
# costs nothing on an idle machine; beside other work (self-play workers, the AI thinking, other
# programs) a spinning thread waits for one the kernel has taken off its core, and learning steps
# on two threads took 7-10x the CPU of one thread's (benchmarks/training_threads.py,
# docs/training.md, "Learning threads"). OpenMP reads this when torch loads, so it is set here,
# before any engine module imports torch; processes started later inherit it. A value the
# person set is kept.
_os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
