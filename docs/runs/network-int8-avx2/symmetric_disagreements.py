# usage: python docs/runs/network-int8-avx2/symmetric_disagreements.py [--stones K] GAME [GAME ...]  (from the project root)
# For each game's shipped network: static int8 (the runtime's recipe) against ONNX Runtime float32 on
# 1,000 held-out positions of the network's own games (seed 0, as the accuracy check draws them), and
# how many first-choice disagreements are two moves that a symmetry of the position itself maps onto
# each other (the encoded planes unchanged by the board symmetry): the same move in all but name.
# With --stones K only the first K planes must be unchanged (gomoku's stones: --stones 2, leaving out
# the last-move plane, which breaks most symmetries; docs/network-int8.md, generation 184).
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
import numpy as np  # noqa: E402

from engine.core import int8  # noqa: E402
from engine.core.checkpoint import load_network  # noqa: E402
from engine.core.network import configure_threads  # noqa: E402
from engine.core.onnxnet import OrtEvaluator, export_bytes, session  # noqa: E402
from engine.core.paths import shipped_model_path  # noqa: E402
from engine.core.runtime import policy_game_positions  # noqa: E402
from games import get_game  # noqa: E402

configure_threads(1)
args = sys.argv[1:]
planes_kept = None
if args[:1] == ["--stones"]:
    planes_kept, args = int(args[1]), args[2:]
for gid in args:
    game = get_game(gid)
    net, _ = load_network(shipped_model_path(game.key), game)
    model = export_bytes(net)
    fp32 = OrtEvaluator(session(model))
    q = OrtEvaluator(session(int8.quantize_static_int8(model, int8.calibration_planes(game, fp32))))
    held = policy_game_positions(game, fp32, 1000, seed=0)
    syms = game.symmetries()[1:]
    same = same_up_to_symmetry = symmetric = 0
    for s in held:
        planes = fp32.encode(s)
        flat = planes[:planes_kept].reshape(len(planes[:planes_kept]), -1)
        fixing = [ap for cp, ap in syms if np.array_equal(flat[:, cp], flat)]
        symmetric += bool(fixing)
        a, _ = fp32.infer(planes[None])
        b, _ = q.infer(planes[None])
        legal = s.legal_actions()
        ma, mb = legal[int(np.argmax(a[0][legal]))], legal[int(np.argmax(b[0][legal]))]
        same += ma == mb
        orbit = {ma} | {int(ap[ma]) for ap in fixing} | {int(np.where(ap == ma)[0][0]) for ap in fixing}
        same_up_to_symmetry += mb in orbit
    print(json.dumps({"game": gid, "positions": len(held), "symmetric_positions": symmetric, "same": same,
                      "same_up_to_symmetry": same_up_to_symmetry}), flush=True)
