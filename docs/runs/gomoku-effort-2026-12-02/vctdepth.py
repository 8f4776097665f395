"""usage (from the project root): python docs/runs/gomoku-effort-2026-12-02/vctdepth.py GAMES.jsonl [LOST_GAMES]: for the lost games of player a, the moves after which the opponent has a VCT, by search depth and budget (rule.md)."""
import json, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from games.gomoku import Gomoku
g = Gomoku()
SETS = [(3, 600), (4, 5000), (5, 20000), (6, 100000)]
path = sys.argv[1]; limit = int(sys.argv[2]) if len(sys.argv) > 2 else 999
tot = {s: [0, 0, 0.0] for s in SETS}  # opp-vct-after-our-move found, our-vct found, cpu
firsts = {s: [] for s in SETS}
n = 0
for line in open(path):
    rec = json.loads(line)
    if rec["result"] != "loss": continue
    n += 1
    if n > limit: break
    s = g.initial_state()
    for t in rec["start"].split():
        s = s.apply(s.parse_action(t))
    a_turn = rec["a_first"]
    first_found = {st: None for st in SETS}
    for i, mv in enumerate(rec["moves"]):
        act = s.parse_action(mv)
        if a_turn:
            child = s.apply(act)
            if not child.is_terminal():
                for st in SETS:
                    t0 = time.process_time()
                    r = child.vct(threes=st[0], budget=st[1])
                    tot[st][2] += time.process_time() - t0
                    if r is not None:
                        tot[st][0] += 1
                        if first_found[st] is None: first_found[st] = i
        s = s.apply(act); a_turn = not a_turn
    for st in SETS:
        firsts[st].append(None if first_found[st] is None else len(rec["moves"]) - first_found[st])
print("loss games", min(n, limit))
for st in SETS:
    f = [x for x in firsts[st] if x is not None]
    print(st, "a-moves after which opp has VCT:", tot[st][0], "games with one:", len(f),
          "median plies before end:", sorted(f)[len(f)//2] if f else None, "cpu %.1f" % tot[st][2])
