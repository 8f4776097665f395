"""Put the shipped xiangqi network's balanced-opening matches with the material term (session
34, `[play] material_scale = 8`) into models/xiangqi.json (from the project root).

usage: python docs/runs/xiangqi-mat-s34/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games: against depth 1 (run.sh, seeds 1-6) and against Elo 1350 at 1000 nodes
(run_elo.sh, seeds 0-1). The suite's 20-game entries stay as session 33 measured them, without
the material term, and the summary says so."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
DEPTH1, ELO1350 = BASE["DEPTH1"], BASE["ELO1350"]
PLAYER = "model:models/xiangqi.pt@800?mat=8"
HERE = "docs/runs/xiangqi-mat-s34"
WITH = ("with the capture search fixed (session 33) and the material term (session 34: the material the "
        "leaf's mover won or lost since the root, over 8 soldiers, in the leaf values; xiangqi's [play] "
        "material_scale, so the app's levels play so)")
MATCHES = [
    {"opponent": "stockfish-depth1", "label": "fairy-stockfish at depth 1", "spec": DEPTH1, "player": PLAYER,
     "files": [f"{HERE}/mat171-s{s}.games.jsonl" for s in range(1, 7)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a '{PLAYER}' --b {DEPTH1} --games 40 "
               "--balanced-openings 2 --seed S for S = 1-6: 120 openings of 2 uniformly random moves, "
               "each played from both sides; the strong level's search (800 visits, no sampled moves) "
               f"without its 1 s cap, {WITH} ({HERE}/run.sh)"},
    {"opponent": "stockfish-elo1350", "label": "fairy-stockfish at Elo 1350, 1000 nodes", "spec": ELO1350,
     "player": PLAYER, "files": [f"{HERE}/elo1350-mat171-s{s}.games.jsonl" for s in (0, 1)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a '{PLAYER}' --b '{ELO1350}' --games 40 "
               "--balanced-openings 2 --seed S for S = 0, 1: 40 openings of 2 uniformly random moves, "
               f"each played from both sides; the strong level's search without its 1 s cap, {WITH} "
               f"({HERE}/run_elo.sh)"},
]

if __name__ == "__main__":
    BASE["main"](MATCHES, ", measured in session 33 before the material term")
