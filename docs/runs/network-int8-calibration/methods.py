"""Calibration methods for static int8 (exploratory): agreement with float32 on 1000 positions."""
import json, sys, time
import numpy as np
sys.path.insert(0, str(__import__("pathlib").Path(__file__).resolve().parents[3]))
from games import get_game
from engine.core.onnxnet import session, OrtEvaluator, run_quantizer
from engine.core.evaluators import policy_game_positions
from engine.core.runtime import accuracy
from engine.core import int8
import onnx
from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static

def quant(model, planes, method, extra=None):
    proto = onnx.load_from_string(model)
    keep = int8.float_nodes(proto)
    return run_quantizer(model, lambda src, dst: quantize_static(
        src, dst, int8._Planes(proto.graph.input[0].name, planes), quant_format=QuantFormat.QDQ, per_channel=True,
        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8, calibrate_method=method,
        nodes_to_exclude=keep, extra_options=extra or {}))

def prepare(game, model):
    """``model``'s float32 evaluator, 1,000 held-out positions of its games (seed 0, as the
    accuracy check draws them) and the planes of 2,048 calibration positions (seed 7919)."""
    ref = OrtEvaluator(session(model))
    pos = policy_game_positions(game, ref, 1000)
    cal = policy_game_positions(game, ref, 2048, seed=7919)
    return ref, pos, np.stack([ref.encode(s) for s in cal])


if __name__ == "__main__":
    games = sys.argv[1:] or ["othello", "xiangqi", "gomoku"]
    for gid in games:
        game = get_game(gid)
        model = open(f"models/{gid}.onnx", "rb").read()
        ref, pos, planes = prepare(game, model)
        variants = [("minmax512", CalibrationMethod.MinMax, planes[:512], None),
                    ("minmax2048", CalibrationMethod.MinMax, planes, None),
                    ("pct99.999", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.999}),
                    ("pct99.99", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.99}),
                    ("pct99.9", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.9}),
                    ("entropy", CalibrationMethod.Entropy, planes[:512], None)]
        for name, method, pl, extra in variants:
            t = time.process_time()
            try:
                q = quant(model, pl, method, extra)
                a = accuracy(ref, OrtEvaluator(session(q), "ort-int8-static"), pos)
            except Exception as e:
                a = {"error": str(e)[:200]}
            print(json.dumps({"game": gid, "variant": name, **a, "cpu_s": round(time.process_time() - t, 1)}), flush=True)
