"""Put the balanced-opening matches of the xiangqi network shipped in session 35 (the attack
arm's generation 85, 20 input planes, with the material term) into models/xiangqi.json, after
the suite (`main.py evaluate --game xiangqi --out models/xiangqi.json`) has measured it (from
the project root).

usage: python docs/runs/xiangqi-ship-s35/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games (run.sh): against depth 1 from the balanced openings of seeds 1-8 and against
Elo 1350 at 1000 nodes from those of seeds 0-1, played by the network's committed copy
(docs/runs/ab-xiangqi-attack/attack-latest.pt, the same file as models/xiangqi.pt)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
DEPTH1, ELO1350 = BASE["DEPTH1"], BASE["ELO1350"]
PLAYER = "model:docs/runs/ab-xiangqi-attack/attack-latest.pt@800?mat=8"
HERE = "docs/runs/xiangqi-ship-s35"
WITH = ("the network as shipped in session 35 (models/xiangqi.pt is this file) with the material term "
        "(xiangqi's [play] material_scale = 8, so the app's levels play so)")
MATCHES = [
    {"opponent": "stockfish-depth1", "label": "fairy-stockfish at depth 1", "spec": DEPTH1, "player": PLAYER,
     "files": [f"{HERE}/attackmat-s{s}.games.jsonl" for s in range(1, 9)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a '{PLAYER}' --b {DEPTH1} --games 40 "
               "--balanced-openings 2 --seed S for S = 1-8: 160 openings of 2 uniformly random moves, "
               "each played from both sides; the strong level's search (800 visits, no sampled moves) "
               f"without its 1 s cap, {WITH} ({HERE}/run.sh)"},
    {"opponent": "stockfish-elo1350", "label": "fairy-stockfish at Elo 1350, 1000 nodes", "spec": ELO1350,
     "player": PLAYER, "files": [f"{HERE}/elo1350-attackmat-s{s}.games.jsonl" for s in (0, 1)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a '{PLAYER}' --b '{ELO1350}' --games 40 "
               "--balanced-openings 2 --seed S for S = 0, 1: 40 openings of 2 uniformly random moves, "
               f"each played from both sides; the strong level's search without its 1 s cap, {WITH} "
               f"({HERE}/run.sh)"},
]

if __name__ == "__main__":
    BASE["main"](MATCHES)
