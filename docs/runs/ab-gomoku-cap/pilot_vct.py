"""Session 26 pilot: 32 self-play games of the gomoku main line (runs/g6/plain, latest) with its
own settings; the VCT budget comes from the environment (ZEROBOARD_GOMOKU_VCT_BUDGET)."""
import json, sys, os
sys.path.insert(0, ".")
from engine.training.workers import selfplay_job
run = json.load(open("runs/g6/plain/run.json"))
sp = dict(run["config"]["selfplay"])
for k in [int(x) for x in sys.argv[1:]] or [0]:
    s = dict(sp, random_opening_plies=k, random_opening_share=1.0 if k else 0.0)
    _, st = selfplay_job(run["game_key"], "runs/g6/plain/latest.pt", s, 32, 11)
    print(os.environ.get("ZEROBOARD_GOMOKU_VCT_BUDGET"), k, {x: st[x] for x in ("games", "wins", "draws", "plies", "positions", "resigned", "seconds")}, flush=True)
