"""Benchmark: self-play positions per CPU-second of two checkouts of this project, interleaved.

Plays the same self-play batches (same network, settings and seeds) with the code of each
checkout in turn, one fresh process a batch and one thread, so that other load on the machine
falls on both alike; prints one JSON line a batch and then each checkout's totals and their
ratio. For changes to a game's rules code or the search that should only make them faster
(games can still differ where a change alters a search budget's cut-off).

    python benchmarks/selfplay_checkouts.py OLD_ROOT NEW_ROOT [MORE_ROOTS...] --game KEY [--model M.pt]
        [--config C.toml [C2.toml ...]] [--games 48] [--seeds 1 2 3] [--runtime torch|ort|trainer [...]]

``--runtime torch`` (the default) runs the network in torch (bfloat16 where the settings ask for
it, else float32) in both checkouts, so only the rules and search code differ (``--runtime ort``:
ONNX Runtime float32, the runtime play uses, in both); ``--runtime
trainer`` lets each checkout pick its runtime as its trainer's self-play workers do
(`engine.training.workers.selfplay_evaluator`: the runtime measured on this machine), so the
network's own changes (such as zeroed denormal weights) count too. The runtime each batch used
is printed with it.

2026-11-28 (xiangqi's mate-in-one test and capture search): see docs/performance.md, the self-play table.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
from pathlib import Path

ONE_BATCH = """
import json, sys, time
sys.path.insert(0, {root!r})
from engine.core.checkpoint import load_network
from engine.core.config import load_config
from engine.core.network import configure_threads
from engine.core.runtime import build_evaluator
from engine.core.selfplay import play_games
from engine.core.paths import shipped_model_path
from games import game_from_key
configure_threads(1)
game = game_from_key({game!r})
cfg = load_config(game, {config!r})
net, _ = load_network({model!r} or shipped_model_path(game.key), game)
if {runtime!r} == "trainer":
    from engine.training.workers import selfplay_evaluator
    evaluator, _ = selfplay_evaluator({model!r} or shipped_model_path(game.key), game, cfg.selfplay)
elif {runtime!r} == "ort":
    evaluator = build_evaluator("ort-fp32", net)
else:
    evaluator = build_evaluator("torch-bf16" if cfg.selfplay.precision == "bf16" else "torch-fp32", net)
cpu = time.process_time()
records, _ = play_games(game, evaluator, cfg.selfplay, {games}, seed={seed})
print(json.dumps({{"positions": sum(len(r.planes) for r in records), "cpu_s": time.process_time() - cpu,
                  "runtime": getattr(evaluator, "runtime", type(evaluator).__name__)}}))
"""


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("roots", nargs="+", help="the checkouts' root folders (old, new, and any more: each is "
                                             "compared with the first)")
    ap.add_argument("--game", required=True, help="a game key: xiangqi, gomoku, gomoku-renju, gomoku-9...")
    ap.add_argument("--model", default="", help="network (default: the shipped model)")
    ap.add_argument("--config", nargs="+", default=None,
                    help="a run's config on top of the game's settings: one for every checkout, or one per "
                         "checkout in their order ('-': none)")
    ap.add_argument("--games", type=int, default=48, help="games a batch")
    ap.add_argument("--seeds", type=int, nargs="+", default=[1, 2, 3])
    ap.add_argument("--runtime", nargs="+", choices=("torch", "ort", "trainer"), default=["torch"],
                    help="torch or ONNX Runtime float32 in every checkout, or each checkout's trainer's choice; "
                         "one for every checkout, or one per checkout in their order")
    args = ap.parse_args()
    if len(args.roots) < 2:
        ap.error("give at least two checkouts to compare")

    def per_root(values, name):
        values = values or [None]
        if len(values) not in (1, len(args.roots)):
            ap.error(f"give one {name} or one per checkout ({len(args.roots)})")
        return dict(zip(args.roots, values * len(args.roots) if len(values) == 1 else values))
    runtimes = per_root(args.runtime, "--runtime")
    configs = {root: None if c in (None, "-") else str(Path(c).resolve())
               for root, c in per_root(args.config, "--config").items()}
    totals = {root: [0, 0.0] for root in args.roots}
    for seed in args.seeds:
        for root in args.roots:
            code = ONE_BATCH.format(root=str(Path(root).resolve()), game=args.game, games=args.games, seed=seed,
                                    runtime=runtimes[root],
                                    model=str(Path(args.model).resolve()) if args.model else "",
                                    config=configs[root])
            out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
            batch = json.loads(out.stdout.strip().splitlines()[-1])
            totals[root][0] += batch["positions"]
            totals[root][1] += batch["cpu_s"]
            print(json.dumps({"root": root, "seed": seed, **batch}), flush=True)
    rate = {root: p / c for root, (p, c) in totals.items()}
    old, new = args.roots[0], args.roots[-1]
    print(json.dumps({"positions_per_cpu_s": {r: round(v, 1) for r, v in rate.items()},
                      "over_first": {r: round(rate[r] / rate[old], 3) for r in args.roots[1:]},
                      "new_over_old": round(rate[new] / rate[old], 3)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
