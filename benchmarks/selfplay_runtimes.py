"""Benchmark: self-play positions per CPU-hour with each network runtime, interleaved.

For each game, plays short self-play batches with the shipped model and the game's own
self-play settings (engine/core/configs/<game>.toml), one process, one thread, alternating
the runtimes (``--runtimes``; by default torch float32, torch bfloat16, ONNX Runtime float32,
and ONNX Runtime static int8, `engine.core.int8`; also ``wino-fp32``, `engine.core.winograd`) round by round so that
other load on the machine falls on all of them alike. Before ONNX Runtime, self-play used
torch with bfloat16 where it pays (`precision = "auto"`); "chosen" is the runtime
`runtime.load_model_evaluator` picks now. Prints one JSON line per game: positions, CPU
seconds and positions per CPU-hour for each runtime. ``--memory N`` adds, for each runtime, the
same runtime remembering N evaluations across its batches (`BatchNetEvaluator.remember`,
``[selfplay] memory``), named "<runtime>+memory"; the plain runtimes then remember nothing.

    python benchmarks/selfplay_runtimes.py [--games connect4 xiangqi] [--rounds 3] [--n-games 32]
                                           [--runtimes ort-fp32 ort-int8-static] [--memory 65536]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["connect4", "xiangqi"])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--n-games", type=int, default=0, help="games a batch (default: the game's parallel_games)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--runtimes", nargs="+", default=["torch-fp32", "torch-bf16", "ort-fp32", "ort-int8-static"],
                    choices=["torch-fp32", "torch-bf16", "ort-fp32", "ort-int8-static", "wino-fp32"])
    ap.add_argument("--memory", type=int, default=0, help="also each runtime remembering this many evaluations")
    args = ap.parse_args()
    from engine.core.checkpoint import load_network
    from engine.core.config import load_config
    from engine.core.network import configure_threads
    from engine.core.runtime import build_evaluator, load_model_evaluator
    from engine.core.selfplay import play_games
    from engine.core.paths import shipped_model_path
    from games import get_game
    configure_threads(1)
    for gid in args.games:
        game = get_game(gid)
        path = shipped_model_path(game.key)
        sp = load_config(game).selfplay
        net, _ = load_network(path, game)
        runs = {name: build_evaluator(name, net, game=game) for name in args.runtimes}
        if args.memory:
            runs.update({f"{name}+memory": build_evaluator(name, net, game=game).remember(args.memory)
                         for name in args.runtimes})
        chosen, _ = load_model_evaluator(path, game, purpose="selfplay", batch=sp.parallel_games * sp.leaf_batch,
                                         precision=sp.precision, keep_export=False)
        n_games = args.n_games or sp.parallel_games
        totals = {name: [0, 0.0] for name in runs}
        for r in range(args.rounds):
            for name, ev in runs.items():
                cpu = time.process_time()
                records, _ = play_games(game, ev, sp, n_games, seed=args.seed + r)
                totals[name][0] += sum(len(rec.planes) for rec in records)
                totals[name][1] += time.process_time() - cpu
        out = {"game": gid, "games_per_batch": n_games, "rounds": args.rounds, "chosen": chosen.runtime,
               "date": time.strftime("%Y-%m-%d", time.gmtime()),
               "runtimes": {name: {"positions": p, "cpu_s": round(c, 1), "positions_per_cpu_hour": round(p / c * 3600),
                                   **({"network_positions": runs[name].positions, "recalled": runs[name].recalled}
                                      if name.endswith("+memory") else {})}
                            for name, (p, c) in totals.items()}}
        print(json.dumps(out), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
