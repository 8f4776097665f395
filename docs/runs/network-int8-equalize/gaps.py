"""Exploratory (run from the project root): per game, how many of the 1,000 held-out positions of the
accuracy check are distinct, how often the float network's top two legal logits are within 0.01, 0.03 and 0.1.
    python docs/runs/network-int8-equalize/gaps.py gomoku xiangqi othello"""
import sys, numpy as np
sys.path.insert(0, ".")
from games import get_game
from engine.core.checkpoint import load_network
from engine.core.network import configure_threads
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.evaluators import policy_game_positions
configure_threads(1)
for gid in sys.argv[1:]:
    game = get_game(gid); net, _ = load_network(f"models/{gid}.pt", game)
    ev = OrtEvaluator(session(export_bytes(net)))
    pos = policy_game_positions(game, ev, 1000, seed=0)
    gaps = []
    keys = {}
    for i in range(0, 1000, 64):
        ch = pos[i:i+64]; lg, _ = ev.infer(np.stack([ev.encode(s) for s in ch]))
        for s, l in zip(ch, lg):
            leg = s.legal_actions(); v = np.sort(l[leg])[::-1]
            gaps.append(v[0] - v[1] if len(v) > 1 else np.inf)
            keys[s.key()] = keys.get(s.key(), 0) + 1
    g = np.array(gaps)
    print(gid, "distinct", len(keys), "most repeated", sorted(keys.values())[-3:], "gap<0.01", (g < 0.01).mean(), "<0.03", (g < 0.03).mean(), "<0.1", (g < 0.1).mean())
