"""CPU a position at batch 8 of candidate narrower networks for a game (float32 and static int8, ONNX
Runtime, one thread), as a ratio to the shipped network's float32; interleaved windows, CPU time.

    python tools/net_shapes.py [ROUNDS] [--game G] [--shapes 4x48 3x48 ...]

The defaults (xiangqi; 4x48 3x48 4x40 3x40 4x32) are docs/runs/xiangqi-narrow-2026-12-02/shapes.txt.
Weights: the shipped network, and for each candidate a freshly initialised one whose batch-norm
statistics are set from a forward pass (speed does not depend on training, apart from denormals,
which export zeroes)."""
import argparse, json, sys, time
from pathlib import Path
import numpy as np
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
from network_int8 import cpu_us_per_position
from engine.core import int8
from engine.core.checkpoint import load_network
from engine.core.network import NetConfig, PolicyValueNet, configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.runtime import policy_game_positions
from games import get_game

ap = argparse.ArgumentParser()
ap.add_argument("rounds", nargs="?", type=int, default=10)
ap.add_argument("--game", default="xiangqi")
ap.add_argument("--shapes", nargs="+", default=["4x48", "3x48", "4x40", "3x40", "4x32"])
args = ap.parse_args()
configure_threads(1)
game = get_game(args.game)
teacher, _ = load_network(f"models/{game.key}.pt", game)
ref = f"{teacher.cfg.blocks}x{teacher.cfg.channels}"
base = OrtEvaluator(session(export_bytes(teacher)))
calib = int8.calibration_planes(game, base, count=128)
timing = policy_game_positions(game, base, 256, seed=1)
batches = [np.stack([base.encode(s) for s in timing[i:i + 8]]) for i in range(0, 256, 8)]
evs = {f"{ref} fp32": base, f"{ref} int8": OrtEvaluator(session(int8.quantize_static_int8(export_bytes(teacher), calib)))}
for blocks, ch in [tuple(int(n) for n in shape.split("x")) for shape in args.shapes]:
    cfg = NetConfig.from_dict({**teacher.cfg.to_dict(), "blocks": blocks, "channels": ch, "value_hidden": 64})
    torch.manual_seed(0)
    net = PolicyValueNet(cfg)
    net.train(); net(torch.from_numpy(np.asarray(calib[:64], np.float32))); net.eval()
    m = export_bytes(net)
    evs[f"{blocks}x{ch} fp32"] = OrtEvaluator(session(m))
    evs[f"{blocks}x{ch} int8"] = OrtEvaluator(session(int8.quantize_static_int8(m, calib)))
us = cpu_us_per_position(evs, batches, rounds=args.rounds)
print(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "cpu_us_batch8": {k: round(v, 1) for k, v in us.items()},
                  f"ratio_to_{ref}_fp32": {k: round(v / us[f"{ref} fp32"], 3) for k, v in us.items()}}, indent=1))
