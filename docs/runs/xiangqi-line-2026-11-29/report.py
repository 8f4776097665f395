"""Put the balanced-opening matches of the xiangqi line's generation 45 into models/xiangqi.json,
once its ship test (judge.py) has passed and the suite (`main.py evaluate --game xiangqi`) has
measured it (from the project root).

usage: python docs/runs/xiangqi-line-2026-11-29/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games (run.sh, run_elo.sh): against depth 1 from the balanced openings of seeds 1-4 and
against Elo 1350 at 1000 nodes from those of seeds 0-1, played by the candidate's file (the
same file as models/xiangqi.pt once shipped)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER = "model:models/xiangqi.pt@800?mat=8"
HERE = "docs/runs/xiangqi-line-2026-11-29"
WITH = ("generation 45 of the xiangqi line of 2026-11-29 (models/xiangqi.pt) with the material term "
        "(xiangqi's [play] material_scale = 8, so the app's levels play so)")
MATCHES = BASE["balanced_matches"](PLAYER, HERE, "line45-s{}.games.jsonl", range(1, 5),
                                   "elo1350-line45-s{}.games.jsonl", (0, 1), "2026-11-29", WITH,
                                   "run.sh", "run_elo.sh")


if __name__ == "__main__":
    BASE["main"](MATCHES)
