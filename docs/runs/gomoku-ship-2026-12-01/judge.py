"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-ship-2026-12-01/judge.py

The candidate (rapfi/cand-sS.games.jsonl) and generation 184 (g184-sS) against Rapfi at 10,000
nodes from the 2-stone openings of seeds 9105-9106, paired by opening and side. The candidate
ships if its gain over 184 is at least 2 standard errors and its score at least 184's. After 2
stones black moves, so the side that moves first is black. Generation 428 (q428), the newest
network judged before, on the same openings for the record: it decides nothing."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-ship-2026-12-01/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
SEEDS = (9105, 9106)
NAMES = ("cand", "g184", "q428")


def main() -> None:
    for name in NAMES:
        RO["by_colour"](name, [HERE / f"{name}-s{s}.games.jsonl" for s in SEEDS])
    RO["judge"]({name: (lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl") for name in NAMES},
                SEEDS, (("cand", "g184"), ("cand", "q428"), ("q428", "g184")))


if __name__ == "__main__":
    main()
