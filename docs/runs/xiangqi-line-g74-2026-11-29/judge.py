"""The ship test of xiangqi's training line at its generation 74 (from the project root).

usage: python docs/runs/xiangqi-line-g74-2026-11-29/judge.py

Written on 2026-11-29 before any of its games. The candidate is generation 74 of
`runs/xiangqi-line` (the line continued from the shipped network, models/xiangqi.pt, the attack
arm's generation 85, with models/xiangqi.train.toml on one niced core; SHA-256 of the file
20ad42a0fb7f99047d9ae03c39c52506456aa861e0d3d6316235d68d2add70f6): "line74", at 800 visits with
the material term as the app plays xiangqi (spec option ``mat=8``). Its generation 45 missed its
own test (../xiangqi-line-2026-11-29/: +10.9 points a game, z 2.13 against the 2.18 its two looks
asked).

Its games (run.sh here) are against Debian's fairy-stockfish at `go depth 1` from the balanced
2-move openings of seeds 5-8, which no candidate of this line has played, paired by opening with
the shipped network's games from the same openings at the same settings ("attackmat",
docs/runs/xiangqi-ship-2026-11-28/attackmat-s5..s8).

The rule, one look: ship line74 when line74 - attackmat over the 80 openings of seeds 5-8 is at
least 2.0 standard errors above zero, and line74 then also scores at least 50% against
fairy-stockfish limited to Elo 1350 at 1000 nodes a move (seeds 0-1, 80 games, as the shipped
network's test). Otherwise the shipped network stays and the line goes on."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-line-g74-2026-11-29"
SHIP = ROOT / "docs/runs/xiangqi-ship-2026-11-28"
JUDGE = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))["judge"]


def main() -> None:
    seeds = [s for s in range(5, 9) if (HERE / f"line74-s{s}.games.jsonl").exists()]
    print("against fairy-stockfish at depth 1:")
    JUDGE({"line74": lambda s: HERE / f"line74-s{s}.games.jsonl",
           "attackmat": lambda s: SHIP / f"attackmat-s{s}.games.jsonl"},
          seeds, (("line74", "attackmat"),))
    elo = [s for s in (0, 1) if (HERE / f"elo1350-line74-s{s}.games.jsonl").exists()]
    if elo:
        print("against fairy-stockfish at Elo 1350 (1000 nodes):")
        JUDGE({"line74": lambda s: HERE / f"elo1350-line74-s{s}.games.jsonl",
               "attackmat": lambda s: SHIP / f"elo1350-attackmat-s{s}.games.jsonl"},
              elo, (("line74", "attackmat"),))


if __name__ == "__main__":
    main()
