"""The 2026-11-28 judge of two play-time settings for xiangqi's shipped generation 171 (from the
project root).

usage: python docs/runs/xiangqi-play-search-2026-11-28/judge.py

All at 800 visits against Debian's fairy-stockfish at `go depth 1` from the balanced 2-move
openings of seeds 1-6 (20 openings a seed, each played from both sides):
- g171: 171 as shipped (the most visited move, the network alone), its games of 2026-11-27 and 2026-11-28
  (docs/runs/ab-xiangqi-lead/judge/ for seeds 1-4, docs/runs/xiangqi-ship-2026-11-27/ for 5-6);
- lcb171: the move chosen by a lower confidence bound, spec option ``lcb=1`` (`[play]
  select_lcb`): seeds 1-4 on a lent 16-core machine in four slices of five openings each by
  docs/runs/ab-gomoku-cap/rapfi_slice.py (torch float32 there), seeds 5-6 by `main.py arena`
  here; an opening with a game missing (the lent machine's time ran out) is left out;
- sym171: each evaluation averaged over the board and its mirror image, ``sym=2`` (`[play]
  symmetries`), by `main.py arena` here; stopped for futility during seeds 3-4 (their games
  files hold the games finished by then).
The rule for each (docs/training.md, 2026-11-28, set before its games): make it xiangqi's
[play] setting when its paired advantage over g171 is at least 2 standard errors."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-play-search-2026-11-28"
SHIP = ROOT / "docs/runs/xiangqi-ship-2026-11-27"
JUDGE = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))["judge"]


def g171(seed: int) -> Path:
    """The games file of 171 as shipped against depth 1 from seed ``seed``'s openings (1-6)."""
    return (ROOT / f"docs/runs/ab-xiangqi-lead/judge/lead-s{seed}.games.jsonl" if seed <= 4
            else SHIP / f"lead171-s{seed}.games.jsonl")


def main() -> None:
    JUDGE({"g171": g171,
           "lcb171": lambda s: HERE / f"lcb171-s{s}.games.jsonl",
           "sym171": lambda s: HERE / f"sym171-s{s}.games.jsonl"},
          range(1, 7), (("lcb171", "g171"), ("sym171", "g171")))


if __name__ == "__main__":
    main()
