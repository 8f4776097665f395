"""2026-11-26 pilot: 32 self-play games of the gomoku main line (runs/gab5/base, generation 97)
with its own settings from the empty board, 3 and 5 random opening plies; prints each set's
decided games. Run from the repository root."""
import json, sys, os
os.environ["ZEROBOARD_GOMOKU_VCT_BUDGET"] = "0"
sys.path.insert(0, ".")
from engine.training.workers import selfplay_job
run = json.load(open("runs/gab5/base/run.json"))
sp = dict(run["config"]["selfplay"])
for k in (0, 3, 5):
    s = dict(sp, random_opening_plies=k)
    _, st = selfplay_job(run["game_key"], "runs/gab5/base/latest.pt", s, 32, 11)
    print(k, {x: st[x] for x in ("games", "wins", "draws", "plies", "positions", "resigned", "seconds")}, flush=True)
