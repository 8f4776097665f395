"""usage: python docs/runs/gomoku-effort-2026-12-02/cost.py VISITS POSITIONS: CPU a move of generation 881 at proof efforts 1-3, interleaved per position (rule.md)."""
import json, sys, time, random
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from games.gomoku import Gomoku
from engine.commands.specs import player_from_spec
g = Gomoku()
visits = int(sys.argv[1]); npos = int(sys.argv[2])
recs = [json.loads(l) for l in open(ROOT / "docs/runs/gomoku-ship-deep7-2026-12-02/rapfi/g881-s9140.games.jsonl")]
rng = random.Random(5); states = []
for rec in rng.sample(recs, npos):
    s = g.initial_state()
    for t in rec["start"].split(): s = s.apply(s.parse_action(t))
    k = rng.randrange(4, max(5, len(rec["moves"]) - 2))
    for mv in rec["moves"][:k]: s = s.apply(s.parse_action(mv))
    states.append(s)
players = {e: player_from_spec(g, f"model:{ROOT}/models/gomoku.pt@{visits}?effort={e}", seed=1, opening_plies=0) for e in (1, 2, 3)}
cpu = {e: 0.0 for e in players}; diff = {e: 0 for e in players}
for s in states:
    moves = {}
    for e, p in players.items():
        if hasattr(p, "reset"): p.reset()
        t0 = time.process_time(); moves[e] = p.choose(s).action; cpu[e] += time.process_time() - t0
    for e in players: diff[e] += moves[e] != moves[1]
for e in players: print(f"effort {e}: {cpu[e]/len(states)*1000:.0f} ms a move (ratio {cpu[e]/cpu[1]:.2f}), different move from effort 1 in {diff[e]} of {len(states)}")
