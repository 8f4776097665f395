"""Put the balanced-opening matches of the xiangqi network shipped on 2026-11-28 (the attack
arm's generation 85, 20 input planes, with the material term) into models/xiangqi.json, after
the suite (`main.py evaluate --game xiangqi --out models/xiangqi.json`) has measured it (from
the project root).

usage: python docs/runs/xiangqi-ship-2026-11-28/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games (run.sh): against depth 1 from the balanced openings of seeds 1-8 and against
Elo 1350 at 1000 nodes from those of seeds 0-1, played by the network's committed copy
(docs/runs/ab-xiangqi-attack/attack-latest.pt, the same file as models/xiangqi.pt)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER = "model:docs/runs/ab-xiangqi-attack/attack-latest.pt@800?mat=8"
HERE = "docs/runs/xiangqi-ship-2026-11-28"
WITH = ("the network as shipped on 2026-11-28 (models/xiangqi.pt is this file) with the material term "
        "(xiangqi's [play] material_scale = 8, so the app's levels play so)")
MATCHES = BASE["balanced_matches"](PLAYER, HERE, "attackmat-s{}.games.jsonl", range(1, 9),
                                   "elo1350-attackmat-s{}.games.jsonl", (0, 1), "2026-11-28", WITH,
                                   "run.sh", "run.sh")


if __name__ == "__main__":
    BASE["main"](MATCHES)
