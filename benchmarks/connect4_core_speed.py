"""Benchmark: Connect Four's Python rules and solvers against the compiled core (games._connect4_c), in CPU time.

Each part runs both paths in one process, taking turns within each round (Python first in even
rounds, compiled first in odd ones), and reports the fastest and median round in CPU time
(time.process_time), with the ratio; both paths must give the same answers (counted):

- ``perft``: perft from the start to ``--perft-depth``;
- ``solve``: the win/draw/loss solver (`games.connect4.solve`) on positions with 10-16 empty
  cells, from uniformly random games, from Pascal Pons' benchmark sets (benchmarks/connect4) and
  from games of the shipped network against itself (the positions its searches meet), both
  tables of solved positions cleared before every solve (outside the timed part: a cold solve,
  the dearest case), and the compiled solver alone further on, to say how many empty cells it
  solves in the CPU the Python takes at `SOLVE_EMPTIES`;
- ``distance``: `solve_distance` (its default budget) on the same kind of positions;
- ``state``: what a search asks of each new position (apply, legal actions, encode, proven value
  with the solver off);
- ``search``: a search's CPU a visit (the compiled tree on both sides, the play settings of
  `play_search_config`) from positions of random play's first quarter and from endgames with
  14-20 empty cells (where the solver runs), with a trivial evaluator (fixed priors, value 0:
  the search without the network) and with the shipped network on ONNX Runtime float32, one thread;
- ``selfplay``: self-play positions per CPU-second with the shipped network (ONNX Runtime
  float32, one thread) and the game's own self-play settings.

    python benchmarks/connect4_core_speed.py [--parts perft solve distance state search selfplay]
        [--rounds 3] [--paths python compiled]
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

import games.connect4 as c4  # noqa: E402
from games import get_game  # noqa: E402
import paths_timing  # noqa: E402
from paths_timing import PATHS  # noqa: E402

CORE = c4._core
GAME = get_game("connect4")


def use(compiled: bool) -> None:
    c4._core = CORE if compiled else None


def rounds_of(rounds: int, work) -> dict:
    """`paths_timing.rounds_of` with this game's switch."""
    return paths_timing.rounds_of(rounds, work, use)


def empties_of(s) -> int:
    return c4.CELLS - s._mask.bit_count()


def endgames(empties: int, count: int, seed: int) -> list:
    """Positions of uniformly random games with ``empties`` empty cells, not finished."""
    rng, out = random.Random(seed), []
    use(False)
    while len(out) < count:
        s = GAME.initial_state()
        while not s.is_terminal() and empties_of(s) > empties:
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    use(True)
    return out


def pons_positions(empties: int, count: int) -> list:
    """The first ``count`` positions of Pons' sets (end of game, then middle) with ``empties`` empty cells."""
    out = []
    for name in ("Test_L3_R1", "Test_L2_R1", "Test_L2_R2"):
        for line in (ROOT / "benchmarks" / "connect4" / f"{name}.labels").read_text().splitlines():
            moves = line.split()[0]
            if c4.CELLS - len(moves) == empties and len(out) < count:
                out.append(GAME.state_from_text(moves))
    return out


_NETWORK_GAMES: list = []


def network_positions(empties: int, count: int, games: int = 24) -> list:
    """Positions with ``empties`` empty cells from games of the shipped network against itself
    (64 visits a move, the solver off, the first 6 plies at random so the games differ): the
    positions a search of the network's meets, harder than random play's."""
    if not _NETWORK_GAMES:
        from engine.commands.specs import player_from_spec
        saved, c4.SOLVE_EMPTIES = c4.SOLVE_EMPTIES, 0
        rng = random.Random(77)
        try:
            player = player_from_spec(GAME, "model:models/connect4.pt@64", seed=1)
            for _ in range(games):
                s, seen = GAME.initial_state(), []
                while not s.is_terminal():
                    seen.append(s)
                    s = s.apply(rng.choice(s.legal_actions()) if len(seen) <= 6 else player.choose(s).action)
                _NETWORK_GAMES.append(seen)
        finally:
            c4.SOLVE_EMPTIES = saved
    return [s for seen in _NETWORK_GAMES for s in seen if empties_of(s) == empties][:count]


def cold_solves(positions) -> tuple[float, list]:
    """CPU of solving each position with both tables cleared first (the clearing not timed)."""
    cpu, results = 0.0, []
    for s in positions:
        c4.clear_solved()
        t = time.process_time()
        results.append(c4.solve(s._cur, s._mask))
        cpu += time.process_time() - t
    return cpu, results


def part_perft(args) -> dict:
    start = GAME.initial_state()

    def work(_):
        t = time.process_time()
        counts = start.perft_counts(args.perft_depth)
        return time.process_time() - t, 1, counts
    out = rounds_of(args.rounds, work)
    out["depth"] = args.perft_depth
    out["leaves"] = start.perft_counts(args.perft_depth)[-1]
    return out


def part_solve(args) -> dict:
    out = {}
    for source, positions_of in (("random", lambda e: endgames(e, args.solves, seed=e)),
                                 ("pons", lambda e: pons_positions(e, args.solves)),
                                 ("network", lambda e: network_positions(e, args.solves))):
        for empties in (10, 12, 14, 16):
            positions = positions_of(empties)
            if not positions:
                continue

            def work(_, positions=positions):
                cpu, results = cold_solves(positions)
                return cpu, len(positions), results
            out[f"{source}/{empties}_empties"] = rounds_of(args.rounds, work)
    # the compiled solver alone, further on: the empties it solves in the Python's CPU at SOLVE_EMPTIES
    beyond = {}
    use(True)
    for empties in range(14, args.max_empties + 1, 2):
        for source, positions in (("random", endgames(empties, args.solves, seed=empties)),
                                  ("pons", pons_positions(empties, args.solves)),
                                  ("network", network_positions(empties, args.solves))):
            if not positions:
                continue
            cpu = []
            for s in positions:
                c4.clear_solved()
                t = time.process_time()
                CORE.solve(s._cur, s._mask)
                cpu.append(time.process_time() - t)
            beyond[f"{source}/{empties}_empties"] = {"mean_us": round(statistics.mean(cpu) * 1e6, 1),
                                                     "median_us": round(statistics.median(cpu) * 1e6, 1),
                                                     "max_us": round(max(cpu) * 1e6, 1)}
    out["compiled_only"] = beyond
    return out


def part_distance(args) -> dict:
    out = {}
    for empties in (10, 12, 14, 16):
        positions = endgames(empties, args.solves, seed=100 + empties) + pons_positions(empties, args.solves)

        def work(_, positions=positions):
            cpu, results = 0.0, []
            for s in positions:
                c4.clear_solved()
                t = time.process_time()
                try:
                    results.append(c4.solve_distance(s._cur, s._mask))
                except c4.SolveBudgetExceeded:
                    results.append(None)
                cpu += time.process_time() - t
            return cpu, len(positions), results
        out[f"{empties}_empties"] = rounds_of(args.rounds, work)
    return out


def part_state(args) -> dict:
    """CPU a position of each call a search makes on a new position, over every position of 40 random games."""
    games = paths_timing.random_games(GAME, 40, 5, use)
    calls = {
        "apply": lambda s, a: s.apply(a).key(),
        "legal_actions": lambda s, a: s.legal_actions(),
        "encode": lambda s, a: s.encode().tobytes(),
        "proven_value (solver off)": lambda s, a: s.proven_value(),
    }
    saved = c4.SOLVE_EMPTIES
    c4.SOLVE_EMPTIES = 0
    try:
        return paths_timing.state_calls(GAME, games, calls, args.rounds, use, repeat=20)
    finally:
        c4.SOLVE_EMPTIES = saved


def part_search(args) -> dict:
    from engine.commands.cli import sample_positions
    sets = {"opening": sample_positions(GAME, args.positions, seed=1),
            "endgame_14_20": [s for e in (14, 16, 18, 20) for s in endgames(e, max(1, args.positions // 4), 40 + e)]}
    return {"solve_empties": c4.SOLVE_EMPTIES,
            **paths_timing.search_sets(GAME, sets, args.sims, args.rounds, use, c4.clear_solved)}


def part_selfplay(args) -> dict:
    from engine.core.config import load_config
    from engine.core.network import configure_threads
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import load_model_evaluator
    from engine.core.selfplay import play_games

    configure_threads(1)
    sp = load_config(GAME).selfplay
    ev, _ = load_model_evaluator(shipped_model_path(GAME.key), GAME, purpose="selfplay",
                                 batch=sp.parallel_games * sp.leaf_batch, precision=sp.precision, keep_export=False)
    rounds = {"n": 0}

    def work(_):
        c4.clear_solved()
        t = time.process_time()
        records, _ = play_games(GAME, ev, sp, args.selfplay_games, seed=rounds["n"] // len(PATHS))
        rounds["n"] += 1
        positions = sum(len(rec.planes) for rec in records)
        return time.process_time() - t, positions, [len(rec.planes) for rec in records]
    work(True)   # warm-up
    rounds["n"] = 0
    out = rounds_of(args.rounds, work)
    for p in PATHS:   # as positions per CPU-second
        out[p]["positions_per_cpu_s"] = round(1e6 / out[p]["fastest_us"], 1)
    out["games_per_round"] = args.selfplay_games
    out["runtime"] = ev.runtime
    return out


PARTS = {"perft": part_perft, "solve": part_solve, "distance": part_distance, "state": part_state,
         "search": part_search, "selfplay": part_selfplay}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", nargs="+", default=list(PARTS), choices=list(PARTS))
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--perft-depth", type=int, default=8)
    parser.add_argument("--solves", type=int, default=20, help="positions per number of empty cells and source")
    parser.add_argument("--max-empties", type=int, default=28, help="the compiled solver alone up to this many")
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--positions", type=int, default=8)
    parser.add_argument("--selfplay-games", type=int, default=32)
    parser.add_argument("--paths", nargs="+", default=PATHS, choices=PATHS, help="the paths to time")
    args = parser.parse_args()
    PATHS[:] = args.paths
    if CORE is None:
        raise SystemExit("connect4_core_speed: the compiled core is not built (python setup.py build_ext --inplace)")
    for part in args.parts:
        print(json.dumps({part: PARTS[part](args)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
