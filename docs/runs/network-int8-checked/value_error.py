"""gomoku: the structure of static int8's value error against float32 (analysis only)."""
import sys, json, numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from engine.core import int8
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.paths import shipped_model_path
from engine.core.runtime import policy_game_positions
from games import get_game
configure_threads(1)
gid = sys.argv[1] if len(sys.argv) > 1 else "gomoku"
game = get_game(gid)
net, _ = load_network(shipped_model_path(game.key), game)
model = export_bytes(net)
fp32 = OrtEvaluator(session(model))
calib = int8.calibration_planes(game, fp32)
q = OrtEvaluator(session(int8.quantize_static_int8(model, calib)))
def vals(ev, positions):
    out = []
    for i in range(0, len(positions), 64):
        planes = np.stack([fp32.encode(s) for s in positions[i:i+64]])
        out.append(np.asarray(ev.infer(planes)[1], np.float64).reshape(-1))
    return np.concatenate(out)
fit_pos = policy_game_positions(game, fp32, 1000, seed=7)
held = policy_game_positions(game, fp32, 1000, seed=0)
a, b = vals(fp32, fit_pos), vals(q, fit_pos)
A, B = vals(fp32, held), vals(q, held)
print("held mean|d|", np.mean(np.abs(A-B)), "signed", np.mean(B-A), "corr", np.corrcoef(A, B)[0,1])
# linear on the value, and on atanh(value)
k, c = np.polyfit(b, a, 1)
print("linear fit", k, c, "held mean|d| after", np.mean(np.abs(A - (k*B+c))))
at = lambda v: np.arctanh(np.clip(v, -0.999999, 0.999999))
k2, c2 = np.polyfit(at(b), at(a), 1)
print("atanh fit", k2, c2, "held after", np.mean(np.abs(A - np.tanh(k2*at(B)+c2))))
# error by |value|
for lo, hi in ((0, .3), (.3, .7), (.7, .95), (.95, 1.01)):
    m = (np.abs(A) >= lo) & (np.abs(A) < hi)
    print(f"|v| {lo}-{hi}: n={m.sum()} mean|d|={np.mean(np.abs(A-B)[m]):.4f} signed={np.mean((B-A)[m]):+.4f}")
