"""The 2026-11-28 judge of gomoku's opponent's-reply comparison and ship test (from the project root).

usage: python docs/runs/gomoku-cont-2026-11-28/judge.py

Written before any of its games. The line from generation 115 (runs/gomoku-line-115, cont.toml) was split
at its generation 26 (15:04) into two arms, resumed from copies side by side, one worker each,
niced alike, until 15:55: base (base.toml, the line's settings) and reply (reply.toml: the same
and `[net] opponent_policy`, KataGo's opponent's-reply target at weight 0.15). Each arm's last
network finished by then (copied here as base-latest.pt and reply-latest.pt) at 800 visits
against Rapfi (classical evaluation, `INFO max_node 1000`) from the balanced 3-stone openings of
seeds 1-4 (50 openings a seed, each played from both sides): rapfi/{base,reply}-sS.games.jsonl
here (`run.sh`). The shipped generation 115's games from the same openings are the 2026-11-27
(docs/runs/ab-gomoku-ro/rapfi/ro115-sS.games.jsonl; `run.sh check` replayed two of its openings
with today's code: move for move the same).

Paired by opening: reply - base decides the comparison (the reply target is kept when at least
2 standard errors above zero). The ship candidate is the base arm's network, or the reply
arm's where the comparison keeps it; it ships when it is at least 2 standard errors above ro115
and scores at least 50%."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-cont-2026-11-28/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge()


def main() -> None:
    RO["judge"]({"reply": lambda s: HERE / f"reply-s{s}.games.jsonl", "base": lambda s: HERE / f"base-s{s}.games.jsonl",
                 "ro115": lambda s: ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl"},
                range(1, 5), (("reply", "base"), ("base", "ro115"), ("reply", "ro115")))


if __name__ == "__main__":
    main()
