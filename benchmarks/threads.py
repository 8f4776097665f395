"""Benchmark: visits per second of the play search on 1 and 2 threads, interleaved.

For each game, searches a few positions (the start and positions after seeded random
openings) with the shipped model, the play evaluator (`load_evaluator`: ONNX Runtime where
it was chosen, the game's play symmetries) and the play search settings, for ``--seconds``
of wall time each, with a fresh tree, alternating the thread counts position by position and
round by round so that other load on the machine falls on all of them alike. Prints one JSON
line per game: for each mode the visits, wall seconds, process CPU seconds (all threads), the
CPU seconds spent inside the network runtime's calls (each thread's own CPU time, which ONNX
Runtime spends without the GIL), visits per wall second, visits per CPU second, the ratio of
wall rates to one thread; and the load average before and after.

On a loaded machine wall rates say little about an idle one, so each mode also gets
``idle_visits_per_s``, what its CPU figures allow on an idle 2-core machine: the work that
holds the GIL (CPU outside the network calls) runs one thread at a time, the rest on two
cores, so a visit takes at least max(CPU / 2, GIL-held CPU) / visits of wall time on two
threads (CPU / visits on one; for ``1+ort2``, the calling thread's own CPU / visits, since it
takes part in every network call and waits for the other by spinning). It ignores the cost
of handing the GIL over, so it is an upper bound.

Modes: ``1`` and ``2`` search threads (ONNX Runtime on one thread per call, as at play);
with ``--ort2``, also ``1+ort2``: one search thread with an ONNX Runtime session on two
intra-op threads (the other way to put a second core to work).

    python benchmarks/threads.py [--games xiangqi gomoku connect4 othello] [--seconds 2] [--rounds 2] [--ort2]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def positions(game, count: int, seed: int) -> list:
    """The start and ``count - 1`` positions after 2..8 seeded random plies, neither finished
    nor proven by a short search (a proven root's visits go to a known result and cost no
    network call, which would measure something else)."""
    from engine.core.evaluators import UniformEvaluator
    from engine.core.mcts import MCTS, Tree

    def open_position(s) -> bool:
        if s.is_terminal():
            return False
        tree = Tree(s)
        MCTS(UniformEvaluator(), seed=0).search([tree], 64)
        return tree.root_result() is None

    rng = random.Random(seed)
    out = [game.initial_state()]
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randint(2, 8)):
            s = s.apply(rng.choice(s.legal_actions()))
            if s.is_terminal():
                break
        if open_position(s):
            out.append(s)
    return out


def ort2_evaluator(game, evaluator):
    """The play evaluator with its ONNX Runtime session rebuilt on two intra-op threads, or
    None when the network does not run in ONNX Runtime here."""
    from engine.core.evaluators import SymmetryEvaluator
    from engine.core.onnxnet import OrtEvaluator, candidate_paths, file_sha256, session
    from engine.core.paths import shipped_model_path
    inner = evaluator.inner if isinstance(evaluator, SymmetryEvaluator) else evaluator
    if not isinstance(inner, OrtEvaluator):
        return None
    ckpt = shipped_model_path(game.key)
    for p in candidate_paths(ckpt, file_sha256(ckpt)):
        if p.is_file():
            two = OrtEvaluator(session(p, threads=2), inner.runtime + " x2")
            return SymmetryEvaluator(two, game, evaluator.count) if inner is not evaluator else two
    return None


class NetClock:
    """Wraps an evaluator's innermost ``infer`` to add up the CPU time (per thread) spent in it."""

    def __init__(self, evaluator):
        import threading
        from engine.core.evaluators import SymmetryEvaluator
        inner = evaluator.inner if isinstance(evaluator, SymmetryEvaluator) else evaluator
        self.cpu = 0.0
        self.lock = threading.Lock()
        infer = getattr(inner, "infer", None)
        if infer is None:
            return

        def timed(planes):
            start = time.thread_time()
            try:
                return infer(planes)
            finally:
                spent = time.thread_time() - start
                with self.lock:
                    self.cpu += spent

        inner.infer = timed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["xiangqi", "gomoku", "connect4", "othello"])
    ap.add_argument("--seconds", type=float, default=2.0, help="wall seconds a search")
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--ort2", action="store_true", help="also one search thread with ONNX Runtime on two threads")
    args = ap.parse_args()
    if args.seconds <= 0 or args.rounds < 1 or args.positions < 1:
        ap.error("--seconds, --rounds and --positions must be positive")
    from engine.core.mcts import MCTS, Tree
    from engine.play.players import load_evaluator, play_search_config
    from games import get_game
    for gid in args.games:
        game = get_game(gid)
        evaluator, desc = load_evaluator(game)
        cfg = play_search_config(game)
        modes = {"1": (evaluator, 1), "2": (evaluator, 2)}
        if args.ort2:
            two = ort2_evaluator(game, evaluator)
            if two is not None:
                modes["1+ort2"] = (two, 1)
        clocks = {}
        for ev, _ in modes.values():
            if id(ev) not in clocks:
                clocks[id(ev)] = NetClock(ev)
        totals = {m: [0, 0.0, 0.0, 0.0, 0.0] for m in modes}
        load_before = os.getloadavg()
        order = list(modes)
        for r in range(args.rounds):
            for k, pos in enumerate(positions(game, args.positions, args.seed)):
                for m in (order if (r + k) % 2 == 0 else order[::-1]):
                    ev, threads = modes[m]
                    mcts = MCTS(ev, cfg, seed=args.seed, threads=threads)
                    tree = Tree(pos)
                    clock = clocks[id(ev)]
                    net = clock.cpu
                    own, cpu, wall = time.thread_time(), time.process_time(), time.perf_counter()
                    mcts.search([tree], 10 ** 9, deadline=wall + args.seconds)
                    totals[m][0] += int(tree.root_n)
                    totals[m][1] += time.perf_counter() - wall
                    totals[m][2] += time.process_time() - cpu
                    totals[m][3] += clock.cpu - net
                    totals[m][4] += time.thread_time() - own
        base = totals["1"][0] / totals["1"][1]

        def idle_rate(m):
            v, _, c, n, own = totals[m]
            if m == "1+ort2":
                return v / own
            return v / (c if modes[m][1] == 1 else max(c / 2, c - n))

        idle_base = idle_rate("1")
        out = {"game": gid, "evaluator": desc, "runtime": getattr(evaluator, "runtime", "?"),
               "leaf_batch": cfg.leaf_batch, "seconds_a_search": args.seconds, "rounds": args.rounds,
               "positions": args.positions, "load_before": [round(x, 2) for x in load_before],
               "load_after": [round(x, 2) for x in os.getloadavg()],
               "modes": {m: {"visits": v, "wall_s": round(w, 2), "cpu_s": round(c, 2), "net_cpu_s": round(n, 2),
                             "net_share": round(n / c, 3), "visits_per_s": round(v / w, 1),
                             "visits_per_cpu_s": round(v / c, 1), "cpu_per_wall": round(c / w, 2),
                             "speedup": round(v / w / base, 2), "idle_visits_per_s": round(idle_rate(m), 1),
                             "idle_speedup": round(idle_rate(m) / idle_base, 2)}
                         for m, (v, w, c, n, _) in totals.items()}}
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
