"""The judge of the 2026-11-28 deeper-network comparison for xiangqi (from the project root).

usage: python docs/runs/ab-xiangqi-deep/judge.py

Each arm's last network at 800 visits against Debian's fairy-stockfish at `go depth 1` from the
balanced 2-move openings of seeds 1-6 (20 openings a seed, each played from both sides):
judge/deep-sS.games.jsonl and judge/base-sS.games.jsonl here (`main.py arena --game xiangqi
--a model:NET@800 --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2
--seed S --games-out ...`), and the shipped 171's games from the same openings
(docs/runs/xiangqi-play-search-2026-11-28/judge.py). Paired by opening: deep - base decides the comparison
(kept when at least 2 standard errors above zero); each arm - 171 is the ship test."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/ab-xiangqi-deep/judge"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # g171 and judge()


def main() -> None:
    PLAY["JUDGE"]({"deep": lambda s: HERE / f"deep-s{s}.games.jsonl", "base": lambda s: HERE / f"base-s{s}.games.jsonl",
                   "g171": PLAY["g171"]},
                  range(1, 7), (("deep", "base"), ("deep", "g171"), ("base", "g171")))


if __name__ == "__main__":
    main()
