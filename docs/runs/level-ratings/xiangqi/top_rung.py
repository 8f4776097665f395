"""Xiangqi's strong and max levels against Fairy-Stockfish without a strength limit at 1,000
nodes a move, and that rung's own match against go depth 1 (docs/runs/level-ratings/
xiangqi-anchor-2350.md), into this folder under tools/rate_levels.py's names so that its fit
reads them. A block already played is skipped, so a stopped run goes on where it stopped.

usage (from the project root): python docs/runs/level-ratings/xiangqi/top_rung.py [strong|max|rung ...]
(default all three, in that order)"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT / "tools"))
sys.path.insert(0, str(ROOT))
from rate_levels import Matches  # noqa: E402
from engine.commands.specs import find_fairy_stockfish  # noqa: E402

FSF = find_fairy_stockfish() or "fairy-stockfish"
TOP = f"uci:{FSF}@nodes1000"


def main() -> None:
    which = sys.argv[1:] or ["rung", "strong", "max"]
    matches = Matches("xiangqi", Path(__file__).resolve().parent, None)
    if "rung" in which:
        matches.play(TOP, f"uci:{FSF}@depth1", 20, 2, 0, 2352)
    if "strong" in which:
        matches.play("level:strong?cap=0", TOP, 10, 2, 2, 4001)
    if "max" in which:
        matches.play("level:max?cap=0", TOP, 10, 2, 8, 4002)


if __name__ == "__main__":
    main()
