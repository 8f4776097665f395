"""Generation 881 of the six-block line (deep-latest.pt here) in the measurements a shipped gomoku
model gets, against generation 1705's on the same openings (from the project root; writes nothing):

    python docs/runs/gomoku-ship-deep6-2026-12-02/summary.py rung > docs/runs/gomoku-ship-deep6-2026-12-02/rung/summary.txt
    python docs/runs/gomoku-ship-deep6-2026-12-02/summary.py suite > docs/runs/gomoku-ship-deep6-2026-12-02/suite/summary.txt

rung: issue 57's rung (`../gomoku-steps-2026-12-01/rung.sh` with MODEL and OUT set), the strong level
(its 900 visits, no cap) against Rapfi at 10,000 nodes from the 2-stone openings of seeds 1-8.
suite: the strength suite (`../gomoku-steps-2026-12-01/suite.sh`, NAME=deep), 800 visits against
Rapfi at 1,000 nodes from the 3-stone openings of seeds 5-8. Generation 1705's games are those of
its own ship (`../gomoku-ship-deep2-2026-12-01/`); the comparison is the same code
(`../gomoku-ship-deep2-2026-12-01/summary.py`)."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
SHIPPED_1705 = ROOT / "docs/runs/gomoku-ship-deep2-2026-12-01"
SUMMARY = runpy.run_path(str(SHIPPED_1705 / "summary.py"))
HERE = Path(__file__).resolve().parent

if __name__ == "__main__":
    if sys.argv[1] == "rung":
        SUMMARY["rung"](HERE, "g881", SHIPPED_1705, "g1705")
    else:
        SUMMARY["suite"](HERE, "deep", SHIPPED_1705, "g1705", "g1705")
