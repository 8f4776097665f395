"""Benchmark: what othello's endgame solver costs at a higher `SOLVE_EMPTIES`.

Positions come from the shipped network's own games: the game records of the level ratings
(docs/runs/level-ratings/othello/*.games.jsonl, every match with one of the app's levels in it),
one position per game at each number of empty squares asked for, where the side to move has a
move. Two parts, CPU time (time.process_time) throughout:

- ``solve``: the win/draw/loss solver (`games.othello.solve`, the compiled one where built) on
  those positions at 12, 14, ... 20 empty squares, its table of solved positions cleared before
  every solve (a cold solve: the dearest case; in play the table keeps the work of the last
  move). Per number of empties: mean, median, 95th percentile and the slowest solve.
- ``search``: the strong level's search (shipped model, play settings, one thread, its visits:
  `strong_visits`, no time cap, no tree reuse) once with each threshold of ``--thresholds`` on
  endgame positions with ``--search-empties`` empty squares, taking turns position by position
  so that other load falls on all alike; the solver's table cleared before each search. Per
  threshold: mean, median, 95th percentile and slowest CPU seconds of a move.

    python benchmarks/othello_solve_threshold.py [--parts solve search] [--solve-empties 12 14 16 18 20]
        [--positions 100] [--thresholds 12 14 16 18] [--search-empties 14 16 18 20 22 24]
        [--search-positions 8]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import games.othello as oth  # noqa: E402
from engine.play.arena import record_positions  # noqa: E402
from games import get_game  # noqa: E402

RECORDS = ROOT / "docs" / "runs" / "level-ratings" / "othello"


def own_games(game) -> list[list]:
    """Each recorded game with one of the app's levels in it, as its list of positions."""
    out = []
    for path in sorted(RECORDS.glob("*level_*.games.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                states, _ = record_positions(game, json.loads(line))
            except (ValueError, KeyError, TypeError):
                continue   # a record this version cannot read: left out
            out.append(states)
    return out


def empties_of(state) -> int:
    g = state.game
    return (g.full ^ (state._me | state._opp)).bit_count()


def positions_at(games: list[list], empties: int, limit: int) -> list:
    """One position a game with exactly ``empties`` empty squares, the side to move having a
    move, duplicates dropped; at most ``limit``."""
    seen, out = set(), []
    for states in games:
        for s in states:
            if empties_of(s) == empties and not s.is_terminal() and s.legal_mask():
                key = (s._me, s._opp)
                if key not in seen:
                    seen.add(key)
                    out.append(s)
                break
        if len(out) >= limit:
            break
    return out


def summary(values: list[float]) -> dict:
    values = sorted(values)
    p95 = values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]
    return {"n": len(values), "mean": round(statistics.fmean(values), 4), "median": round(statistics.median(values), 4),
            "p95": round(p95, 4), "max": round(values[-1], 4)}


def clear() -> None:
    if oth._core is not None:
        oth._core.solve_clear()
    oth._SOLVED.clear()


def part_solve(game, games, args) -> dict:
    out = {}
    for empties in args.solve_empties:
        cpu = []
        for s in positions_at(games, empties, args.positions):
            clear()
            t = time.process_time()
            oth.solve(game, s._me, s._opp)
            cpu.append(time.process_time() - t)
        out[str(empties)] = summary(cpu) if cpu else None
        print(json.dumps({"part": "solve", "empties": empties, **(out[str(empties)] or {})}), file=sys.stderr, flush=True)
    return out


def part_search(game, games, args) -> dict:
    from engine.play.players import make_player
    player = make_player(game, "strong", seed=1)
    player.seconds = None
    positions = []
    for empties in args.search_empties:
        positions += positions_at(games, empties, args.search_positions)
    cpu = {t: [] for t in args.thresholds}
    slowest = {t: (0.0, None) for t in args.thresholds}
    saved = oth.SOLVE_EMPTIES
    try:
        for i, s in enumerate(positions):
            order = args.thresholds if i % 2 == 0 else args.thresholds[::-1]
            for t in order:
                oth.SOLVE_EMPTIES = t
                clear()
                player.reset()
                c = time.process_time()
                player.choose(s)
                c = time.process_time() - c
                cpu[t].append(c)
                if c > slowest[t][0]:
                    slowest[t] = (c, empties_of(s))
    finally:
        oth.SOLVE_EMPTIES = saved
    return {str(t): {**summary(v), "slowest_at_empties": slowest[t][1]} for t, v in cpu.items()}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", nargs="+", default=["solve", "search"], choices=["solve", "search"])
    ap.add_argument("--solve-empties", type=int, nargs="+", default=[12, 14, 16, 18, 20])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--thresholds", type=int, nargs="+", default=[12, 14, 16, 18])
    ap.add_argument("--search-empties", type=int, nargs="+", default=[14, 16, 18, 20, 22, 24])
    ap.add_argument("--search-positions", type=int, default=8, help="positions per number of empties")
    args = ap.parse_args()
    from engine.core.network import configure_threads
    configure_threads(1)
    game = get_game("othello")
    games = own_games(game)
    out = {"date": time.strftime("%Y-%m-%d", time.gmtime()), "compiled": oth._core is not None,
           "games": len(games), "load_before": [round(x, 2) for x in os.getloadavg()]}
    if "solve" in args.parts:
        out["solve_cpu_s"] = part_solve(game, games, args)
    if "search" in args.parts:
        out["search_cpu_s_per_move"] = part_search(game, games, args)
    out["load_after"] = [round(x, 2) for x in os.getloadavg()]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
