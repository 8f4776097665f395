"""The ship test of xiangqi's training line at its generation 90 (from the project root).

usage: python docs/runs/xiangqi-line-g90-2026-11-29/judge.py

Written on 2026-11-29 before any of its games. The candidate is generation 90 of
`runs/xiangqi-line` (the line continued from the shipped network, models/xiangqi.pt, the attack
arm's generation 85, with models/xiangqi.train.toml on one niced core; taken when the clock
reached it, not chosen among measured ones; SHA-256 of the file
d3b6f47d132530b315053f0598881561a60a6750b8de575d9b8c8500c541bf61, kept outside the repository
as runs/xiangqi-line-candidates/g90.pt): "line90", at 800 visits with the material term as the app
plays xiangqi (spec option ``mat=8``).

The line's generations 45 and 74 beat the shipped network by +10.9 and +7.2 points a game
against depth 1 on 80 openings each, neither by its rule's margin (../xiangqi-line-2026-11-29/,
../xiangqi-line-g74-2026-11-29/). A difference of that size needs about 160 openings to show, so
this test takes all of them.

Its games (run.sh here) are against Debian's fairy-stockfish at `go depth 1` from the balanced
2-move openings of seeds 1-8 (160 openings, each played from both sides), paired by opening with
the shipped network's games from the same openings at the same settings ("attackmat",
docs/runs/xiangqi-ship-2026-11-28/attackmat-s1..s8). Seeds 1-4 were played by generation 45 and
5-8 by generation 74; that does not bias this candidate's difference, which is paired with the
same shipped games on every opening.

The rule, one look when all eight seeds are played: ship line90 when line90 - attackmat over the
160 openings is at least 2.0 standard errors above zero, and line90 then also scores at least 50%
against fairy-stockfish limited to Elo 1350 at 1000 nodes a move (seeds 0-1, 80 games). Shipping
also re-rates the xiangqi levels (docs/levels.md). Otherwise the shipped network stays and the
line goes on. The games may span several days; a seed's 40 games are played in one run."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-line-g90-2026-11-29"
SHIP = ROOT / "docs/runs/xiangqi-ship-2026-11-28"
JUDGE = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))["judge"]


def main() -> None:
    seeds = [s for s in range(1, 9) if (HERE / f"line90-s{s}.json").exists()]
    if len(seeds) < 8:
        print(f"{len(seeds)} of the 8 seeds played; the rule looks once, when all are")
        return
    print("against fairy-stockfish at depth 1:")
    JUDGE({"line90": lambda s: HERE / f"line90-s{s}.games.jsonl",
           "attackmat": lambda s: SHIP / f"attackmat-s{s}.games.jsonl"},
          seeds, (("line90", "attackmat"),))
    elo = [s for s in (0, 1) if (HERE / f"elo1350-line90-s{s}.games.jsonl").exists()]
    if elo:
        print("against fairy-stockfish at Elo 1350 (1000 nodes):")
        JUDGE({"line90": lambda s: HERE / f"elo1350-line90-s{s}.games.jsonl",
               "attackmat": lambda s: SHIP / f"elo1350-attackmat-s{s}.games.jsonl"},
              elo, (("line90", "attackmat"),))


if __name__ == "__main__":
    main()
