"""Put the shipped xiangqi network's balanced-opening matches with the material term (2026-11-28, `[play] material_scale = 8`) into models/xiangqi.json (from the project root).

usage: python docs/runs/xiangqi-material-2026-11-28/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games: against depth 1 (run.sh, seeds 1-6) and against Elo 1350 at 1000 nodes
(run_elo.sh, seeds 0-1). The suite's 20-game entries stay as 2026-11-28 measured them, without
the material term, and the summary says so."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER = "model:models/xiangqi.pt@800?mat=8"
HERE = "docs/runs/xiangqi-material-2026-11-28"
WITH = ("with the capture search fixed (2026-11-28) and the material term (2026-11-28: the material the "
        "leaf's mover won or lost since the root, over 8 soldiers, in the leaf values; xiangqi's [play] "
        "material_scale, so the app's levels play so)")
MATCHES = BASE["balanced_matches"](PLAYER, HERE, "mat171-s{}.games.jsonl", range(1, 7),
                                   "elo1350-mat171-s{}.games.jsonl", (0, 1), "2026-11-28", WITH,
                                   "run.sh", "run_elo.sh")


if __name__ == "__main__":
    BASE["main"](MATCHES, ", measured on 2026-11-28 before the material term")
