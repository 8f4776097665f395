"""Benchmark: othello's Python rules against the compiled core (games._othello_c), in CPU time.

Each part runs both paths in one process, taking turns within each round (Python first in even
rounds, compiled first in odd ones), and reports the fastest and median round in CPU time
(time.process_time), with the ratio; both paths must give the same answers (counted):

- ``perft``: perft from the 8x8 start to ``--perft-depth``;
- ``solve``: the win/draw/loss solver (`games.othello.solve`) on endgames of random games with
  10, 12 and 14 empty squares, both tables of solved positions cleared before every solve (a
  cold solve, the dearest case), and the compiled solver alone further on, to say how many empty
  squares it solves in the CPU the Python takes at `SOLVE_EMPTIES`;
- ``margin``: the disc-margin solver (`solve_margin`, its default budget) at 8 and 10 empty squares;
- ``state``: what a search asks of each new position (apply, legal actions, encode, proven value);
- ``search``: a search's CPU a visit (the compiled tree on both sides, the play settings of
  `play_search_config`) from positions of random play's first quarter and from endgames with
  14-20 empty squares (where the solver runs), with a trivial evaluator (fixed priors, value 0:
  the search without the network) and with the shipped network on ONNX Runtime float32, one thread.

    python benchmarks/othello_core_speed.py [--parts perft solve margin state search] [--rounds 3]
        [--paths python compiled] [--solve-empties 12]
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import games.othello as oth  # noqa: E402
from games import get_game  # noqa: E402
import paths_timing  # noqa: E402
from paths_timing import PATHS  # noqa: E402

CORE = oth._core


def use(compiled: bool) -> None:
    oth._core = CORE if compiled else None


def rounds_of(rounds: int, work) -> dict:
    """`paths_timing.rounds_of` with this game's switch."""
    return paths_timing.rounds_of(rounds, work, use)


def endgames(game, empties: int, count: int, seed: int) -> list:
    """Positions of uniformly random games with ``empties`` empty squares, not finished."""
    rng, out = random.Random(seed), []
    use(False)
    while len(out) < count:
        s = game.initial_state()
        while not s.is_terminal() and (game.full ^ (s._me | s._opp)).bit_count() > empties:
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    use(True)
    return out


def clear_tables() -> None:
    oth._SOLVED.clear()
    CORE.solve_clear()


def part_perft(args) -> dict:
    start = get_game("othello").initial_state()

    def work(_):
        t = time.process_time()
        counts = start.perft_counts(args.perft_depth)
        return time.process_time() - t, 1, counts
    out = rounds_of(args.rounds, work)
    out["depth"] = args.perft_depth
    out["leaves"] = start.perft_counts(args.perft_depth)[-1]
    return out


def part_solve(args) -> dict:
    game = get_game("othello")
    out = {}
    for empties in (10, 12, 14):
        positions = endgames(game, empties, args.solves, seed=empties)

        def work(_, positions=positions):
            cpu, results = 0.0, []
            for s in positions:
                clear_tables()
                t = time.process_time()
                results.append(oth.solve(game, s._me, s._opp))
                cpu += time.process_time() - t
            return cpu, len(positions), results
        out[f"{empties}_empties"] = rounds_of(args.rounds, work)
    # the compiled solver alone, further on: the empties it solves in the Python's CPU at SOLVE_EMPTIES
    beyond = {}
    for empties in range(16, args.max_empties + 1, 2):
        positions = endgames(game, empties, args.solves, seed=empties)
        cpu = []
        for s in positions:
            clear_tables()
            t = time.process_time()
            CORE.solve(game.size, s._me, s._opp)
            cpu.append(time.process_time() - t)
        beyond[f"{empties}_empties"] = {"mean_us": round(statistics.mean(cpu) * 1e6, 1),
                                        "median_us": round(statistics.median(cpu) * 1e6, 1),
                                        "max_us": round(max(cpu) * 1e6, 1)}
    out["compiled_only"] = beyond
    return out


def part_margin(args) -> dict:
    game = get_game("othello")
    out = {}
    for empties in (8, 10):
        positions = endgames(game, empties, args.solves, seed=100 + empties)

        def work(_, positions=positions):
            cpu, results = 0.0, []
            for s in positions:
                counter = [200_000]
                t = time.process_time()
                try:
                    results.append((oth.solve_margin(game, s._me, s._opp, counter), counter[0]))
                except oth.SolveBudgetExceeded:
                    results.append((None, counter[0]))
                cpu += time.process_time() - t
            return cpu, len(positions), results
        out[f"{empties}_empties"] = rounds_of(args.rounds, work)
    return out


def part_state(args) -> dict:
    """CPU a position of each call a search makes on a new position, over every position of 20 random games."""
    game = get_game("othello")
    games = paths_timing.random_games(game, 20, 5, use)
    calls = {
        "apply": lambda s, a: s.apply(a),
        "legal_actions": lambda s, a: s.legal_actions(),
        "encode": lambda s, a: s.encode().tobytes(),
        "proven_value (solver off)": lambda s, a: s.proven_value(),
    }
    saved = oth.SOLVE_EMPTIES
    oth.SOLVE_EMPTIES = 0
    try:
        return paths_timing.state_calls(
            game, games, calls, args.rounds, use,
            fresh=lambda s: oth.OthelloState(game, s._me, s._opp, s._player, s._moves),   # no cached masks
            answer=lambda name, r: r.key() if name == "apply" else r)
    finally:
        oth.SOLVE_EMPTIES = saved


def part_search(args) -> dict:
    from engine.commands.cli import sample_positions
    game = get_game("othello")
    sets = {"opening": sample_positions(game, args.positions, seed=1),
            "endgame_14_20": [s for e in (14, 16, 18, 20)
                              for s in endgames(game, e, max(1, args.positions // 4), 40 + e)]}
    return {"solve_empties": oth.SOLVE_EMPTIES,
            **paths_timing.search_sets(game, sets, args.sims, args.rounds, use, clear_tables)}


PARTS = {"perft": part_perft, "solve": part_solve, "margin": part_margin, "state": part_state, "search": part_search}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=list(PARTS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--perft-depth", type=int, default=7)
    parser.add_argument("--solves", type=int, default=8, help="positions per number of empty squares")
    parser.add_argument("--max-empties", type=int, default=20, help="the compiled solver alone up to this many")
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--paths", nargs="+", default=PATHS, choices=PATHS, help="the paths to time")
    parser.add_argument("--solve-empties", type=int, help="the search's solver threshold (SOLVE_EMPTIES, default "
                        f"{oth.SOLVE_EMPTIES}; above 12 the Python path takes seconds a visit)")
    args = parser.parse_args()
    PATHS[:] = args.paths
    if args.solve_empties is not None:
        oth.SOLVE_EMPTIES = args.solve_empties
    if CORE is None:
        raise SystemExit("othello_core_speed: the compiled core is not built (python setup.py build_ext --inplace)")
    for part in args.parts:
        print(json.dumps({part: PARTS[part](args)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
