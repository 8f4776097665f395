"""CPU a position at batch 8 of candidate narrower xiangqi networks (float32 and static int8, ONNX
Runtime, one thread), as a ratio to the shipped network's float32; interleaved windows, CPU time.
Weights: the shipped network, and for each candidate a freshly initialised one whose batch-norm
statistics are set from a forward pass (speed does not depend on training, apart from denormals,
which export zeroes)."""
import json, sys, time
from pathlib import Path
import numpy as np
import torch
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parents[3] / "benchmarks"))
from network_int8 import cpu_us_per_position
from engine.core import int8
from engine.core.checkpoint import load_network
from engine.core.network import NetConfig, PolicyValueNet, configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.runtime import policy_game_positions
from games import get_game

configure_threads(1)
game = get_game("xiangqi")
teacher, _ = load_network("models/xiangqi.pt", game)
base = OrtEvaluator(session(export_bytes(teacher)))
calib = int8.calibration_planes(game, base, count=128)
timing = policy_game_positions(game, base, 256, seed=1)
batches = [np.stack([base.encode(s) for s in timing[i:i + 8]]) for i in range(0, 256, 8)]
evs = {"4x64 fp32": base, "4x64 int8": OrtEvaluator(session(int8.quantize_static_int8(export_bytes(teacher), calib)))}
for blocks, ch in [(4, 48), (3, 48), (4, 40), (3, 40), (4, 32)]:
    cfg = NetConfig.from_dict({**teacher.cfg.to_dict(), "blocks": blocks, "channels": ch, "value_hidden": 64})
    torch.manual_seed(0)
    net = PolicyValueNet(cfg)
    net.train(); net(torch.from_numpy(np.asarray(calib[:64], np.float32))); net.eval()
    m = export_bytes(net)
    evs[f"{blocks}x{ch} fp32"] = OrtEvaluator(session(m))
    evs[f"{blocks}x{ch} int8"] = OrtEvaluator(session(int8.quantize_static_int8(m, calib)))
us = cpu_us_per_position(evs, batches, rounds=int(sys.argv[1]) if len(sys.argv) > 1 else 10)
print(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M"), "cpu_us_batch8": {k: round(v, 1) for k, v in us.items()},
                  "ratio_to_4x64_fp32": {k: round(v / us["4x64 fp32"], 3) for k, v in us.items()}}, indent=1))
