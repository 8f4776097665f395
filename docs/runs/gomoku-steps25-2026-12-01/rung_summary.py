"""The quarter arm's generation 428 at issue 57's rung (rung.sh), against generation 184 (shipped)
on the same openings (from the project root). After 2 stones black moves, so the side that
moves first is black.

    python docs/runs/gomoku-steps25-2026-12-01/rung_summary.py > docs/runs/gomoku-steps25-2026-12-01/rung/summary.txt"""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = range(1, 9)
HERE = ROOT / "docs/runs/gomoku-steps25-2026-12-01/rung"
G184 = ROOT / "docs/runs/gomoku-steps-2026-12-01/rung"


def main() -> None:
    RO["by_colour"]("quarter, generation 428, strong level against Rapfi 10,000 nodes",
                    [HERE / f"rapfi10k-s{s}.games.jsonl" for s in SEEDS])
    RO["judge"]({"q428": lambda s: HERE / f"rapfi10k-s{s}.games.jsonl",
                 "h184": lambda s: G184 / f"rapfi10k-s{s}.games.jsonl"}, SEEDS, (("q428", "h184"),))


if __name__ == "__main__":
    main()
