"""Exploratory: a checkpoint's static int8 agreement with its own float32 under several calibrations
(min/max on 512 positions, the recipe; percentile 99.999 and 99.9999 on 2,048), on 1,000 held-out
positions of its own games:  python docs/runs/network-int8-calibration/checkpoint_methods.py GAME CHECKPOINT"""
import sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from onnxruntime.quantization import CalibrationMethod
from games import get_game
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.runtime import accuracy
from methods import prepare, quant  # beside this script
configure_threads(1)

gid, ckpt = sys.argv[1], sys.argv[2]
game = get_game(gid)
net, _ = load_network(ckpt, game)
model = export_bytes(net)
ref, pos, planes = prepare(game, model)
for name, method, pl, extra in [("minmax512", CalibrationMethod.MinMax, planes[:512], None),
                                ("pct99.999", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.999}),
                                ("pct99.9999", CalibrationMethod.Percentile, planes, {"CalibPercentile": 99.9999})]:
    q = quant(model, pl, method, extra)
    a = accuracy(ref, OrtEvaluator(session(q), "ort-int8-static"), pos)
    print(gid, Path(ckpt).name, name, a, flush=True)
