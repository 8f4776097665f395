"""Of int8's first-choice disagreements with float32, how many are the same move up to a symmetry
of the position (the stones alone), on the shipped network's 1,000 held-out positions (seed 0) and
the runtime's own int8 recipe, as benchmarks/network_int8.py draws and quantizes them.

usage (from the project root): PYTHONPATH=. python docs/runs/network-int8-symmetry/symprobe.py GAME...
"""
import json, sys
import numpy as np
from engine.core import int8
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.paths import shipped_model_path
from engine.core.runtime import policy_game_positions
from games import get_game
configure_threads(1)
for gid in sys.argv[1:]:
    game = get_game(gid)
    net, _ = load_network(shipped_model_path(game.key), game)
    model = export_bytes(net)
    fp32 = OrtEvaluator(session(model))
    q = OrtEvaluator(session(int8.quantize_static_int8(model, int8.calibration_planes(game, fp32))))
    held = policy_game_positions(game, fp32, 1000, seed=0)
    syms = game.symmetries()
    same = dis = symeq = 0
    for i in range(0, len(held), 64):
        chunk = held[i:i + 64]
        x = np.stack([fp32.encode(s) for s in chunk])
        a, _ = fp32.infer(x); b, _ = q.infer(x)
        for s, pl, la, lb in zip(chunk, x, a, b):
            legal = s.legal_actions()
            ma, mb = legal[int(np.argmax(la[legal]))], legal[int(np.argmax(lb[legal]))]
            if ma == mb:
                same += 1; continue
            dis += 1
            # stones only: the first two planes (side to move's, opponent's)
            c, h, w = pl.shape
            flat = pl[:2].reshape(2, h * w)
            eq = False
            for cp, ap in syms[1:]:
                if np.array_equal(flat[:, cp], flat) and (ap[mb] == ma or ap[ma] == mb):
                    eq = True; break
            symeq += eq
    print(json.dumps({"game": gid, "positions": len(held), "same": same, "disagree": dis,
                      "disagree_same_up_to_symmetry": symeq,
                      "same_top_move_up_to_symmetry": round((same + symeq) / len(held), 4)}), flush=True)
