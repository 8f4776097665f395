"""Put the shipped xiangqi network's balanced-opening matches with the capture search fixed
(2026-11-28) into models/xiangqi.json (from the project root).

usage: python docs/runs/xiangqi-capture-fix-2026-11-28/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games: against depth 1 (run.sh, seeds 1-6) and against Elo 1350 at 1000 nodes
(run_elo.sh, seeds 0-1), beside the suite's 20-game entries, which `main.py evaluate --game xiangqi
--out models/xiangqi.json` measured again with the fix first (2026-11-28)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER = BASE["PLAYER"]
HERE = "docs/runs/xiangqi-capture-fix-2026-11-28"
FIXED = ("with the capture search fixed on 2026-11-28 (advisors and soldiers no longer capture like "
         "elephants in its look-ahead)")
MATCHES = BASE["balanced_matches"](PLAYER, HERE, "g171fix-s{}.games.jsonl", range(1, 7),
                                   "elo1350-g171fix-s{}.games.jsonl", (0, 1), "2026-11-28", FIXED,
                                   "run.sh", "run_elo.sh")


if __name__ == "__main__":
    BASE["main"](MATCHES)
