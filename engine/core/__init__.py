"""The AlphaZero core: network, search, evaluators, checkpoints, configs, self-play, replay.

Imports only `games` and itself: no players, matches, protocols or command-line code."""
