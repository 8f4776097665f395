"""The gomoku line's judgement by rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-line-2026-11-29/judge.py

The candidate (generation 50, rapfi/gen50-sS.games.jsonl) paired by opening with the shipped
generation 115's games from the same openings (docs/runs/ab-gomoku-ro/rapfi/ro115-sS.games.jsonl).
It ships when its gain is at least 2 standard errors above zero and it scores at least 50%."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-line-2026-11-29/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge()


def main() -> None:
    RO["judge"]({"gen50": lambda s: HERE / f"gen50-s{s}.games.jsonl",
                 "ro115": lambda s: ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl"},
                range(1, 5), (("gen50", "ro115"),))


if __name__ == "__main__":
    main()
