"""The verdicts of rule.md here (from the project root), from the files the measurements wrote.

usage: python docs/runs/recall-in-gather-2026-11-30/tally.py"""
import json
import math
import re
import statistics
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/recall-in-gather-2026-11-30"
SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def wrong(path: Path) -> set[int]:
    text = path.read_text(encoding="utf-8")
    return set(json.loads(re.search(r"wrong=(\[.*?\])", text).group(1)))


def connect4() -> None:
    new_file = HERE / "middle-medium-3400.txt"
    if not new_file.exists() or "wrong=" not in new_file.read_text(encoding="utf-8"):
        print("connect4: not measured yet")
        return
    old = wrong(ROOT / "docs/runs/remembered-evaluations-2026-11-30/middle-medium-3400.txt")
    new = wrong(new_file)
    a, b = len(new - old), len(old - new)
    ok = a - b <= 2 * math.sqrt(a + b)
    print(f"connect4: {len(new)} errors (before {len(old)}); only the new search wrong {a}, only the old {b}: "
          f"{'no worse' if ok else 'WORSE'} (a - b = {a - b}, 2 sqrt(a + b) = {2 * math.sqrt(a + b):.1f})")


def xiangqi() -> None:
    games = []
    for f in sorted(HERE.glob("xq-*.games.jsonl")):
        games += [json.loads(line) for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    pairs: dict[int, list[float]] = {}
    for g in games:
        pairs.setdefault((g["game"] - 1) // 2, []).append(SCORE[g["result"]])
    full = [sum(p) / 2 for p in pairs.values() if len(p) == 2]
    if len(full) < 2:
        print("xiangqi: not measured yet")
        return
    d = statistics.mean(full) - 0.5
    se = statistics.stdev(full) / math.sqrt(len(full))
    w = sum(SCORE[g["result"]] == 1.0 for g in games)
    dr = sum(SCORE[g["result"]] == 0.5 for g in games)
    print(f"xiangqi: {len(games)} games, the new search {w}-{dr}-{len(games) - w - dr} "
          f"({100 * (d + 0.5):.1f}% over {len(full)} opening pairs); d {d:+.3f}, se {se:.3f}: "
          f"{'no worse' if d >= -2 * se else 'WORSE'}")


if __name__ == "__main__":
    connect4()
    xiangqi()
