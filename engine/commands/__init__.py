"""The command-line tools (`python main.py COMMAND`): analyse, arena, bench, evaluate, the
engine commands, player specs and the self-test's checks. The top of the engine's layers."""
