"""CPU time a position at batch 8 on the network's own positions (exploratory): ONNX Runtime
float32, static int8, and static int8 with a float32 second look where its two highest logits
lie within DELTA (the float32 call gets only those rows). Rounds interleaved, process CPU time,
one thread. Run from the project root: python docs/runs/network-int8-checked/timing.py GAME DELTA..."""
import json, sys, time
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from games import get_game
from engine.core.onnxnet import OrtEvaluator, session
from engine.core.evaluators import policy_game_positions
from engine.core import int8

gid, deltas = sys.argv[1], [float(d) for d in sys.argv[2:]] or [0.15]
game = get_game(gid)
model = open(f"models/{gid}.onnx", "rb").read()
ref = OrtEvaluator(session(model))
q = OrtEvaluator(session(int8.quantize_for(model, game, ref)), "ort-int8-static")
pos = policy_game_positions(game, ref, 1024, seed=3)
batches = [np.stack([ref.encode(s) for s in pos[i:i + 8]]) for i in range(0, len(pos), 8)]


def checked(x, delta):
    logits, values = q.infer(x)
    top2 = np.partition(logits, -2, axis=1)[:, -2:]
    rows = np.flatnonzero(top2[:, 1] - top2[:, 0] < delta)
    if len(rows):
        fl, fv = ref.infer(x[rows])
        logits[rows] = fl
        values[rows] = fv
    return logits, values, len(rows)


def run(fn):
    t = time.process_time()
    for x in batches:
        fn(x)
    return (time.process_time() - t) / len(pos) * 1e6


for x in batches[:4]:
    ref.infer(x); q.infer(x)
cpu = {"fp32": [], "int8": [], **{f"checked{d}": [] for d in deltas}}
looked = {d: sum(checked(x, d)[2] for x in batches) / len(pos) for d in deltas}
for _ in range(5):
    cpu["fp32"].append(run(ref.infer))
    cpu["int8"].append(run(q.infer))
    for d in deltas:
        cpu[f"checked{d}"].append(run(lambda x, d=d: checked(x, d)))
best = {k: min(v) for k, v in cpu.items()}
print(json.dumps({"game": gid, "cpu_us_per_position_best_of_5": {k: round(v, 1) for k, v in best.items()},
                  "of_fp32": {k: round(v / best["fp32"], 3) for k, v in best.items()},
                  "looked_again": {str(d): round(v, 4) for d, v in looked.items()}}))
