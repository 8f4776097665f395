"""Gomoku's ladder between 300 and 1,000 Rapfi nodes, and the strong level against 1,000
nodes (docs/runs/level-ratings/gomoku-top-levels-2026-11-30.md), into this folder under
tools/rate_levels.py's names so that its fit reads them. A block already played is skipped.

usage (from the project root): python docs/runs/level-ratings/gomoku/settle.py [max BLOCK]
(with "max BLOCK": the max level's block BLOCK against 1,000 nodes, the rung the tool chose for
it, with the seed `rate_levels.py --levels max --seed 1800` gives that block, 1809 + BLOCK; two
blocks can run at once on the two cores)"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from rate_levels import Matches, RAPFI  # noqa: E402


def main() -> None:
    matches = Matches("gomoku", Path(__file__).resolve().parent, None)
    low, high = f"gomocup:{RAPFI}@nodes300", f"gomocup:{RAPFI}@nodes1000"
    if sys.argv[1:2] == ["max"]:
        block = int(sys.argv[2])
        matches.play("level:max?cap=0", high, 10, 2, block, 1809 + block)
        return
    matches.play(low, high, 20, 2, 1, 1721)
    matches.play(low, high, 20, 2, 2, 1722)
    matches.play("level:strong?cap=0", high, 10, 2, 4, 1723)


if __name__ == "__main__":
    main()
