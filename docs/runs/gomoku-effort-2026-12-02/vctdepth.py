"""usage (from the project root): python docs/runs/gomoku-effort-2026-12-02/vctdepth.py GAMES.jsonl [LOST_GAMES]:
for the lost games of player a, the moves after which the opponent has a VCT, by search depth and budget (rule.md)."""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games.gomoku import Gomoku  # noqa: E402

SETS = [(3, 600), (4, 5000), (5, 20000), (6, 100000)]


def own_moves(path, limit: int):
    """(record, ply, move, position before it, position after it) for every move of player a in the
    first ``limit`` games a lost (escape.py uses it too)."""
    g = Gomoku()
    lost = 0
    for line in open(path):
        rec = json.loads(line)
        if rec["result"] != "loss":
            continue
        lost += 1
        if lost > limit:
            return
        s = g.initial_state()
        for t in rec["start"].split():
            s = s.apply(s.parse_action(t))
        a_turn = rec["a_first"]
        for i, mv in enumerate(rec["moves"]):
            child = s.apply(s.parse_action(mv))
            if a_turn:
                yield rec, i, mv, s, child
            s, a_turn = child, not a_turn


def main() -> None:
    path, limit = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 999
    found = {st: 0 for st in SETS}
    cpu = {st: 0.0 for st in SETS}
    first = {}   # (game, settings) -> plies from the first flagged move to the end
    games = set()
    for rec, i, _, _, child in own_moves(path, limit):
        games.add(rec["game"])
        if child.is_terminal():
            continue
        for st in SETS:
            t0 = time.process_time()
            hit = child.vct(threes=st[0], budget=st[1]) is not None
            cpu[st] += time.process_time() - t0
            if hit:
                found[st] += 1
                first.setdefault((rec["game"], st), len(rec["moves"]) - i)
    print("loss games", len(games))
    for st in SETS:
        f = sorted(v for (_, s), v in first.items() if s == st)
        print(st, "a-moves after which opp has VCT:", found[st], "games with one:", len(f),
              "median plies before end:", f[len(f) // 2] if f else None, "cpu %.1f" % cpu[st])


if __name__ == "__main__":
    main()
