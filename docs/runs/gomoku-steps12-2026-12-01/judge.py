"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-steps12-2026-12-01/judge.py

Each arm's network and generation 184 against Rapfi at 10,000 nodes from the 2-stone openings
of seeds 9107-9108 (rapfi/NAME-sS.games.jsonl), paired by opening and side. 12 steps a
generation are kept if eighth - quarter >= 0; an arm may ship if its gain over the shipped
network is at least 2 standard errors and its score at least the shipped network's. After 2
stones black moves, so the side that moves first is black."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-steps12-2026-12-01/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = (9107, 9108)
NAMES = ("eighth", "quarter", "g184")


def main() -> None:
    for name in NAMES:
        RO["by_colour"](name, [HERE / f"{name}-s{s}.games.jsonl" for s in SEEDS])
    RO["judge"]({name: (lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl") for name in NAMES},
                SEEDS, (("eighth", "quarter"), ("eighth", "g184"), ("quarter", "g184")))


if __name__ == "__main__":
    main()
