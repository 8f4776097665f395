"""Benchmark: a search's CPU a visit with the Python tree and with the compiled tree (engine.core._tree_c).

For each game, searches at the play settings (`play_search_config`: leaf batch, cpuct, material
term...) from positions of random play's first quarter (fixed seed), one fresh tree a search,
with two evaluators:

- ``trivial``: fixed priors per action (a random logit table drawn once) and value 0, so the
  figure is the search without the network (tree, rules, tactics, the evaluator's glue);
- ``network``: the shipped model on ONNX Runtime float32, one thread (the issue's reference runtime),
  or on the runtime ``--runtime`` names (``wino-fp32``: the Winograd runtime the app now takes for
  gomoku, othello and xiangqi on AVX2 machines), against whose own CPU a position the visit is set.

The two trees take turns within each round (Python, compiled; then compiled, Python in the next),
in one process, so load on the machine falls on both alike; each figure is the CPU time
(time.process_time) of all searches of a round over their visits, the fastest round and the
median. Both paths must build the same trees (the same visits at each root): the script counts
disagreements. The network's own CPU a position is timed on the leaf batch (8 positions of the
game) in windows of process time, fastest of several, and each visit's CPU is set against it
(the issue's search-efficiency target: visit CPU <= network CPU a position / 0.85); ``net_share``
is the network's share of a visit's CPU (its CPU a position times the positions evaluated a
visit: visits that reach a finished or proven position need none).

    python benchmarks/tree_search_speed.py [--games xiangqi gomoku] [--sims 400] [--positions 4] [--rounds 3]
        [--rule renju] [--runtime wino-fp32]

``--rule`` (standard or renju) plays gomoku under that rule set, with its own shipped network
where there is one (models/gomoku-renju.pt); the other games ignore it.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.commands.cli import sample_positions  # noqa: E402
from engine.core import mcts as mcts_module  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402
from engine.play.players import play_search_config  # noqa: E402
from games import get_game  # noqa: E402


class FixedPriors:
    """Priors from one random logit per action (drawn once), value 0: an evaluator that costs
    next to nothing and still gives the tree a shape like a network's (uneven priors)."""

    def __init__(self, actions: int, seed: int = 0):
        self.logits = np.random.default_rng(seed).normal(0.0, 1.5, actions)
        self.positions = 0

    def evaluate(self, states, legal):
        self.positions += len(states)
        priors = []
        for acts in legal:
            z = self.logits[acts]
            p = np.exp(z - z.max())
            priors.append(p / p.sum())
        return priors, np.zeros(len(states))


def network_evaluator(game, runtime: str = "ort-fp32"):
    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import build_evaluator
    configure_threads(1)
    # a variant without a network of its own (gomoku's standard rule) plays its base game's
    net, _ = load_network(shipped_model_path(game.key) or shipped_model_path(game.network_key), game)
    return build_evaluator(runtime, net)


def net_cpu_per_position(evaluator, states, batch: int, window: float = 0.3, windows: int = 5) -> float:
    """CPU seconds a position of the network alone at ``batch``, fastest of ``windows`` windows."""
    planes = np.stack([evaluator.encode(s) for s in (states * batch)[:batch]])
    evaluator.infer(planes)
    best = float("inf")
    for _ in range(windows):
        calls, start = 0, time.process_time()
        while time.process_time() - start < window:
            evaluator.infer(planes)
            calls += 1
        best = min(best, (time.process_time() - start) / (calls * batch))
    return best


def run(positions, evaluator, cfg, sims: int, compiled) -> tuple[float, int, list]:
    """(CPU seconds, visits, each root's visit counts) of one search per position."""
    saved = mcts_module._tree_c
    mcts_module._tree_c = compiled
    try:
        search = MCTS(evaluator, cfg, seed=0)
        cpu, visits, counts = 0.0, 0, []
        for st in positions:
            tree = Tree(st)
            start = time.process_time()
            search.search([tree], sims)
            cpu += time.process_time() - start
            visits += int(tree.root_n)
            counts.append(tree.visit_counts()[1].tolist())
        return cpu, visits, counts
    finally:
        mcts_module._tree_c = saved


def measure(game_id: str, sims: int, count: int, rounds: int, rule: str | None = None,
            runtime: str = "ort-fp32") -> dict:
    game = get_game(game_id, rule=rule) if rule and game_id == "gomoku" else get_game(game_id)
    compiled = mcts_module._tree_c
    if compiled is None:
        raise SystemExit("tree_search_speed: the compiled tree is not built (python setup.py build_ext --inplace)")
    cfg = play_search_config(game)
    positions = sample_positions(game, count, seed=1)
    evaluators = {"trivial": FixedPriors(game.action_size), "network": network_evaluator(game, runtime)}
    out = {"game": game.key, "sims": sims, "positions": count, "leaf_batch": cfg.leaf_batch, "rounds": rounds,
           "runtime": runtime, "date": time.strftime("%Y-%m-%d")}
    for name, ev in evaluators.items():
        run(positions[:1], ev, cfg, min(sims, 50), compiled)   # warm-up
        per_visit = {"python": [], "compiled": []}
        disagree = 0
        evaluated, visited = ev.positions, 0
        for r in range(rounds):
            order = ("python", "compiled") if r % 2 == 0 else ("compiled", "python")
            results = {}
            for path in order:
                cpu, visits, counts = run(positions, ev, cfg, sims, compiled if path == "compiled" else None)
                per_visit[path].append(cpu / visits * 1e6)
                results[path] = counts
                visited += visits
            disagree += sum(a != b for a, b in zip(results["python"], results["compiled"]))
        fig = {path: {"fastest_us": round(min(v), 1), "median_us": round(statistics.median(v), 1)}
               for path, v in per_visit.items()}
        fig["ratio_fastest"] = round(min(per_visit["python"]) / min(per_visit["compiled"]), 2)
        fig["ratio_median"] = round(statistics.median(per_visit["python"]) / statistics.median(per_visit["compiled"]), 2)
        fig["searches_that_differ"] = disagree
        fig["evaluated_per_visit"] = round((ev.positions - evaluated) / visited, 3)
        out[name] = fig
    net = net_cpu_per_position(evaluators["network"], positions, 8) * 1e6
    out["net_us_per_position_batch8"] = round(net, 1)
    for path in ("python", "compiled"):
        visit = out["network"][path]["fastest_us"]
        out["network"][path]["visit_over_net"] = round(visit / net, 2)
        # the share of a visit's CPU spent in the network (the 58% and 67%)
        out["network"][path]["net_share"] = round(net * out["network"]["evaluated_per_visit"] / visit, 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", nargs="+", default=["xiangqi", "gomoku"])
    parser.add_argument("--sims", type=int, default=400)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--rule", choices=("freestyle", "standard", "renju"), default=None,
                        help="gomoku's rule set (the other games ignore it)")
    parser.add_argument("--runtime", default="ort-fp32", help="the network's runtime (ort-fp32, wino-fp32, ...)")
    args = parser.parse_args()
    for game_id in args.games:
        print(json.dumps(measure(game_id, args.sims, args.positions, args.rounds, args.rule, args.runtime)), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
