"""Benchmark: the network's CPU per position in float32 and static int8, and int8's accuracy.

For each game's shipped model, one process, one thread: ONNX Runtime float32 as exported
before denormal weights were zeroed ("fp32-before"), float32 as exported now ("fp32"),
static int8 as the runtime builds it (QDQ, per-channel int8 weights, unsigned 8-bit
activations, the heads in float32; "int8"), the same with float32's second look at near ties
("int8-checked", `onnxnet.CheckedInt8Evaluator`, with the share of positions it looked at
again) and, for comparison, every layer quantized ("int8-all"). Speed: microseconds of this
process's CPU time per position at batches 1 and 8 over 256 positions of the network's own
games (other than the accuracy check's), the best of --rounds windows of 0.1 CPU-s each, the
variants taking turns window by window, and each variant's ratio to "fp32". Accuracy of each int8 variant against "fp32" on
--positions held-out positions of the network's own games (`policy_game_positions`, seed 0,
as the runtime's check draws them; calibration draws with another seed), and whether it
passes the accuracy bar (`runtime.is_accurate`). Prints one JSON line per game.

    python benchmarks/network_int8.py [--games xiangqi gomoku othello] [--rounds 10] [--positions 1000]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def cpu_us_per_position(evaluators: dict, batches: list, rounds: int, window: float = 0.1) -> dict:
    """Best CPU microseconds per position of each evaluator, interleaved windows, each window
    calling the evaluator on ``batches`` in turn (the checked int8 form's work depends on the
    positions)."""
    best = {name: float("inf") for name in evaluators}
    for ev in evaluators.values():
        ev.infer(batches[0])
    for _ in range(rounds):
        for name, ev in evaluators.items():
            done, k, start = 0, 0, time.process_time()
            while time.process_time() - start < window:
                ev.infer(batches[k % len(batches)])
                done += len(batches[k % len(batches)])
                k += 1
            best[name] = min(best[name], (time.process_time() - start) / done * 1e6)
    return best


def cpu_description() -> str:
    """The processor's name and the vector extensions that decide which int8 and float kernels
    ONNX Runtime can use (AVX2, AVX-512, VNNI, bfloat16)."""
    from engine.core.runtime import _cpu_name, cpu_flags
    flags = cpu_flags()
    wanted = ("avx2", "avx512f", "avx512_vnni", "avx_vnni", "avx512_bf16", "amx_int8")
    return " ".join([_cpu_name()] + [f for f in wanted if f in flags])


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["xiangqi", "gomoku", "othello"])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--positions", type=int, default=1000)
    args = ap.parse_args()
    from engine.core import int8, network
    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.onnxnet import CheckedInt8Evaluator, OrtEvaluator, export_bytes, session
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import accuracy, is_accurate, policy_game_positions
    from games import get_game
    configure_threads(1)
    for gid in args.games:
        game = get_game(gid)
        path = shipped_model_path(game.key)
        net, _ = load_network(path, game)
        model = export_bytes(net)
        real_flush = network.flush_denormals_
        network.flush_denormals_ = lambda t: 0   # the export as it was made before denormals were zeroed
        try:
            before = export_bytes(net)
        finally:
            network.flush_denormals_ = real_flush
        fp32 = OrtEvaluator(session(model))
        t0 = time.process_time()
        calib = int8.calibration_planes(game, fp32)
        calibration_s = time.process_time() - t0
        t0 = time.process_time()
        quantized = int8.quantize_static_int8(model, calib)
        quantize_s = time.process_time() - t0
        evaluators = {"fp32-before": OrtEvaluator(session(before)), "fp32": fp32,
                      "int8": OrtEvaluator(session(quantized)),
                      "int8-all": OrtEvaluator(session(int8.quantize_static_int8(model, calib, keep_float=[]))),
                      "int8-checked": CheckedInt8Evaluator(session(quantized), session(model))}
        held = policy_game_positions(game, fp32, args.positions, seed=0)
        acc = {}
        for name in ("int8", "int8-all", "int8-checked"):
            a = accuracy(fp32, evaluators[name], held)
            acc[name] = {**a, "passes_bar": is_accurate(a)}
        checked = evaluators["int8-checked"]
        acc["int8-checked"]["looked_again"] = round(checked.looked_again / max(1, checked.looked), 4)
        timing = policy_game_positions(game, fp32, 256, seed=1)   # other positions than the check's
        speed = {}
        for batch in (1, 8):
            batches = [np.stack([fp32.encode(s) for s in timing[i:i + batch]]) for i in range(0, len(timing), batch)]
            us = cpu_us_per_position(evaluators, batches, args.rounds)
            speed[str(batch)] = {"cpu_us_per_position": {k: round(v, 1) for k, v in us.items()},
                                 "ratio_to_fp32": {k: round(v / us["fp32"], 3) for k, v in us.items()}}
        print(json.dumps({"game": gid, "model": str(path.name), "date": time.strftime("%Y-%m-%d"), "cpu": cpu_description(),
                          "speed": speed, "accuracy_vs_fp32": acc, "held_out_positions": len(held),
                          "calibration_positions": len(calib), "calibration_cpu_s": round(calibration_s, 2),
                          "quantize_cpu_s": round(quantize_s, 2)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
