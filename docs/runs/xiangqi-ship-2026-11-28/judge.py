"""The judge of the 2026-11-28 ship test for xiangqi (from the project root).

usage: python docs/runs/xiangqi-ship-2026-11-28/judge.py

Written before any of its games. The candidate is the attack arm's judged network (the 2026-11-28
comparison, generation 85: docs/runs/ab-xiangqi-attack/attack-latest.pt, 20 input planes) at
800 visits with the material term as the app plays xiangqi now (spec option ``mat=8``):
"attackmat". Its games, by `run.sh` here:
- against Debian's fairy-stockfish at `go depth 1` from the balanced 2-move openings of seeds
  1-6 (attackmat-sS.games.jsonl), paired by opening with the shipped 171 as it plays now
  (mat171, docs/runs/xiangqi-material-2026-11-28/) and with the same network without the term (attack,
  docs/runs/ab-xiangqi-attack/judge/);
- against fairy-stockfish limited to Elo 1350 at 1000 nodes a move from the balanced openings
  of seeds 0-1 (elo1350-attackmat-sS.games.jsonl), paired with mat171's
  (docs/runs/xiangqi-material-2026-11-28/elo1350-mat171-sS.games.jsonl).
The rules:
1. Ship the attack network (models/xiangqi.pt) when attackmat - mat171 at depth 1 is at least
   2 standard errors above zero and attackmat scores at least 50% against Elo 1350 (issue 20's
   target).
2. The material term stays xiangqi's [play] setting (material_scale = 8) unless attack -
   attackmat at depth 1 is at least 2 standard errors above zero; then the network would play
   without it, and that player's Elo 1350 games must be played before it ships.
The first look (seeds 1-6, 120 openings): attackmat - mat171 +7.7 points a game, standard
error 4.5, z 1.72: short of rule 1. Added then, before any further game: a second and last
look over the openings of seeds 1-8 (attackmat and mat171 both from seeds 7-8, run.sh d1:7
d1:8 and docs/runs/xiangqi-material-2026-11-28/run.sh 7 8), where rule 1 asks for z at least 2.18 (the
bound that keeps two looks at the error rate of one at 2.0, Pocock's)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/xiangqi-ship-2026-11-28"
MAT = ROOT / "docs/runs/xiangqi-material-2026-11-28"
ARMS = ROOT / "docs/runs/ab-xiangqi-attack/judge"
PLAY = runpy.run_path(str(ROOT / "docs/runs/xiangqi-play-search-2026-11-28/judge.py"))   # JUDGE


def main() -> None:
    print("against fairy-stockfish at depth 1:")
    PLAY["JUDGE"]({"attackmat": lambda s: HERE / f"attackmat-s{s}.games.jsonl",
                   "mat171": lambda s: MAT / f"mat171-s{s}.games.jsonl",
                   "attack": lambda s: ARMS / f"attack-s{s}.games.jsonl"},
                  [s for s in range(1, 9) if (HERE / f"attackmat-s{s}.games.jsonl").exists()],
                  (("attackmat", "mat171"), ("attack", "attackmat")))
    print("against fairy-stockfish at Elo 1350 (1000 nodes):")
    PLAY["JUDGE"]({"attackmat": lambda s: HERE / f"elo1350-attackmat-s{s}.games.jsonl",
                   "mat171": lambda s: MAT / f"elo1350-mat171-s{s}.games.jsonl"},
                  [s for s in (0, 1) if (HERE / f"elo1350-attackmat-s{s}.games.jsonl").exists()],
                  (("attackmat", "mat171"),))


if __name__ == "__main__":
    main()
