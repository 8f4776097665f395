"""Session 36's ship test of the gomoku line from generation 115 (from the project root).

usage: python docs/runs/gomoku-s36/judge.py

Written before any of its games. The candidate is the last network of `runs/gs36` when its
trainer stops by the clock (started at 14:29 with one worker and `--hours 1.45`, resumed at
14:38 with two workers and `--hours 1.3`, so about 15:57; copied here as cand-latest.pt), at 800
visits against Rapfi (classical evaluation, `INFO max_node 1000`) from the balanced 3-stone
openings of seeds 1-4 (50 openings a seed, each played from both sides): rapfi/cand-sS.games.jsonl
here (`run.sh`). Paired by opening with the shipped generation 115's games from the same
openings (docs/runs/ab-gomoku-ro/rapfi/ro115-sS.games.jsonl, session 28; `run.sh check` first
replays two of its openings with today's code and must reproduce them move for move).
The candidate ships when cand - ro115 is at least 2 standard errors above zero and it scores at
least 50%. If after seeds 1-4 z is at least 1 but short of 2, one more and last look adds seeds
5-6 for both (115 played with today's code, `run.sh 56`), and the candidate ships at z >= 2.18
over seeds 1-6 (Pocock's bound for two looks)."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-s36/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge()


def main() -> None:
    RO["judge"]({"cand": lambda s: HERE / f"cand-s{s}.games.jsonl",
                 "ro115": lambda s: ROOT / (f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl" if s <= 4
                                            else f"docs/runs/gomoku-s36/rapfi/ro115-s{s}.games.jsonl")},
                range(1, 7 if (HERE / "cand-s5.games.jsonl").exists() else 5), (("cand", "ro115"),))


if __name__ == "__main__":
    main()
