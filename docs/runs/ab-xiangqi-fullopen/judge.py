"""The 2026-11-27 judge of the opening full-search comparison against fairy-stockfish at depth 1
(from the project root).

usage: python docs/runs/ab-xiangqi-fullopen/judge.py

Reads judge/{base,full}-sS.games.jsonl (800 visits against Debian's fairy-stockfish at `go
depth 1`, the balanced 2-move openings of seed S, 20 openings each played from both sides;
seeds 1-2 here, seed 3 on a lent 16-core machine in seven slices by
docs/runs/ab-gomoku-cap/rapfi_slice.py) and the shipped generation 251's games from the seed 1-2
openings (2026-11-26). Pairs games by opening as docs/runs/ab-gomoku-ro/judge.py does (an
opening with a game missing is left out of the comparisons it would be in)."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "docs/runs/ab-gomoku-ro"))
from judge import judge  # noqa: E402

HERE = ROOT / "docs/runs/ab-xiangqi-fullopen/judge"
G251 = {1: "docs/runs/ab-xiangqi-open/eval/sfd1-t30.games.jsonl", 2: "docs/runs/xiangqi-ship-g251/sfd1-s2.games.jsonl"}


def main() -> None:
    judge({"full": lambda s: HERE / f"full-s{s}.games.jsonl",
           "base": lambda s: HERE / f"base-s{s}.games.jsonl",
           "g251": lambda s: ROOT / G251[s] if s in G251 else None},
          (1, 2, 3), (("full", "base"), ("full", "g251"), ("base", "g251")))


if __name__ == "__main__":
    main()
