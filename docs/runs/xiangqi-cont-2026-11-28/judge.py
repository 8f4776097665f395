"""The 2026-11-28 ship test of the xiangqi line's generation 110 (runs/xiangqi-line-171: 171 + 110) against
the shipped 171 (from the project root).

usage: python docs/runs/xiangqi-cont-2026-11-28/judge.py

Both at 800 visits against Debian's fairy-stockfish at `go depth 1` from the balanced 2-move
openings of seeds 1-6 (20 openings a seed, each played from both sides): c110 here
(cont-latest.pt, `main.py arena`), 171's games as in docs/runs/xiangqi-play-search-2026-11-28/judge.py. The
rule (docs/training.md, 2026-11-28, set before c110's games): ship c110 when its paired
advantage over 171 is at least 2 standard errors."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-cont-2026-11-28"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # g171 and judge()


def main() -> None:
    PLAY["JUDGE"]({"c110": lambda s: HERE / f"c110-s{s}.games.jsonl", "g171": PLAY["g171"]},
                  range(1, 7), (("c110", "g171"),))


if __name__ == "__main__":
    main()
