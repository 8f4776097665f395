"""Benchmark: CPU per position of what a search asks of a xiangqi state, Python rules vs compiled.

Random games (fixed seed) are replayed on each path, interleaved round by round; at every ply
the new state is made (``apply``) and asked what expanding it in the search asks:
``legal_actions``, ``is_terminal``, ``proven_value`` (mate in one), ``winning_capture`` (the
capture search) and ``encode`` (the network's 20 planes). Prints CPU microseconds a position
(fastest of the rounds) for each path, and for each call alone (each call timed on its own, so
the small ones include about a microsecond of the timer's own cost).

    python benchmarks/xiangqi_state_api.py [--games 20] [--rounds 3]
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CALLS = ("apply", "legal_actions", "is_terminal", "proven_value", "winning_capture", "encode")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    import games.xiangqi as xq
    from games import get_game, native
    core = native.load("games._xiangqi_c")
    if core is None:
        raise SystemExit("xiangqi_state_api: the compiled core is not built here; nothing to compare")
    game, rng = get_game("xiangqi"), random.Random(7)
    lines = []
    for _ in range(args.games):
        s, moves = game.initial_state(), []
        while not s.is_terminal() and len(moves) < 200:
            moves.append(rng.choice(s.legal_actions()))
            s = s.apply(moves[-1])
        lines.append(moves)
    positions = sum(len(m) for m in lines)
    best: dict[tuple[str, str], float] = {}
    for _ in range(args.rounds):
        for path, module in (("python", None), ("compiled", core)):
            xq._core = module
            spent = dict.fromkeys(CALLS, 0.0)
            for moves in lines:
                s = game.initial_state()
                s = xq.XiangqiState.from_fen(game, s.fen())   # nothing cached from another path
                for a in moves:
                    for name in CALLS:
                        start = time.process_time()
                        if name == "apply":
                            s = s.apply(a)
                        else:
                            getattr(s, name)()
                        spent[name] += time.process_time() - start
            for name, cpu in spent.items():
                key = (path, name)
                best[key] = min(best.get(key, cpu), cpu)
    xq._core = core
    print(f"{positions} positions of {args.games} random games, CPU microseconds a position (fastest of {args.rounds})")
    print(f"{'':18s} {'python':>9s} {'compiled':>9s} {'ratio':>6s}")
    for name in CALLS + ("all",):
        py = sum(best[("python", n)] for n in CALLS) if name == "all" else best[("python", name)]
        c = sum(best[("compiled", n)] for n in CALLS) if name == "all" else best[("compiled", name)]
        print(f"{name:18s} {py / positions * 1e6:9.1f} {c / positions * 1e6:9.1f} {py / c:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
