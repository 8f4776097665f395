"""2026-11-28: the shipped xiangqi generation 171 before and after the capture-search fix (from
the project root).

usage: python docs/runs/xiangqi-capture-fix-2026-11-28/judge.py

Both at 800 visits against Debian's fairy-stockfish at `go depth 1` from the balanced 2-move
openings of seeds 1-6 (20 openings a seed, each played from both sides):
- g171fix: 171 with `games.xiangqi_moves.pseudo_captures` fixed (before, every advisor and
  soldier also "captured" like an elephant, so the leaves' capture look-ahead saw phantom
  gains and losses in about a quarter of game positions), played by run.sh here;
- g171: 171 as shipped, with the bug, its games of 2026-11-27 and 2026-11-28 (docs/runs/xiangqi-play-search-2026-11-28/).
Then the same against fairy-stockfish at UCI_Elo 1350, 1000 nodes, from the balanced openings of
seeds 0-1: elo1350-g171fix (run_elo.sh) against 171's games of 2026-11-28
(docs/runs/xiangqi-ship-g171/elo1350-g171-s*).
The fix is a correctness fix and stays whatever this measures; the figure is what the model
now scores, and g171fix - g171 (paired by opening) is what the bug cost."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-capture-fix-2026-11-28"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # g171 and judge()


def main() -> None:
    PLAY["JUDGE"]({"g171fix": lambda s: HERE / f"g171fix-s{s}.games.jsonl", "g171": PLAY["g171"]},
                  range(1, 7), (("g171fix", "g171"),))
    print("against Elo 1350 at 1000 nodes:")
    PLAY["JUDGE"]({"elo1350-g171fix": lambda s: HERE / f"elo1350-g171fix-s{s}.games.jsonl",
                   "elo1350-g171": lambda s: ROOT / f"docs/runs/xiangqi-ship-g171/elo1350-g171-s{s}.games.jsonl"},
                  range(0, 2), (("elo1350-g171fix", "elo1350-g171"),))


if __name__ == "__main__":
    main()
