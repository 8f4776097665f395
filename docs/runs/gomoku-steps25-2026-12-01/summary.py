"""The quarter arm's generation 428 in the strength suite (suite.sh) or at issue 57's rung (rung.sh),
paired with the networks shipped before it on the same openings (from the project root; writes
nothing):

    python docs/runs/gomoku-steps25-2026-12-01/summary.py suite > docs/runs/gomoku-steps25-2026-12-01/suite/summary.txt
    python docs/runs/gomoku-steps25-2026-12-01/summary.py rung > docs/runs/gomoku-steps25-2026-12-01/rung/summary.txt

The suite's openings have 3 stones (white moves first), the rung's 2 (black moves first)."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
HERE = ROOT / "docs/runs/gomoku-steps25-2026-12-01"
STEPS = ROOT / "docs/runs/gomoku-steps-2026-12-01"


def main(which: str) -> None:
    if which == "suite":
        seeds, q428 = range(5, 9), lambda s: HERE / f"suite/quarter-s{s}.games.jsonl"
        RO["by_colour"]("quarter, generation 428", [q428(s) for s in seeds], "as white", "as black")
        RO["judge"]({"q428": q428, "h184": lambda s: STEPS / f"suite/half-s{s}.games.jsonl",
                     "g81": lambda s: ROOT / f"docs/runs/gomoku-g81-2026-12-01/suite-s{s}.games.jsonl"},
                    seeds, (("q428", "h184"), ("q428", "g81")))
    elif which == "rung":
        seeds, q428 = range(1, 9), lambda s: HERE / f"rung/rapfi10k-s{s}.games.jsonl"
        RO["by_colour"]("quarter, generation 428, strong level against Rapfi 10,000 nodes", [q428(s) for s in seeds])
        RO["judge"]({"q428": q428, "h184": lambda s: STEPS / f"rung/rapfi10k-s{s}.games.jsonl"},
                    seeds, (("q428", "h184"),))
    else:
        raise SystemExit("usage: summary.py suite|rung")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "")
