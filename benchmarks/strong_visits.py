"""Benchmark: how many visits the `strong` level's search reaches in about one second.

For each game, collects positions of the AI's own play (games of the shipped model at the
`medium` level from a few random opening plies, every ply until ``--positions`` are taken),
then searches each position afresh as the strong level does (its model, runtime, search
settings and symmetries; no tree reuse) with no visit budget and a wall-clock cap of
``--seconds``, once with each thread count of ``--threads``, taking turns position by
position so that other load on the machine falls on all alike. For each search it notes the
visits, the wall time and the process's CPU time; it prints one JSON line a game with, per
thread count, the median and quartiles over the positions of visits per wall second and
visits per CPU second, and the machine's load average.

On an idle machine one thread gets a whole core, so with one thread visits per CPU second is
what one wall second gives there; on a loaded machine the wall-clock figures are lower by the
share of a core the search got. Positions the search proved before the cap are left out of
the rates (their searches stop early).

    python benchmarks/strong_visits.py [--games connect4 othello gomoku xiangqi]
        [--positions 30] [--threads 1 2] [--seconds 1.0] [--seed 1] [--memory 0 32768]
        [--in-gather 0 1]

``--memory`` compares play evaluators that remember that many evaluations (0: none;
`BatchNetEvaluator.remember`), each with every thread count, in the same turns.
``--runtimes`` compares the network's runtimes (`runtime.load_named_evaluator`: ``ort-fp32``,
``ort-int8-static``, ``ort-int8-checked``, ``wino-fp32``) under the same search, in the same turns; an entry
``CHECKPOINT:RUNTIME`` runs another checkpoint of the game's network (a candidate to ship).
``--in-gather`` compares searches whose remembered leaves wait in the network's batch (0)
with those that back them up as they are gathered (1; `MCTS.recall_in_gather`); left out, each
game's own `[play] memory_in_gather`.
"""
from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def quartiles(values: list[float]) -> list[float]:
    """[lower quartile, median, upper quartile] of ``values`` (a list of at least one)."""
    if len(values) == 1:
        return [values[0]] * 3
    q = statistics.quantiles(values, n=4, method="inclusive")
    return [q[0], q[1], q[2]]


def own_positions(game, count: int, seed: int) -> list:
    """``count`` positions of the shipped model's own play at the medium level: games from
    2-4 random opening plies, every position that is not over."""
    from engine.play.players import make_player
    rng = random.Random(seed)
    player = make_player(game, "medium", seed=seed)
    player.seconds = None   # positions independent of the machine's load
    out = []
    while len(out) < count:
        state = game.new_game() if hasattr(game, "new_game") else game.initial_state()
        player.reset()
        for _ in range(rng.randint(2, 4)):
            if state.is_terminal():
                break
            state = state.apply(rng.choice(state.legal_actions()))
        while not state.is_terminal() and len(out) < count:
            out.append(state)
            state = state.apply(player.choose(state).action)
    return out


def measure(game, positions: list, threads: list[int], seconds: float, memory: list[int] | None = None,
            in_gather: list[int] | None = None, runtimes: list[str] | None = None) -> dict:
    """Figures per thread count, or with ``memory`` per (threads, remembered evaluations)
    pair, keyed "T" or "T/M", and with ``in_gather`` per its setting too ("T/g1", "T/M/g1"),
    and with ``runtimes`` per network runtime ("T/ort-fp32"); the memory is emptied before
    each search."""
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import load_named_evaluator
    from engine.play.players import make_player, remembering_as_played, with_symmetries
    players = {}
    for t, m, g, r in itertools.product(threads, memory or [None], in_gather or [None], runtimes or [None]):
        player = make_player(game, "strong", seed=1, threads=t)
        if r is not None:   # the same search on the named runtime, whatever this machine's choice
            path, _, runtime = r.rpartition(":")   # "CHECKPOINT:RUNTIME" names another network
            named, _ = load_named_evaluator(path or shipped_model_path(game.key), game, runtime)
            player.mcts.evaluator = remembering_as_played(game, with_symmetries(game, named))
        if m is not None and hasattr(player.mcts.evaluator, "remember"):
            player.mcts.evaluator.remember(m)
        if g is not None:
            player.mcts.recall_in_gather = bool(g)
        players["/".join([str(t)] + ([str(m)] if m is not None else []) + ([f"g{g}"] if g is not None else [])
                         + ([r] if r is not None else []))] = player
    runs = {k: [] for k in players}
    for state in positions:
        for t, player in players.items():
            player.reset()
            if hasattr(player.mcts.evaluator, "forget"):
                player.mcts.evaluator.forget()   # a fresh search: nothing remembered from the last one
            player.sims = 10 ** 7   # no visit budget: the time cap alone stops the search
            player.seconds = seconds
            cpu, wall = time.process_time(), time.perf_counter()
            result = player.choose(state)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            runs[t].append({"sims": result.sims, "wall_s": wall, "cpu_s": cpu, "proven": result.proven is not None,
                            "capped": wall >= seconds})
    out = {}
    for t, rows in runs.items():
        timed = [r for r in rows if r["capped"] and r["sims"] > 0]
        per_wall = sorted(r["sims"] / r["wall_s"] for r in timed)
        per_cpu = sorted(r["sims"] / r["cpu_s"] for r in timed)
        out[t] = {"positions": len(rows), "timed": len(timed),
                  "visits_per_wall_s_q1_med_q3": [round(v) for v in quartiles(per_wall)] if timed else None,
                  "visits_per_cpu_s_q1_med_q3": [round(v) for v in quartiles(per_cpu)] if timed else None,
                  "cpu_per_wall": round(sum(r["cpu_s"] for r in timed) / sum(r["wall_s"] for r in timed), 2)
                  if timed else None}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["connect4", "othello", "gomoku", "xiangqi"])
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--memory", type=int, nargs="+", default=None,
                    help="remembered evaluations to compare (e.g. 0 32768), each with every thread count")
    ap.add_argument("--in-gather", type=int, nargs="+", choices=[0, 1], default=None,
                    help="remembered leaves backed up as they are gathered (1) or waiting in the batch (0), compared")
    ap.add_argument("--runtimes", nargs="+", default=None,
                    help="network runtimes to compare (e.g. ort-fp32 ort-int8-checked), each with every thread count")
    args = ap.parse_args()
    from engine.core.network import configure_threads
    from games import get_game
    configure_threads(1)
    for gid in args.games:
        game = get_game(gid)
        positions = own_positions(game, args.positions, args.seed)
        load = os.getloadavg()
        figures = measure(game, positions, args.threads, args.seconds, args.memory, args.in_gather, args.runtimes)
        print(json.dumps({"game": gid, "seconds": args.seconds, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                          "load_before": [round(x, 2) for x in load],
                          "load_after": [round(x, 2) for x in os.getloadavg()], "threads": figures}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
