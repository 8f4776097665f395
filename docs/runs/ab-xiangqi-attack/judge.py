"""The judge of the 2026-11-28 attack-planes comparison for xiangqi (from the project root).

usage: python docs/runs/ab-xiangqi-attack/judge.py

Written before any of the arms' games. Each arm's last network (runs/xa/base and runs/xa/attack,
copied here as base-latest.pt and attack-latest.pt) at 800 visits against Debian's
fairy-stockfish at `go depth 1` from the balanced 2-move openings of seeds 1-6 (20 openings a
seed, each played from both sides): judge/attack-sS.games.jsonl and judge/base-sS.games.jsonl
here (`run_judge.sh`), and the shipped 171's games from the same openings with the capture
search fixed as the arms play (g171fix, docs/runs/xiangqi-capture-fix-2026-11-28/). Paired by opening:
attack - base decides the comparison (the attack planes are kept, and become the line's
encoding, when at least 2 standard errors above zero); each arm - g171fix is the ship test
(ship at 2 standard errors above it)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/ab-xiangqi-attack/judge"
FIX = ROOT / "docs/runs/xiangqi-capture-fix-2026-11-28"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # judge()


def main() -> None:
    PLAY["JUDGE"]({"attack": lambda s: HERE / f"attack-s{s}.games.jsonl", "base": lambda s: HERE / f"base-s{s}.games.jsonl",
                   "g171fix": lambda s: FIX / f"g171fix-s{s}.games.jsonl"},
                  range(1, 7), (("attack", "base"), ("attack", "g171fix"), ("base", "g171fix")))


if __name__ == "__main__":
    main()
