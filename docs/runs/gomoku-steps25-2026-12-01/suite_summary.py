"""The quarter arm's generation 428 in the strength suite's games (suite.sh), against generations
184 (shipped) and 81 on the same openings (from the project root; writes nothing):

    python docs/runs/gomoku-steps25-2026-12-01/suite_summary.py > docs/runs/gomoku-steps25-2026-12-01/suite/summary.txt

After 3 stones white moves, so the side that moves first is white."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = range(5, 9)
HERE = ROOT / "docs/runs/gomoku-steps25-2026-12-01/suite"
H184 = ROOT / "docs/runs/gomoku-steps-2026-12-01/suite"


def main() -> None:
    RO["by_colour"]("quarter, generation 428", [HERE / f"quarter-s{s}.games.jsonl" for s in SEEDS], "as white", "as black")
    RO["judge"]({"q428": lambda s: HERE / f"quarter-s{s}.games.jsonl",
                 "h184": lambda s: H184 / f"half-s{s}.games.jsonl",
                 "g81": lambda s: ROOT / f"docs/runs/gomoku-g81-2026-12-01/suite-s{s}.games.jsonl"},
                SEEDS, (("q428", "h184"), ("q428", "g81")))


if __name__ == "__main__":
    main()
