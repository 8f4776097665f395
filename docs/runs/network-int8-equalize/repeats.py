"""Exploratory (run from the project root): static int8 (the recipe) against float32 on the 1,000 held-out
positions, the disagreements counted by distinct position (how many times each recurs, its float top-two gap
in logits and its ply), and the agreement over distinct positions.
    python docs/runs/network-int8-equalize/repeats.py gomoku othello xiangqi"""
import sys, numpy as np
sys.path.insert(0, ".")
from games import get_game
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.evaluators import policy_game_positions
from engine.core import int8
configure_threads(1)
for gid in sys.argv[1:]:
    game = get_game(gid); net, _ = load_network(f"models/{gid}.pt", game)
    model = export_bytes(net)
    ev = OrtEvaluator(session(model))
    q = OrtEvaluator(session(int8.quantize_for(model, game, ev)), "ort-int8-static")
    pos = policy_game_positions(game, ev, 1000, seed=0)
    dis = {}
    count = {}
    gapof = {}; plies = {}
    for i in range(0, 1000, 64):
        ch = pos[i:i+64]; P = np.stack([ev.encode(s) for s in ch])
        a, _ = ev.infer(P); b, _ = q.infer(P)
        for s, x, y in zip(ch, a, b):
            leg = s.legal_actions(); k = s.key(); plies[k] = len(s.moves)
            count[k] = count.get(k, 0) + 1
            v = np.sort(x[leg])[::-1]; gapof[k] = float(v[0] - v[1]) if len(v) > 1 else 99
            if leg[int(np.argmax(x[leg]))] != leg[int(np.argmax(y[leg]))]:
                dis[k] = dis.get(k, 0) + 1
    tot = sum(dis.values())
    top = sorted(dis.items(), key=lambda kv: -kv[1])[:5]
    print(gid, "disagreements", tot, "in", len(dis), "distinct positions; the most repeated:", [(c, round(gapof[k], 3), plies[k]) for k, c in top])
    print(gid, "agreement", 1 - tot / 1000, "over distinct positions", 1 - len(dis) / len(count))
