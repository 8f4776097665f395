"""Static int8 with a float32 second look (exploratory): run the int8 network; where its two
highest logits lie within DELTA of each other (over all actions, as a runtime that sees only
the planes must judge; or over the legal moves), take float32's outputs for that position
instead. Prints, per game and DELTA, the share of positions looked at again and the accuracy
check's figures (same first choice, mean value difference) of the mixed outputs against
float32, on the check's 1,000 held-out positions (seed 0). Run from the project root."""
import json, sys
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from games import get_game
from engine.core.onnxnet import OrtEvaluator, session
from engine.core.evaluators import policy_game_positions
from engine.core import int8

DELTAS = (0.0, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5)
for gid in sys.argv[1:] or ("xiangqi", "othello", "gomoku"):
    game = get_game(gid)
    model = open(f"models/{gid}.onnx", "rb").read()
    ref = OrtEvaluator(session(model))
    q = OrtEvaluator(session(int8.quantize_for(model, game, ref)), "ort-int8-static")
    pos = policy_game_positions(game, ref, 1000)
    A, B, VA, VB, legal = [], [], [], [], []
    for i in range(0, len(pos), 64):
        chunk = pos[i:i + 64]
        x = np.stack([ref.encode(s) for s in chunk])
        a, va = ref.infer(x); b, vb = q.infer(x)
        A.extend(a); B.extend(b); VA.extend(np.ravel(va)); VB.extend(np.ravel(vb))
        legal.extend(s.legal_actions() for s in chunk)
    VA, VB = np.array(VA, np.float64), np.array(VB, np.float64)
    gap_all = np.array([np.diff(np.sort(b)[-2:])[0] for b in B])
    gap_legal = np.array([np.diff(np.sort(b[l])[-2:])[0] if len(l) > 1 else 9.0 for b, l in zip(B, legal)])
    same = np.array([l[int(np.argmax(a[l]))] == l[int(np.argmax(b[l]))] for a, b, l in zip(A, B, legal)])
    vdiff = np.abs(VA - VB)
    for basis, gap in (("all", gap_all), ("legal", gap_legal)):
        for d in DELTAS:
            look = gap < d
            print(json.dumps({"game": gid, "gap_over": basis, "delta": d, "looked_again": round(float(look.mean()), 4),
                              "same_top_move": round(float((same | look).mean()), 4),
                              "mean_value_diff": round(float(np.where(look, 0, vdiff).mean()), 5)}), flush=True)
