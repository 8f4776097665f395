"""Conditions 1 and 2 of a distilled student's rule (docs/runs/*-narrow-*/rule.md) for its
checkpoint: the accuracy bar of its runtimes against its own float32 (1,000 positions of its own games, seed 0, as the runtime's check draws them), and
the CPU a position at batch 8 of each, as a share of the shipped network's float32 in the same run
(interleaved 0.1 CPU-s windows, best of --rounds, 256 positions of the shipped network's games,
seed 1, as benchmarks/network_int8.py measures). One thread. Prints one JSON line.

    python tools/distil_measure.py STUDENT.pt [--rounds 10] [--game xiangqi]
"""
import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("student")
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--game", default="xiangqi")
    args = ap.parse_args()
    from network_int8 import cpu_description, cpu_us_per_position
    from engine.core import int8
    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.onnxnet import CheckedInt8Evaluator, OrtEvaluator, export_bytes, session
    from engine.core.runtime import accuracy, is_accurate, policy_game_positions
    from games import get_game
    configure_threads(1)
    game = get_game(args.game)
    teacher, _ = load_network(ROOT / "models" / f"{game.key}.pt", game)
    student, meta = load_network(args.student, game)
    shipped = OrtEvaluator(session(export_bytes(teacher)))
    model = export_bytes(student)
    fp32 = OrtEvaluator(session(model))
    quantized = int8.quantize_static_int8(model, int8.calibration_planes(game, fp32))
    evs = {"shipped fp32": shipped, "student fp32": fp32, "student int8": OrtEvaluator(session(quantized)),
           "student int8-checked": CheckedInt8Evaluator(session(quantized), session(model))}
    held = policy_game_positions(game, fp32, 1000, seed=0)
    acc = {}
    for name in ("student int8", "student int8-checked"):
        a = accuracy(fp32, evs[name], held)
        acc[name] = {**a, "passes_bar": is_accurate(a)}
    checked = evs["student int8-checked"]
    acc["student int8-checked"]["looked_again"] = round(checked.looked_again / max(1, checked.looked), 4)
    # how far the student is from the shipped network on the shipped network's own positions
    acc["student fp32 vs shipped fp32"] = accuracy(shipped, fp32, policy_game_positions(game, shipped, 1000, seed=0))
    timing = policy_game_positions(game, shipped, 256, seed=1)
    batches = [np.stack([shipped.encode(s) for s in timing[i:i + 8]]) for i in range(0, 256, 8)]
    us = cpu_us_per_position(evs, batches, args.rounds)
    print(json.dumps({"student": str(args.student), "net": student.cfg.to_dict(), "date": time.strftime("%Y-%m-%d %H:%M"),
                      "cpu": cpu_description(), "accuracy": acc,
                      "cpu_us_batch8": {k: round(v, 1) for k, v in us.items()},
                      "ratio_to_shipped_fp32": {k: round(v / us["shipped fp32"], 3) for k, v in us.items()}}))


if __name__ == "__main__":
    main()
