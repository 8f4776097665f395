"""In one process, taking turns: the Winograd runtime's network in one call (`forward`: the planes
copied in, the tower and the spatial heads in C) against its tower call with the heads through
`dense` calls from Python (`_infer_python_heads`), and ONNX Runtime float32; the three in every
order in turn, CPU microseconds a position at batch 8.

    python docs/runs/network-winograd-heads-2026-12-05/ab_forward.py ROUNDS GAME...
"""
import itertools
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from engine.core.checkpoint import load_network  # noqa: E402
from engine.core.network import configure_threads  # noqa: E402
from engine.core.onnxnet import OrtEvaluator, export_bytes, session  # noqa: E402
from engine.core.paths import shipped_model_path  # noqa: E402
from engine.core.runtime import policy_game_positions  # noqa: E402
from engine.core.winograd import WinogradEvaluator  # noqa: E402
from games import get_game  # noqa: E402

configure_threads(1)
rounds = int(sys.argv[1])
for gid in sys.argv[2:]:
    game = get_game(gid)
    net, _ = load_network(shipped_model_path(game.key), game)
    ort = OrtEvaluator(session(export_bytes(net)))
    wn = WinogradEvaluator(net).net
    pos = policy_game_positions(game, ort, 64, seed=1)
    bs = [np.stack([ort.encode(s) for s in pos[i:i + 8]]) for i in range(0, 64, 8)]
    arms = {"forward": wn.infer, "python heads": wn._infer_python_heads, "ort": ort.infer}
    res = {k: [] for k in arms}
    orders = list(itertools.permutations(arms))
    for r in range(rounds):
        for k in orders[r % len(orders)]:
            s = time.process_time()
            for x in bs:
                arms[k](x)
            res[k].append((time.process_time() - s) / 64 * 1e6)
    med = {k: sorted(t)[len(t) // 2] for k, t in res.items()}
    low = {k: min(t) for k, t in res.items()}
    lf, vf = wn.infer(bs[0])
    lp, vp = wn._infer_python_heads(bs[0])
    print(gid, {k: f"min {low[k]:.1f} median {med[k]:.1f}" for k in arms},
          f"ratio to ort: forward {low['forward'] / low['ort']:.3f} (median {med['forward'] / med['ort']:.3f}), "
          f"python heads {low['python heads'] / low['ort']:.3f} (median {med['python heads'] / med['ort']:.3f})",
          f"largest diff logit {np.abs(lf - lp).max():.2g} value {np.abs(vf - vp).max():.2g}", flush=True)
