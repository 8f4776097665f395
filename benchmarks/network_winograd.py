"""Benchmark: the network's CPU per position with its convolutions by Winograd (runtime "wino-fp32")
against ONNX Runtime and torch in float32, and how closely its outputs agree.

For each game's shipped model, one process, one thread: ONNX Runtime float32 ("ort-fp32", the
runtime the app takes today on the machines measured), torch float32 ("torch-fp32") and the
Winograd runtime ("wino-fp32", engine/core/winograd.py). Speed: microseconds of this process's
CPU time per position at batches 1, 8 and 32 over 256 positions of the network's own games, the
best of --rounds windows of 0.1 CPU-s each, the runtimes taking turns window by window, and each
one's ratio to "ort-fp32". Agreement with "ort-fp32" on --positions held-out positions of the
network's own games (`policy_game_positions`, seed 0, as the runtime's accuracy check draws
them): the mean and largest value difference, the share with the same first choice among the
legal moves, and the largest logit difference. Prints one JSON line per game.

    python benchmarks/network_winograd.py [--games xiangqi gomoku othello connect4] [--rounds 10] [--positions 1000]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.network_int8 import cpu_description, cpu_us_per_position  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["xiangqi", "gomoku", "othello", "connect4"])
    ap.add_argument("--rounds", type=int, default=10)
    ap.add_argument("--positions", type=int, default=1000)
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 8, 32])
    args = ap.parse_args()
    from engine.core.checkpoint import load_network
    from engine.core.evaluators import NetworkEvaluator
    from engine.core.network import configure_threads
    from engine.core.onnxnet import OrtEvaluator, export_bytes, session
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import accuracy, policy_game_positions
    from engine.core.winograd import WinogradEvaluator, load
    from games import get_game
    configure_threads(1)
    kernels = load().kernels()
    for gid in args.games:
        game = get_game(gid)
        path = shipped_model_path(game.key)
        net, _ = load_network(path, game)
        ort = OrtEvaluator(session(export_bytes(net)))
        evaluators = {"ort-fp32": ort, "torch-fp32": NetworkEvaluator(net), "wino-fp32": WinogradEvaluator(net)}
        held = policy_game_positions(game, ort, args.positions, seed=0)
        agree = accuracy(ort, evaluators["wino-fp32"], held)
        planes = np.stack([ort.encode(s) for s in held[:256]])
        largest_logit = float(np.abs(ort.infer(planes)[0] - evaluators["wino-fp32"].infer(planes)[0]).max())
        timing = policy_game_positions(game, ort, 256, seed=1)   # other positions than the check's
        speed = {}
        for batch in args.batches:
            batches = [np.stack([ort.encode(s) for s in timing[i:i + batch]]) for i in range(0, len(timing), batch)]
            us = cpu_us_per_position(evaluators, batches, args.rounds)
            speed[str(batch)] = {"cpu_us_per_position": {k: round(v, 1) for k, v in us.items()},
                                 "ratio_to_ort_fp32": {k: round(v / us["ort-fp32"], 3) for k, v in us.items()}}
        print(json.dumps({"game": gid, "model": path.name, "net": f"{net.cfg.blocks}x{net.cfg.channels}",
                          "date": time.strftime("%Y-%m-%d"), "cpu": cpu_description(), "kernels": kernels,
                          "speed": speed, "agreement_with_ort_fp32": {**agree, "largest_logit_diff": largest_logit},
                          "held_out_positions": len(held)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
