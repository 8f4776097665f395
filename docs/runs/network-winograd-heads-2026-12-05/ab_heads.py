"""In one process, taking turns: the Winograd runtime's whole call (tower and heads) before (the heads
of fb04bf5, each 1x1 layer on a copied-out board, the last columns one at a time) and after, with
ONNX Runtime float32 beside them; the three in every order in turn.

    python docs/runs/network-winograd-heads-2026-12-05/ab_heads.py ROUNDS GAME... (MODULES=dir)

MODULES (default /tmp/w/old) holds the two builds of engine/core/_winograd_c.c and csrc/winograd.c
under other names, so that both load in one process: _winograd_old.so from fb04bf5's sources and
_winograd_new.so from this commit's, each built with setup.py's flags and
-DPyInit__winograd_c=PyInit__winograd_old (or _new)."""
import importlib.util
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
MODULES = os.environ.get("MODULES", "/tmp/w/old")


def mod(name):
    spec = importlib.util.spec_from_file_location(name, f"{MODULES}/{name}.so")
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m



old, new = mod("_winograd_old"), mod("_winograd_new")
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.paths import shipped_model_path
from engine.core.runtime import policy_game_positions
from engine.core.winograd import WinogradEvaluator, WinogradNet
from games import get_game
configure_threads(1)

def old_infer(self, planes):
    x = self.tower(planes)
    b = x.shape[0]
    cells = self.height * self.width
    flat = np.ascontiguousarray(x).reshape(b * cells, self.channels)
    def dense(x, layer, relu):
        w, bb = layer
        out = np.empty((x.shape[0], w.shape[1]), np.float32)
        self._c.dense(x.shape[0], w.shape[0], w.shape[1], x, w, bb, relu, out)
        return out
    hidden = dense(flat, self.p1, True)
    if self.spatial:
        grid = dense(hidden, self.p2, False).reshape(b, cells, self.policy_planes)
        logits = grid.transpose(0, 2, 1).reshape(b, self.policy_planes * cells)
        if self.extra is not None:
            pooled = flat.reshape(b, cells, self.channels).mean(axis=1, dtype=np.float32)
            logits = np.concatenate([logits, dense(pooled, self.extra, False)], axis=1)
    else:
        two = np.ascontiguousarray(hidden.reshape(b, cells, hidden.shape[1]).transpose(0, 2, 1)).reshape(b, cells * hidden.shape[1])
        logits = dense(two, self.fc, False)
    v = dense(flat, self.v1, True).reshape(b, cells)
    v = dense(v, self.v2, True)
    raw = dense(v, self.v3, False)
    if self.wdl:
        e = np.exp(raw - raw.max(axis=1, keepdims=True)); p = e / e.sum(axis=1, keepdims=True); values = p[:, 0] - p[:, 2]
    else:
        values = np.tanh(raw[:, 0])
    return np.ascontiguousarray(logits, dtype=np.float32), values.astype(np.float32)

for gid in sys.argv[2:]:
    game = get_game(gid); rounds = int(sys.argv[1])
    net, _ = load_network(shipped_model_path(game.key), game)
    ort = OrtEvaluator(session(export_bytes(net)))
    wn = WinogradEvaluator(net).net
    pos = policy_game_positions(game, ort, 64, seed=1)
    bs = [np.stack([ort.encode(s) for s in pos[i:i+8]]) for i in range(0, 64, 8)]
    arms = {"old": (old, lambda x: old_infer(wn, x)), "new": (new, wn.infer), "ort": (new, ort.infer)}
    res = {k: [] for k in arms}
    import itertools
    orders = list(itertools.permutations(arms))
    for r in range(rounds):
        for k in orders[r % len(orders)]:
            wn._c, f = arms[k]
            s = time.process_time()
            for x in bs: f(x)
            res[k].append((time.process_time() - s) / 64 * 1e6)
    wn._c = new; ln, vn = wn.infer(bs[0]); wn._c = old; lo, vo = old_infer(wn, bs[0])
    med = {k: sorted(t)[len(t)//2] for k, t in res.items()}
    print(gid, {k: "min %.1f median %.1f" % (min(t), med[k]) for k, t in res.items()},
          "ratio to ort (median): old %.3f new %.3f; new/old %.3f" % (med["old"] / med["ort"], med["new"] / med["ort"], med["new"] / med["old"]),
          "largest diff logit %.2g value %.2g" % (np.abs(ln - lo).max(), np.abs(vn - vo).max()))
