"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-vct-selfplay-2026-11-30/judge.py

Each arm's network (rapfi/novct-sS.games.jsonl, rapfi/vct-sS.games.jsonl) and generation 115
replayed on the same openings (rapfi/g115-sS.games.jsonl), seeds 5-8, paired by opening. The
proofs stay in gomoku's self-play if vct - novct is at least -2 standard errors; an arm ships if
its gain over g115 is at least 2 standard errors and it scores at least 50%."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi"
BY_SIDE = runpy.run_path(str(ROOT / "docs/runs/gomoku-int8-selfplay-2026-11-30/judge.py"))   # by_side(), RO
SEEDS = range(5, 9)


def main() -> None:
    names = ("novct", "vct", "g115")
    for name in names:
        BY_SIDE["by_side"](name, lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl", SEEDS)
    BY_SIDE["RO"]["judge"]({name: (lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl") for name in names},
                           SEEDS, (("vct", "novct"), ("novct", "g115"), ("vct", "g115")))


if __name__ == "__main__":
    main()
