"""Put the shipped xiangqi network's balanced-opening matches with the capture search fixed
(session 33) into models/xiangqi.json (from the project root).

usage: python docs/runs/xiangqi-fix-s33/report.py [--write]

The same report as docs/runs/xiangqi-ship-g171/balanced_report.py (its `main`), from this
folder's games: against depth 1 (run.sh, seeds 1-6) and against Elo 1350 at 1000 nodes
(run_elo.sh, seeds 0-1), beside the suite's 20-game entries, which `main.py evaluate --game xiangqi
--out models/xiangqi.json` measured again with the fix first (session 33)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER, DEPTH1, ELO1350 = BASE["PLAYER"], BASE["DEPTH1"], BASE["ELO1350"]
HERE = "docs/runs/xiangqi-fix-s33"
FIXED = ("with the capture search fixed in session 33 (advisors and soldiers no longer capture like "
         "elephants in its look-ahead)")
MATCHES = [
    {"opponent": "stockfish-depth1", "label": "fairy-stockfish at depth 1", "spec": DEPTH1,
     "files": [f"{HERE}/g171fix-s{s}.games.jsonl" for s in range(1, 7)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a {PLAYER} --b {DEPTH1} --games 40 "
               "--balanced-openings 2 --seed S for S = 1-6: 120 openings of 2 uniformly random moves, "
               "each played from both sides; the strong level's search (800 visits, no sampled moves) "
               f"without its 1 s cap, {FIXED} ({HERE}/run.sh)"},
    {"opponent": "stockfish-elo1350", "label": "fairy-stockfish at Elo 1350, 1000 nodes", "spec": ELO1350,
     "files": [f"{HERE}/elo1350-g171fix-s{s}.games.jsonl" for s in (0, 1)],
     "measured": "2026-11-28",
     "method": f"python main.py arena --game xiangqi --a {PLAYER} --b '{ELO1350}' --games 40 "
               "--balanced-openings 2 --seed S for S = 0, 1: 40 openings of 2 uniformly random moves, "
               f"each played from both sides; the strong level's search without its 1 s cap, {FIXED} "
               f"({HERE}/run_elo.sh)"},
]

if __name__ == "__main__":
    BASE["main"](MATCHES)
