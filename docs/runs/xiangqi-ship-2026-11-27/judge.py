"""The 2026-11-28 ship test of the lead comparison's generation 171 against the shipped 251
(from the project root).

usage: python docs/runs/xiangqi-ship-2026-11-27/judge.py

Both at 800 visits against Debian's fairy-stockfish at `go depth 1` from the balanced 2-move
openings of seeds 1-6 (20 openings a seed, each played from both sides): seeds 1-4 from
docs/runs/ab-xiangqi-lead/judge/ (lead 171) and the shipped 251's games listed in
docs/runs/ab-xiangqi-material/judge.py, seeds 5-6 here. The rule (docs/training.md, 2026-11-28,
set before seeds 5-6 were played): ship 171 when its paired advantage over 251 is at least 2.18
standard errors."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-ship-2026-11-27"
LEAD = runpy.run_path(str(ROOT / "docs/runs/ab-xiangqi-lead/judge.py"))   # seeds 1-4 and judge()


def main() -> None:
    old = LEAD["SOURCES"]
    LEAD["judge"]({"lead171": lambda s: old["lead"](s) if s <= 4 else HERE / f"lead171-s{s}.games.jsonl",
                   "g251": lambda s: old["g251"](s) if s <= 4 else HERE / f"g251-s{s}.games.jsonl"},
                  range(1, 7), (("lead171", "g251"),))


if __name__ == "__main__":
    main()
