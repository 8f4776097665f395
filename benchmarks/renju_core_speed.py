"""Benchmark: gomoku's standard and renju rules, Python (games/renju.py, games/gomoku.py) against the
compiled core (games/_gomoku_c.c), on the positions of real renju games.

    PYTHONPATH=. python benchmarks/renju_core_speed.py [--records docs/runs/gomoku-renju/rapfi/renju-s1.games.jsonl]
        [--games 20] [--rounds 3] [--rule renju]

Positions: every position of the first ``--games`` games of a match record (one JSON object a line
with ``start`` and ``moves``, as benchmarks' arena runs write them; the default is the renju
network against Rapfi under renju, 2026-11-29), replayed under ``--rule``. Four measures, each on
both paths, the two paths taking turns within a round and the order alternating from round to
round, in one process, so other load on the machine falls on both alike; each figure is the CPU
time (time.process_time) of a round over its calls, fastest round kept:

- ``forbidden_set``: black's forbidden points (`renju.forbidden_points`), at the positions with
  black to move (renju only);
- ``vcf``: `GomokuState.vcf` (the victory by fours `proven_value` looks for at every visit);
- ``vct``: `GomokuState.vct` with the root's budget (``VCT_BUDGET``: `winning_action`,
  `deep_proven_value`);
- ``replay``: each game replayed ply by ply, asking ``legal_actions()``, ``is_terminal()`` and
  ``apply()`` (µs a ply).

Both paths must give the same answers (counted in ``differ``). Prints one JSON line.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.gomoku as gm  # noqa: E402
from engine.play.arena import record_positions  # noqa: E402
from games import get_game, renju  # noqa: E402


def load_games(path: Path, count: int, game) -> list[list[int]]:
    """The move lists (actions, from the empty board) of the first ``count`` games of the record file."""
    return [list(record_positions(game, json.loads(line))[0][-1].moves)
            for line in path.read_text(encoding="utf-8").splitlines()[:count]]


def states_of(game, games: list[list[int]]) -> list:
    out = []
    for moves in games:
        s = game.initial_state()
        for a in moves:
            out.append(s)
            s = s.apply(a)
    return [s for s in out if not s.is_terminal()]


def timed(fn, items) -> tuple[float, list]:
    start = time.process_time()
    answers = [fn(x) for x in items]
    return time.process_time() - start, answers


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--records", type=Path, default=ROOT / "docs/runs/gomoku-renju/rapfi/renju-s1.games.jsonl")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--rule", choices=("standard", "renju"), default="renju")
    args = ap.parse_args()
    core = gm._core
    if core is None:
        raise SystemExit("renju_core_speed: the compiled gomoku core is not built "
                         "(python setup.py build_ext --inplace)")
    game = get_game("gomoku", rule=args.rule)
    geo = game.geometry
    games = load_games(args.records, args.games, game)
    states = states_of(game, games)
    black_to_move = [s for s in states if len(s.moves) % 2 == 0]

    def forbidden(s):
        if gm._core is None:
            return renju.forbidden_points(s._black, s._white, geo)
        return gm._core.forbidden_points(game.size, s._black, s._white)

    def replay(moves):
        s, seen = game.initial_state(), []
        for a in moves:
            seen.append((s.legal_actions(), s.is_terminal()))
            s = s.apply(a)
        return seen, s.winner()

    measures = {"vcf": (lambda s: s.vcf(), states), "vct": (lambda s: s.vct(budget=gm.VCT_BUDGET), states),
                "replay": (replay, games)}
    if args.rule == "renju":
        measures = {"forbidden_set": (forbidden, black_to_move), **measures}
    best = {name: {"python": float("inf"), "compiled": float("inf")} for name in measures}
    differ = {name: 0 for name in measures}
    for r in range(args.rounds):
        for name, (fn, items) in measures.items():
            answers = {}
            for path in (("python", "compiled") if r % 2 == 0 else ("compiled", "python")):
                gm._core = None if path == "python" else core
                cpu, answers[path] = timed(fn, items)
                best[name][path] = min(best[name][path], cpu)
            gm._core = core
            differ[name] += sum(a != b for a, b in zip(answers["python"], answers["compiled"]))
    plies = sum(len(m) for m in games)
    out = {"rule": args.rule, "games": len(games), "positions": len(states), "black_to_move": len(black_to_move),
           "rounds": args.rounds, "vct_budget": gm.VCT_BUDGET}
    for name, (_, items) in measures.items():
        calls = plies if name == "replay" else len(items)
        py, c = best[name]["python"], best[name]["compiled"]
        out[name] = {"python_us": round(py / calls * 1e6, 1), "compiled_us": round(c / calls * 1e6, 1),
                     "ratio": round(py / c, 1) if c > 0 else None, "differ": differ[name]}
    print(json.dumps(out), flush=True)
    return 0 if not any(differ.values()) else 1


if __name__ == "__main__":
    raise SystemExit(main())
