"""The 2026-11-28 judge of the lead-adjudication comparison against fairy-stockfish at depth 1
(from the project root).

usage: python docs/runs/ab-xiangqi-lead/judge.py

Reads judge/{lead,base}-sS.games.jsonl: each arm's network committed at 20:53 on 2026-11-27
(lead-latest.pt, generation 171; base-latest.pt, generation 173; 0.83 hours each since both
were split from the base arm's generation 151) at 800 visits against Debian's fairy-stockfish at
`go depth 1`, the balanced 2-move openings of seed S (20 openings, each played from both sides),
seeds 1-4. Compares them with each other, with their common start (generation 151, the 2026-11-27
games in ../ab-xiangqi-material/judge/) and with the shipped generation 251 from the same
openings, paired by opening as docs/runs/ab-gomoku-ro/judge.py does."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "docs/runs/ab-gomoku-ro"))
from judge import judge  # noqa: E402

G251 = runpy.run_path(str(ROOT / "docs/runs/ab-xiangqi-material/judge.py"))["G251"]

HERE = ROOT / "docs/runs/ab-xiangqi-lead/judge"
G151 = ROOT / "docs/runs/ab-xiangqi-material/judge"


SOURCES = {"lead": lambda s: HERE / f"lead-s{s}.games.jsonl",
           "base": lambda s: HERE / f"base-s{s}.games.jsonl",
           "g151": lambda s: G151 / f"base-s{s}.games.jsonl",
           "g251": lambda s: ROOT / G251[s]}


def main() -> None:
    judge(SOURCES, (1, 2, 3, 4),
          (("lead", "base"), ("lead", "g151"), ("base", "g151"), ("lead", "g251"), ("base", "g251")))


if __name__ == "__main__":
    main()
