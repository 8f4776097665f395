"""Where int8 (min/max and percentile 99.999 calibration) and float32 disagree on the first choice:
the float network's probability of its own first choice and of int8's."""
import json, sys
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parent))
from onnxruntime.quantization import CalibrationMethod
from games import get_game
from engine.core.onnxnet import OrtEvaluator, session
from methods import prepare, quant   # beside this script
for gid in ("gomoku", "xiangqi", "othello"):
    game = get_game(gid)
    model = open(f"models/{gid}.onnx", "rb").read()
    ref, pos, planes = prepare(game, model)
    for name, method, pl, extra in (("minmax512", CalibrationMethod.MinMax, planes[:512], None),
                                    ("pct99.999", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.999})):
        q = OrtEvaluator(session(quant(model, pl, method, extra)), "ort-int8-static")
        gaps, near = [], 0
        top_gap_all = []
        for i in range(0, len(pos), 64):
            chunk = pos[i:i + 64]
            x = np.stack([ref.encode(s) for s in chunk])
            a, _ = ref.infer(x); b, _ = q.infer(x)
            for s, la, lb in zip(chunk, a, b):
                legal = s.legal_actions()
                pa = np.exp(la[legal] - la[legal].max()); pa /= pa.sum()
                srt = np.sort(pa)[::-1]
                top_gap_all.append(srt[0] - (srt[1] if len(srt) > 1 else 0))
                ia, ib = int(np.argmax(la[legal])), int(np.argmax(lb[legal]))
                if ia != ib:
                    gaps.append(float(pa[ia] - pa[ib]))
        g = np.array(gaps); t = np.array(top_gap_all)
        print(json.dumps({"game": gid, "variant": name, "disagree": len(g),
                          "gap_median": round(float(np.median(g)), 4) if len(g) else None,
                          "disagree_gap_lt_0.02": int((g < 0.02).sum()), "disagree_gap_lt_0.05": int((g < 0.05).sum()),
                          "positions_top2_gap_lt_0.02": int((t < 0.02).sum()), "positions_top2_gap_lt_0.05": int((t < 0.05).sum())}), flush=True)
