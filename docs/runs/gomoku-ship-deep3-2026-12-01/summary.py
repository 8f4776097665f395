"""This judgement's checkpoint's own measurements against generation 1705's on the same openings
(from the project root; writes nothing):

    python docs/runs/gomoku-ship-deep3-2026-12-01/summary.py rung > docs/runs/gomoku-ship-deep3-2026-12-01/rung/summary.txt
    python docs/runs/gomoku-ship-deep3-2026-12-01/summary.py suite > docs/runs/gomoku-ship-deep3-2026-12-01/suite/summary.txt

rung: issue 57's rung (rung.sh), the strong level against Rapfi at 10,000 nodes from the 2-stone
openings of seeds 1-8 (after 2 stones black moves first). suite: the strength suite (suite.sh),
800 visits against Rapfi at 1,000 nodes from the 3-stone openings of seeds 5-8 (after 3 stones
white moves first). Generation 1705's games are those of its own ship
(../gomoku-ship-deep2-2026-12-01/)."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
HERE = ROOT / "docs/runs/gomoku-ship-deep3-2026-12-01"
G1705 = ROOT / "docs/runs/gomoku-ship-deep2-2026-12-01"


def rung() -> None:
    seeds = range(1, 9)
    RO["by_colour"]("deep, strong level against Rapfi 10,000 nodes",
                    [HERE / f"rung/rapfi10k-s{s}.games.jsonl" for s in seeds])
    RO["judge"]({"deep": lambda s: HERE / f"rung/rapfi10k-s{s}.games.jsonl",
                 "g1705": lambda s: G1705 / f"rung/rapfi10k-s{s}.games.jsonl"}, seeds, (("deep", "g1705"),))


def suite() -> None:
    seeds = range(5, 9)
    RO["by_colour"]("deep, 800 visits against Rapfi 1,000 nodes",
                    [HERE / f"suite/deep-s{s}.games.jsonl" for s in seeds], "as white", "as black")
    RO["judge"]({"deep": lambda s: HERE / f"suite/deep-s{s}.games.jsonl",
                 "g1705": lambda s: G1705 / f"suite/g1705-s{s}.games.jsonl"}, seeds, (("deep", "g1705"),))


if __name__ == "__main__":
    {"rung": rung, "suite": suite}[sys.argv[1]]()
