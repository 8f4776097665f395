"""half's generation 184 in the strength suite's games (suite.sh), against generations 81 and 115
on the same openings (from the project root; writes nothing):

    python docs/runs/gomoku-steps-2026-12-01/suite_summary.py > docs/runs/gomoku-steps-2026-12-01/suite/summary.txt

After 3 stones white moves, so the side that moves first is white."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = range(5, 9)
HALF = ROOT / "docs/runs/gomoku-steps-2026-12-01/suite"
G115_SUITE = runpy.run_path(str(ROOT / "docs/runs/gomoku-g81-2026-12-01/summary.py"))["G115_SUITE"]


def main() -> None:
    RO["by_colour"]("half, generation 184", [HALF / f"half-s{s}.games.jsonl" for s in SEEDS], "as white", "as black")
    RO["judge"]({"h184": lambda s: HALF / f"half-s{s}.games.jsonl",
                 "g81": lambda s: ROOT / f"docs/runs/gomoku-g81-2026-12-01/suite-s{s}.games.jsonl",
                 "g115": lambda s: G115_SUITE / f"g115-s{s}.games.jsonl"},
                SEEDS, (("h184", "g81"), ("h184", "g115")))


if __name__ == "__main__":
    main()
