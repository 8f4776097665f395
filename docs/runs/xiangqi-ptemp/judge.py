"""The 2026-11-27 judge of the play search's policy temperature for xiangqi (from the project root).

usage: python docs/runs/xiangqi-ptemp/judge.py

Reads ptS-sN.games.jsonl here (the shipped generation 251 at 800 visits with `?ptemp=T`, against
Debian's fairy-stockfish at `go depth 1`, the balanced 2-move openings of seed N, 20 openings
each played from both sides) and generation 251's games at temperature 1 from the same
openings (2026-11-26), paired by opening as docs/runs/ab-gomoku-ro/judge.py does."""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "docs/runs/ab-gomoku-ro"))
from judge import openings, report  # noqa: E402

HERE = ROOT / "docs/runs/xiangqi-ptemp"
G251 = {1: "docs/runs/ab-xiangqi-open/eval/sfd1-t30.games.jsonl", 2: "docs/runs/xiangqi-ship-g251/sfd1-s2.games.jsonl"}


def main() -> None:
    players = {"t1": {}}
    for seed, path in G251.items():
        players["t1"].update(openings(ROOT / path, seed))
    for path in sorted(HERE.glob("pt*-s*.games.jsonl")):
        name, seed = path.name.split(".")[0].split("-s")
        players.setdefault(name, {}).update(openings(path, int(seed)))
    report(players, [(name, "t1") for name in players if name != "t1"])


if __name__ == "__main__":
    main()
