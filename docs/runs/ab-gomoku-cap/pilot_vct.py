"""2026-11-27 pilot: 32 self-play games of the gomoku main line (runs/g6/plain, latest) with its
own settings; the VCT budget comes from the environment (ZEROBOARD_GOMOKU_VCT_BUDGET: run with 0
and with 600). Run from the repository root."""
import json, sys, os
sys.path.insert(0, ".")
from engine.training.workers import selfplay_job
run = json.load(open("runs/g6/plain/run.json"))
_, st = selfplay_job(run["game_key"], "runs/g6/plain/latest.pt", run["config"]["selfplay"], 32, 11)
print(os.environ.get("ZEROBOARD_GOMOKU_VCT_BUDGET"), 0,
      {x: st[x] for x in ("games", "wins", "draws", "plies", "positions", "resigned", "seconds")}, flush=True)
