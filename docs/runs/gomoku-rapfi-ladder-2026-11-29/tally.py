"""Scores of the games run.sh played: A's overall, A's as black and as white, and black's (project root).
usage: python docs/runs/gomoku-rapfi-ladder-2026-11-29/tally.py"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
for pair in ("10k-10k", "10k-1k"):
    games = [json.loads(line) for s in range(1, 9) for line in open(HERE / f"{pair}-s{s}.games.jsonl")]
    a_black = [POINTS[g["result"]] for g in games if g["a_first"]]
    a_white = [POINTS[g["result"]] for g in games if not g["a_first"]]
    black = a_black + [1.0 - p for p in a_white]
    pct = lambda xs: f"{100 * sum(xs) / len(xs):.1f}%"
    print(f"{pair}: {len(games)} games; A {pct(a_black + a_white)}, as black {pct(a_black)}, as white {pct(a_white)}; "
          f"black {pct(black)}; moves a game {sum(len(g['moves']) for g in games) / len(games):.1f}")
