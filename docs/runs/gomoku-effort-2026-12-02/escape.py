"""usage: python docs/runs/gomoku-effort-2026-12-02/escape.py GAMES.jsonl LOST_GAMES THREES,BUDGET: the moves only the deeper VCT flags, and whether an alternative was left unrefuted (rule.md)."""
import json, sys, time
from pathlib import Path
ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from games.gomoku import Gomoku
g = Gomoku()
SH = (3, 600); DEEP = tuple(int(x) for x in sys.argv[3].split(","))
path = sys.argv[1]; limit = int(sys.argv[2])
n = 0; flagged = 0; escapable = 0; lostgames_saved = 0; cpu = 0
for line in open(path):
    rec = json.loads(line)
    if rec["result"] != "loss": continue
    n += 1
    if n > limit: break
    s = g.initial_state()
    for t in rec["start"].split():
        s = s.apply(s.parse_action(t))
    a_turn = rec["a_first"]
    saved = False
    for i, mv in enumerate(rec["moves"]):
        act = s.parse_action(mv)
        if a_turn:
            child = s.apply(act)
            if not child.is_terminal() and child.vct(*SH) is None and child.vct(*DEEP) is not None:
                flagged += 1
                t0 = time.process_time()
                esc = [a for a in s.legal_actions() if (c := s.apply(a)).is_terminal() or c.vct(*DEEP) is None]
                cpu += time.process_time() - t0
                if esc:
                    escapable += 1
                    if not saved:
                        saved = True; lostgames_saved += 1
                        print(f"game {rec['game']} ply {i}: played {mv} flagged; {len(esc)} escapes e.g. {[s.action_to_text(a) for a in esc[:5]]}", flush=True)
        s = s.apply(act); a_turn = not a_turn
print("loss games", min(n, limit), "flagged moves", flagged, "with an escape (unrefuted alternative)", escapable,
      "games with a flagged escapable move", lostgames_saved, "cpu %.1f" % cpu)
