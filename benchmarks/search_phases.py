"""Benchmark: where a play search's time goes, phase by phase, inside the search itself.

The same searches as benchmarks/tree_search_speed.py (the game's play settings, positions of
random play's first quarter, seed 1, one fresh tree each, the shipped network on the runtime
``--runtime``), with the search's phases timed in place: gathering leaves (of which creating
new nodes: the rules' apply and end checks), evaluating them (of which the network's own call,
encoding the batch, the priors' softmax and the game's tactics) and expanding them. Times are
wall-clock (time.perf_counter_ns) per visit, the fastest of ``--repeats`` passes, so run it on
an idle machine; the timers themselves cost a few tenths of a microsecond a call.

Why in place: a phase costs more inside a search than alone, because the network's call leaves
the processor's caches full of its own code and data (2026-12-04, xiangqi with ONNX Runtime:
the priors' softmax 3.9 us a position alone, 8.9 us a visit inside the search).

    python benchmarks/search_phases.py [--game xiangqi] [--runtime ort-fp32] [--sims 800] [--repeats 3]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tree_search_speed import network_evaluator  # noqa: E402

from engine.commands.cli import sample_positions  # noqa: E402
from engine.core import mcts as mcts_module  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402
from engine.play.players import play_search_config  # noqa: E402
from games import get_game  # noqa: E402


class PhaseClock:
    """Nanoseconds spent in each timed function, by phase name."""

    def __init__(self):
        self.ns: dict[str, int] = {}

    def timed(self, phase: str, fn):
        def wrapper(*args, **kwargs):
            start = time.perf_counter_ns()
            try:
                return fn(*args, **kwargs)
            finally:
                self.ns[phase] = self.ns.get(phase, 0) + time.perf_counter_ns() - start
        return wrapper


def measure(game_id: str, runtime: str, sims: int, count: int, repeats: int) -> dict:
    game = get_game(game_id)
    cfg = play_search_config(game)
    evaluator = network_evaluator(game, runtime)
    positions = sample_positions(game, count, seed=1)
    clock = PhaseClock()
    # the evaluator's own steps, on the instance; the search's phases, on the classes
    evaluator.infer = clock.timed("network", evaluator.infer)
    evaluator.encode_batch = clock.timed("encode", evaluator.encode_batch)
    evaluator._priors = clock.timed("priors", evaluator._priors)
    patched = [(MCTS, "gather", "gather"), (MCTS, "evaluate", "evaluate"), (MCTS, "expand", "expand"),
               (Tree, "_new_node", "new nodes"), (mcts_module, "with_tactics", "tactics")]
    saved = [(owner, name, getattr(owner, name)) for owner, name, _ in patched]
    for owner, name, phase in patched:
        setattr(owner, name, clock.timed(phase, getattr(owner, name)))
    try:
        best = None
        for _ in range(repeats):
            clock.ns.clear()
            visits, start = 0, time.perf_counter_ns()
            for state in positions:
                tree = Tree(state)
                MCTS(evaluator, cfg, seed=0).search([tree], sims)
                visits += int(tree.root_n)
            total = time.perf_counter_ns() - start
            per_visit = {phase: round(ns / visits / 1000, 1) for phase, ns in clock.ns.items()}
            per_visit["total"] = round(total / visits / 1000, 1)
            if best is None or per_visit["total"] < best["total"]:
                best = per_visit
    finally:
        for owner, name, fn in saved:
            setattr(owner, name, fn)
    return {"game": game_id, "runtime": runtime, "sims": sims, "positions": count, "date": time.strftime("%Y-%m-%d"),
            "us_per_visit": dict(sorted(best.items(), key=lambda kv: -kv[1]))}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="xiangqi")
    parser.add_argument("--runtime", default="ort-fp32")
    parser.add_argument("--sims", type=int, default=800)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    print(json.dumps(measure(args.game, args.runtime, args.sims, args.positions, args.repeats)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
