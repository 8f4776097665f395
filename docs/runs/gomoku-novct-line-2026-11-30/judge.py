"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-novct-line-2026-11-30/judge.py

The line's newest network (rapfi/novct-sS.games.jsonl here) and generation 115 on the same
openings (docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi/g115-sS.games.jsonl), seeds 5-8, paired
by opening; generation 19 of the same line (that comparison's novct arm) is shown beside them.
The network ships if its gain over 115 is at least 2 standard errors and it scores at least 50%."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-novct-line-2026-11-30/rapfi"
BEFORE = ROOT / "docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi"
BY_SIDE = runpy.run_path(str(ROOT / "docs/runs/gomoku-int8-selfplay-2026-11-30/judge.py"))   # by_side(), RO
SEEDS = range(5, 9)
FILES = {"line": lambda s: HERE / f"novct-s{s}.games.jsonl",
         "g19": lambda s: BEFORE / f"novct-s{s}.games.jsonl",
         "g115": lambda s: BEFORE / f"g115-s{s}.games.jsonl"}


def main() -> None:
    for name, files in FILES.items():
        BY_SIDE["by_side"](name, files, SEEDS)
    BY_SIDE["RO"]["judge"](FILES, SEEDS, (("line", "g115"), ("line", "g19")))


if __name__ == "__main__":
    main()
