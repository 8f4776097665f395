"""The judge of the 2026-11-28 material term for xiangqi's play search (from the project root).

usage: python docs/runs/xiangqi-material-2026-11-28/judge.py

Written before any of its games. The shipped generation 171 at 800 visits with the material
term on (spec option ``mat=8``, `[play] material_scale = 8`: the material the leaf's mover has
won or lost since the root, over 8 soldiers, added to the network's value at each leaf in
atanh space, the same scale as the captures still to come) against Debian's fairy-stockfish at
`go depth 1` from the balanced 2-move openings of seeds 1-6 (20 openings a seed, each played
from both sides): mat171-sS.games.jsonl here (`run.sh`), paired by opening with 171 as
shipped with the capture fix (g171fix, docs/runs/xiangqi-capture-fix-2026-11-28/; its games were played
before the 2026-11-28 faster capture search, whose cut-off differs only where the node budget
ends a search, about 1 position in 3,000). The rule: make 8 xiangqi's `[play]
material_scale` when mat171 - g171fix is at least 2 standard errors above zero. Scale 8 was
chosen before the games (capture_scale's value), not tuned."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-material-2026-11-28"
FIX = ROOT / "docs/runs/xiangqi-capture-fix-2026-11-28"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # JUDGE


def main() -> None:
    PLAY["JUDGE"]({"mat171": lambda s: HERE / f"mat171-s{s}.games.jsonl",
                   "g171fix": lambda s: FIX / f"g171fix-s{s}.games.jsonl"},
                  [s for s in range(1, 7) if (HERE / f"mat171-s{s}.games.jsonl").exists()], (("mat171", "g171fix"),))


if __name__ == "__main__":
    main()
