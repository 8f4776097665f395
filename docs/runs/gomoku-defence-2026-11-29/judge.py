"""The decision of rule.md (or rule2.md with the argument defence2): the defence arm against the baseline, paired game by game (same seed,
same opening, same colour), over seeds 1-8; prints each arm's score, per colour, and the paired
difference with its standard error. Seeds 1-4 of the baseline are the recorded games of
docs/runs/strong-rungs-2026-11-29. usage (project root): python docs/runs/gomoku-defence-2026-11-29/judge.py [ARM]"""
import json
import math
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
BASE_1_4 = HERE.parent / "strong-rungs-2026-11-29"
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
SEEDS = range(1, 9)


def games(arm: str, seed: int) -> list[dict]:
    path = (BASE_1_4 / f"gomoku-rapfi10k-s{seed}.games.jsonl" if arm == "base" and seed <= 4
            else HERE / f"{arm}-s{seed}.games.jsonl")
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def main(arm_name: str = "defence") -> None:
    pairs = []   # (a_first, base points, defence points)
    for seed in SEEDS:
        base, arm = games("base", seed), games(arm_name, seed)
        for b, d in zip(base, arm):
            assert b["start"] == d["start"] and b["a_first"] == d["a_first"], (seed, b["game"])
            pairs.append((b["a_first"], POINTS[b["result"]], POINTS[d["result"]]))
    n = len(pairs)
    if n == 0:
        print("no games yet")
        return
    for name, k in (("baseline", 1), (arm_name, 2)):
        black = [p[k] for p in pairs if p[0]]
        white = [p[k] for p in pairs if not p[0]]
        print(f"{name}: {100 * sum(p[k] for p in pairs) / n:.1f}% over {n} games "
              f"(as black {100 * sum(black) / max(len(black), 1):.1f}% of {len(black)}, "
              f"as white {100 * sum(white) / max(len(white), 1):.1f}% of {len(white)})")
    diffs = [d - b for _, b, d in pairs]
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1)) if n > 1 else 0.0
    se = sd / math.sqrt(n)
    z = mean / se if se > 0 else 0.0
    print(f"{arm_name} - baseline: {100 * mean:+.2f} points a game, standard error {100 * se:.2f}, z {z:.2f}; "
          f"games only the defence scored better in: {sum(x > 0 for x in diffs)}, worse: {sum(x < 0 for x in diffs)}")
    complete = n == 20 * len(SEEDS)
    if complete:
        print("decision:", f"switch {arm_name} on" if mean > 0 and z >= 1.5 else f"{arm_name} stays off")
    else:
        print(f"incomplete ({n} of {20 * len(SEEDS)} pairs): no decision")


if __name__ == "__main__":
    main(*sys.argv[1:2])
