"""Perft: count the positions exactly k plies from a start position, for k = 1..depth.

The counts follow every path (no transposition table), so they test the move
generator against published numbers and time it as a benchmark. Terminal
positions have no children; in othello a pass is a ply. A state may offer a fast
``perft_counts(depth)`` on its own bitboards, which `perft` then uses.

Command line (``python main.py perft``) prints one JSON line:
``{"game": G, "depth": D, "nodes": [n1, ..., nD], "seconds": S}``.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from . import GAME_IDS, get_game
from .base import NotationError, State


def perft(state: State, depth: int, use_fast: bool = True) -> list[int]:
    """``nodes[k-1]`` = the number of positions exactly k plies after ``state`` (k = 1..depth).

    ``use_fast=False`` ignores a state's ``perft_counts`` and walks the public API
    (``legal_actions``/``apply``), which is how the fast versions are checked.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be >= 0, not {depth}")
    fast = getattr(state, "perft_counts", None) if use_fast else None
    if fast is not None:
        return fast(depth)
    nodes = [0] * depth
    if depth == 0:
        return nodes
    last = depth - 1

    def walk(s: State, ply: int) -> None:
        actions = s.legal_actions()
        nodes[ply] += len(actions)  # the last ply is counted in bulk, without applying its moves
        if ply != last:
            for a in actions:
                walk(s.apply(a), ply + 1)

    walk(state, 0)
    return nodes


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python main.py perft",
                                description="Count the positions 1..DEPTH plies deep and print them as one JSON line.")
    p.add_argument("--game", required=True, help=f"one of: {', '.join(GAME_IDS)}")
    p.add_argument("--depth", type=int, required=True, help="number of plies (>= 0)")
    p.add_argument("--position", default="", help="start position in the game's notation (default: the start)")
    p.add_argument("--size", type=int, help="board size, for games that have one (othello, gomoku)")
    return p


def _fail(message: str) -> int:
    print(f"perft: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """The ``perft`` subcommand; returns the exit status (2 for bad arguments)."""
    try:
        args = _parser().parse_args(argv)
    except SystemExit as e:  # argparse has printed the usage and the problem
        return int(e.code or 0)
    if args.depth < 0:
        return _fail(f"--depth must be >= 0, not {args.depth}")
    try:
        game = get_game(args.game)
        if args.size is not None:
            if "size" not in getattr(type(game), "variant_names", ()):
                return _fail(f"game {args.game!r} has no --size option")
            game = get_game(args.game, size=args.size)
    except ValueError as e:
        return _fail(str(e))
    except ImportError as e:  # a registered game whose module is not written yet
        return _fail(f"game {args.game!r} is not available: {e}")
    try:
        state = game.state_from_text(args.position)
    except NotationError as e:
        return _fail(f"bad --position {args.position!r}: {e}")
    if args.depth > game.max_game_length:   # no position lies deeper than the longest game
        return _fail(f"--depth must be at most {game.key}'s longest game, {game.max_game_length} plies, "
                     f"not {args.depth}")
    start = time.perf_counter()
    nodes = perft(state, args.depth)
    seconds = time.perf_counter() - start
    result = {"game": args.game, "depth": args.depth, "nodes": nodes, "seconds": round(seconds, 3)}
    if args.size is not None:
        result["size"] = args.size
    print(json.dumps(result))
    return 0
