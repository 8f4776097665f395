"""The 2026-11-29 ship test of xiangqi's training line (from the project root).

usage: python docs/runs/xiangqi-line-2026-11-29/judge.py

Written before any of its games. The candidate is generation 45 of `runs/xiangqi-line`, the line
continued from the shipped network (models/xiangqi.pt, the attack arm's generation 85) with
models/xiangqi.train.toml on one niced core since 2026-11-29 03:02 (2,160 self-play games):
"line45", at 800 visits with the material term as the app plays xiangqi (spec option ``mat=8``).
Its games (run.sh here) are against Debian's fairy-stockfish at `go depth 1` from the balanced
2-move openings of seeds 1-4, paired by opening with the shipped network's games from the same
openings at the same settings ("attackmat", docs/runs/xiangqi-ship-2026-11-28/).
The rule: ship line45 when line45 - attackmat is at least 2.18 standard errors above zero at the
first look (seeds 1-2, 40 openings) or at the second and last (seeds 1-4, 80 openings) -- the
bound that keeps two looks at the error rate of one at 2.0 (Pocock's) -- and line45 then also
scores at least 50% against fairy-stockfish limited to Elo 1350 at 1000 nodes a move (seeds 0-1,
as the shipped network's test). Otherwise the shipped network stays and the line goes on."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-line-2026-11-29"
SHIP = ROOT / "docs/runs/xiangqi-ship-2026-11-28"
JUDGE = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))["judge"]


def main() -> None:
    seeds = [s for s in range(1, 5) if (HERE / f"line45-s{s}.games.jsonl").exists()]
    print("against fairy-stockfish at depth 1:")
    JUDGE({"line45": lambda s: HERE / f"line45-s{s}.games.jsonl",
           "attackmat": lambda s: SHIP / f"attackmat-s{s}.games.jsonl"},
          seeds, (("line45", "attackmat"),))
    elo = [s for s in (0, 1) if (HERE / f"elo1350-line45-s{s}.games.jsonl").exists()]
    if elo:
        print("against fairy-stockfish at Elo 1350 (1000 nodes):")
        JUDGE({"line45": lambda s: HERE / f"elo1350-line45-s{s}.games.jsonl",
               "attackmat": lambda s: SHIP / f"elo1350-attackmat-s{s}.games.jsonl"},
              elo, (("line45", "attackmat"),))


if __name__ == "__main__":
    main()
