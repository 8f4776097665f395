"""half's generation 184 at issue 57's rung (rung.sh), against generations 81 and 115 on the
same openings (from the project root). After 2 stones black moves, so the side that moves first
is black.

    python docs/runs/gomoku-steps-2026-12-01/rung_summary.py > docs/runs/gomoku-steps-2026-12-01/rung/summary.txt"""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = range(1, 9)
HERE = ROOT / "docs/runs/gomoku-steps-2026-12-01/rung"
# generation 115's rung games, as the summary of generation 81's ship reads them
G115 = runpy.run_path(str(ROOT / "docs/runs/gomoku-g81-2026-12-01/summary.py"))["G115_RUNG"]


def main() -> None:
    RO["by_colour"]("half, generation 184, strong level against Rapfi 10,000 nodes",
                    [HERE / f"rapfi10k-s{s}.games.jsonl" for s in SEEDS])
    RO["judge"]({"h184": lambda s: HERE / f"rapfi10k-s{s}.games.jsonl",
                 "g81": lambda s: ROOT / f"docs/runs/gomoku-g81-2026-12-01/rapfi10k-s{s}.games.jsonl",
                 "g115": lambda s: G115[s]}, SEEDS, (("h184", "g81"), ("h184", "g115")))


if __name__ == "__main__":
    main()
