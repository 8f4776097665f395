"""This judgement's checkpoint's own measurements against generation 1705's on the same openings
(from the project root; writes nothing):

    python docs/runs/gomoku-ship-deep3-2026-12-01/summary.py rung > docs/runs/gomoku-ship-deep3-2026-12-01/rung/summary.txt
    python docs/runs/gomoku-ship-deep3-2026-12-01/summary.py suite > docs/runs/gomoku-ship-deep3-2026-12-01/suite/summary.txt

As ../gomoku-ship-deep2-2026-12-01/summary.py, whose functions these are, with this folder's games
(the checkpoint's files named "deep") against generation 1705's of its own ship (that folder)."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
PREVIOUS = ROOT / "docs/runs/gomoku-ship-deep2-2026-12-01"
S = runpy.run_path(str(PREVIOUS / "summary.py"))
HERE = ROOT / "docs/runs/gomoku-ship-deep3-2026-12-01"

if __name__ == "__main__":
    {"rung": lambda: S["rung"](HERE, "deep", PREVIOUS, "g1705"),
     "suite": lambda: S["suite"](HERE, "deep", PREVIOUS, "g1705", "g1705")}[sys.argv[1]]()
