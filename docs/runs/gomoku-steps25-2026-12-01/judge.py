"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-steps25-2026-12-01/judge.py

Each arm's network and generation 184 against Rapfi at 10,000 nodes from the 2-stone openings
of seeds 9103-9104 (rapfi/NAME-sS.games.jsonl), paired by opening and side. The "quarter" arm's
setting is kept if quarter - half >= 0; an arm may ship if its gain over generation 184 is at
least 2 standard errors and it scores at least 50%. After 2 stones black moves, so the side that
moves first is black."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-steps25-2026-12-01/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = (9103, 9104)
NAMES = ("quarter", "half", "g184")


def main() -> None:
    for name in NAMES:
        RO["by_colour"](name, [HERE / f"{name}-s{s}.games.jsonl" for s in SEEDS])
    RO["judge"]({name: (lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl") for name in NAMES},
                SEEDS, (("quarter", "half"), ("quarter", "g184"), ("half", "g184")))


if __name__ == "__main__":
    main()
