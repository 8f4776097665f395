"""Checked int8 with a value band (analysis): the accuracy bar and the CPU at batch 8 (analysis only)."""
import sys, json, numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3] / "benchmarks"))
from engine.core import int8
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, CheckedInt8Evaluator, export_bytes, session
from engine.core.paths import shipped_model_path
from engine.core.runtime import policy_game_positions, accuracy, is_accurate
from network_int8 import cpu_us_per_position
from games import get_game
configure_threads(1)
gid = sys.argv[1]
pairs = [tuple(float(y) for y in x.split(":")) for x in sys.argv[2:]]
game = get_game(gid)
net, _ = load_network(shipped_model_path(game.key), game)
model = export_bytes(net)
fp32 = OrtEvaluator(session(model))
calib = int8.calibration_planes(game, fp32)
qm = int8.quantize_static_int8(model, calib)

class Banded(CheckedInt8Evaluator):
    def __init__(self, a, b, band):
        super().__init__(a, b); self.band = band
    def infer(self, planes):
        logits, values = self.int8.infer(planes)
        top2 = np.partition(logits, -2, axis=1)[:, -2:]
        v = np.asarray(values).reshape(len(logits), -1)[:, 0]
        rows = np.flatnonzero((top2[:, 1] - top2[:, 0] < self.margin) | (np.abs(v) < self.band))
        self.looked += len(logits)
        if len(rows):
            self.looked_again += len(rows)
            el, ev = self.float.infer(np.asarray(planes)[rows])
            logits[rows] = el; values[rows] = ev
        return logits, values

evs = {"fp32": fp32, "int8": OrtEvaluator(session(qm))}
for m, b in pairs:
    e = Banded(session(qm), session(model), b); e.margin = m; evs[f"m{m}b{b}"] = e
held = policy_game_positions(game, fp32, 1000, seed=0)
out = {"game": gid}
for name, ev in evs.items():
    if name == "fp32": continue
    a = accuracy(fp32, ev, held)
    if hasattr(ev, "looked"):
        a["looked_again"] = round(ev.looked_again / max(1, ev.looked), 4)
    a["passes"] = is_accurate(a)
    out[name] = a
timing = policy_game_positions(game, fp32, 256, seed=1)
batches = [np.stack([fp32.encode(s) for s in timing[i:i + 8]]) for i in range(0, len(timing), 8)]
us = cpu_us_per_position(evs, batches, 10)
out["ratio_b8"] = {k: round(v / us["fp32"], 3) for k, v in us.items()}
out["us_fp32_b8"] = round(us["fp32"], 1)
print(json.dumps(out))
