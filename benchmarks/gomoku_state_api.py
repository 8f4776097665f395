"""Benchmark: CPU per position of what a search asks of a gomoku state, Python rules vs compiled.

Positions: every position of random 15x15 games (fixed seed; each move next to one of the last
stones played, so that threes and fours form). Each call is timed over all positions, the paths
taking turns round by round; prints CPU microseconds a position (fastest of the rounds) per call
and path, and checks that both paths answer the same:

- ``apply`` (a move made: five in a row and the new winning points), ``legal_actions``,
  ``encode`` (the network's 8 planes), ``tactical_priors`` (four points for both sides),
  ``proven_value`` (a win in one, two fives, the VCF: 48 moves at most), what a search asks of
  every new leaf;
- ``vct`` (budget 600, what `deep_proven_value` asks of each of the root's children and
  `winning_action` of the root).

    python benchmarks/gomoku_state_api.py [--games 20] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CALLS = {
    "apply": lambda s, a: s.apply(a).key(),
    "legal_actions": lambda s, a: s.legal_actions(),
    "encode": lambda s, a: s.encode().tobytes(),
    "tactical_priors": lambda s, a: s.tactical_priors(),
    "proven_value": lambda s, a: s.proven_value(),
    "vct": lambda s, a: s.vct(budget=600),
}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    import games.gomoku as gm
    from games import get_game
    compiled = gm._core
    if compiled is None:
        raise SystemExit("gomoku_state_api: the compiled gomoku core is not built")
    game, rng, cases = get_game("gomoku"), random.Random(1), []
    for _ in range(args.games):
        s = game.initial_state()
        while not s.is_terminal():
            acts = s.legal_actions()
            near = [a for a in acts if s.moves and any(abs(a // 15 - m // 15) <= 1 and abs(a % 15 - m % 15) <= 1
                                                       for m in s.moves[-4:])]
            a = rng.choice(near or acts)
            cases.append((s, a))
            s = s.apply(a)
    best: dict[tuple[str, str], float] = {}
    answers: dict[tuple[str, str], list] = {}
    for _ in range(args.rounds):
        for path, module in (("python", None), ("compiled", compiled)):
            gm._core = module
            for name, call in CALLS.items():
                t = time.process_time()
                out = [call(s, a) for s, a in cases]
                us = (time.process_time() - t) / len(cases) * 1e6
                best[name, path] = min(best.get((name, path), us), us)
                answers[name, path] = out
    gm._core = compiled
    same = all(answers[name, "python"] == answers[name, "compiled"] for name in CALLS)
    print(json.dumps({"positions": len(cases), "rounds": args.rounds, "same_answers": same,
                      "cpu_us_a_position": {name: {"python": round(best[name, "python"], 1),
                                                   "compiled": round(best[name, "compiled"], 1),
                                                   "ratio": round(best[name, "python"] / best[name, "compiled"], 1)}
                                            for name in CALLS}}))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
