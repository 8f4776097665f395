"""2026-11-27 pilot: how decisive gomoku self-play becomes from random starts. N games of a run's
latest network with the run's own self-play settings, all starting from K uniformly random stones
(`random_opening_plies`), for each K given. Run from the repository root:
    python docs/runs/ab-gomoku-ro/pilot_ro.py RUN_DIR GAMES K [K ...]
(ZEROBOARD_GOMOKU_VCT_BUDGET=0 as the lines train)."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from engine.training.workers import selfplay_job  # noqa: E402

run_dir, games = sys.argv[1], int(sys.argv[2])
run = json.load(open(f"{run_dir}/run.json"))
config = (run.get("config_changes") or [run])[-1]["config"]   # the settings the run trains with now
for k in map(int, sys.argv[3:]):
    settings = dict(config["selfplay"], random_opening_plies=k, random_opening_share=1.0)
    _, st = selfplay_job(run["game_key"], f"{run_dir}/latest.pt", settings, games, 11)
    print(f"random stones {k}: max_plies {settings['max_plies']}",
          {x: st[x] for x in ("games", "wins", "draws", "plies", "positions", "resigned", "seconds")}, flush=True)
