"""For each AI move in lost gomoku games: does the opponent have a VCT if the AI passes; would a
threat-space defence have found a surviving move; did the AI's actual move allow a VCT?

    python docs/runs/gomoku-defence/threat_analysis.py GAMES.jsonl THREES BUDGET

GAMES.jsonl: `arena --games-out` lines (player A is the AI); THREES, BUDGET: the VCT limits (4 5000).
The last line sums up: positions, null-move VCTs found, moves that allowed a VCT ("allowed"), of
those the ones where some candidate defence survived ("fixable"), positions where none did."""
import json, sys, time
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games import get_game
from games.gomoku import _bits
g = get_game("gomoku")
THREES, BUDGET = int(sys.argv[2]), int(sys.argv[3])


def opp_vct(state):
    """VCT for the side NOT to move, as if the side to move passed."""
    return state._vct_for(1 - state.current_player, THREES, [BUDGET])


def child_vct(state, action, threes=THREES, budget=BUDGET):
    c = state.apply(action)
    if c.is_terminal():
        return None
    return c.vct(threes=threes, budget=budget)

stats = dict(pos=0, null=0, allowed=0, fixable=0, lostall=0, t_null=0.0, t_def=0.0, cands=0)
for line in open(sys.argv[1]):
    r = json.loads(line)
    if r["result"] != "loss":
        continue
    s = g.state_from_text(r["start"])
    ai = 0 if r["a_first"] else 1
    for m in r["moves"]:
        a = s.parse_action(m)
        if s.current_player == ai and not s.is_terminal():
            stats["pos"] += 1
            t = time.perf_counter()
            null = opp_vct(s)
            stats["t_null"] += time.perf_counter() - t
            if null is not None:
                stats["null"] += 1
                cands = s.defence_candidates()
                stats["cands"] += cands.bit_count()
                t = time.perf_counter()
                surv = [p.bit_length() - 1 for p in _bits(cands) if child_vct(s, p.bit_length() - 1) is None]
                stats["t_def"] += time.perf_counter() - t
                allowed = child_vct(s, a) is not None
                stats["allowed"] += allowed
                if allowed and surv:
                    stats["fixable"] += 1
                if not surv:
                    stats["lostall"] += 1
                print(r["game"], len(s.moves), m, "null", s.action_to_text(null.bit_length()-1), "cands", cands.bit_count(),
                      "surv", len(surv), "allowed", allowed, flush=True)
        s = s.play(a)
print(json.dumps(stats))
