"""CPU time of gomoku's move generation under each rule set (docs/rules.md).

    PYTHONPATH=. python benchmarks/gomoku_rules_speed.py [--rules freestyle,standard,renju] [--games 40] [--repeat 3]

Per rule: the same seeded random games (moves drawn from the central 9x9 so that shapes and
forbidden points occur, up to 80 plies), each ply asking ``legal_actions()`` and ``apply()``,
and a perft to depth 2 from the 21-ply position of each game (white to move, so every child
is black's and, under renju, has its forbidden points worked out). Prints one JSON line: per rule, the best of ``--repeat`` CPU-time runs (time.process_time), in
microseconds per ply and seconds per perft set. Free-style runs on any version of the code (it
asks for ``get_game("gomoku")`` then), so the same file compares two checkouts:

    for tree in /path/before /path/after; do PYTHONPATH=$tree python benchmarks/gomoku_rules_speed.py --rules freestyle; done
"""
from __future__ import annotations

import argparse
import json
import random
import time


def _game(rule: str):
    from games import get_game
    return get_game("gomoku") if rule == "freestyle" else get_game("gomoku", rule=rule)


def _games(game, count: int, seed: int) -> tuple[int, list]:
    """(plies played, the 20-ply states): random games near the centre."""
    rng = random.Random(seed)
    plies, middles = 0, []
    for _ in range(count):
        s = game.initial_state()
        for ply in range(80):
            acts = s.legal_actions()
            if not acts:
                break
            near = [a for a in acts if 3 <= a // 15 <= 11 and 3 <= a % 15 <= 11]
            s = s.apply(rng.choice(near or acts))
            plies += 1
            if ply == 20:   # white to move: its children are black's positions
                middles.append(s)
            if s.is_terminal():
                break
    return plies, middles


def _perft2(state) -> int:
    total = 0
    for a in state.legal_actions():
        total += len(state.apply(a).legal_actions())
    return total


def measure(rule: str, games: int, repeat: int) -> dict:
    game = _game(rule)
    best_ply = best_perft = float("inf")
    nodes = plies = 0
    for _ in range(repeat):
        t = time.process_time()
        plies, middles = _games(game, games, 1)
        best_ply = min(best_ply, (time.process_time() - t) / plies)
        t = time.process_time()
        nodes = sum(_perft2(s) for s in middles)
        best_perft = min(best_perft, time.process_time() - t)
    return {"us_per_ply": round(best_ply * 1e6, 1), "plies": plies, "perft2_s": round(best_perft, 3),
            "perft2_nodes": nodes}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="freestyle,standard,renju")
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--repeat", type=int, default=3)
    args = p.parse_args()
    print(json.dumps({rule: measure(rule, args.games, args.repeat) for rule in args.rules.split(",")}))


if __name__ == "__main__":
    main()
