"""Xiangqi's max level against its strong level (docs/levels.md, "The strong levels at their new
budgets"), two games a block (one balanced 2-ply opening from both sides, seed 3000 + block),
into this folder under tools/rate_levels.py's names so that its fit reads them. A block already
played is skipped, so a stopped run goes on where it stopped.

usage (from the project root): PYTHONPATH=. python docs/runs/level-ratings/xiangqi/max_vs_strong.py [LAST_BLOCK [FIRST_BLOCK]]
(blocks FIRST_BLOCK..LAST_BLOCK, default 2..21; blocks 0 and 1 are max's games against UCI_Elo 2100;
two runs over different blocks can share a machine's two cores)"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from rate_levels import Matches  # noqa: E402


def main() -> None:
    last = int(sys.argv[1]) if len(sys.argv) > 1 else 21
    first = max(2, int(sys.argv[2])) if len(sys.argv) > 2 else 2
    matches = Matches("xiangqi", Path(__file__).resolve().parent, None)
    for block in range(first, last + 1):
        matches.play("level:max?cap=0", "level:strong?cap=0", 2, 2, block, 3000 + block)


if __name__ == "__main__":
    main()
