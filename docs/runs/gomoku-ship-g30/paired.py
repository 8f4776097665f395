"""Paired comparison of two players' matches against the same reference from the same openings.

usage: python paired.py A1.games.jsonl,A2.games.jsonl B1.games.jsonl,B2.games.jsonl

Each file is an arena --games-out record of balanced openings (an opening played from both
sides, consecutive games). Games are paired by opening: per opening the two players' points
(0-2 over its two games) are compared, and the mean difference is reported per game with its
standard error and z. The files of A and B must be the same openings in the same order."""
import json
import math
import sys

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def load(paths: str) -> list[dict]:
    games = []
    for path in paths.split(","):
        with open(path, encoding="utf-8") as f:
            games += [json.loads(line) for line in f if line.strip()]
    return games


def main() -> None:
    a, b = load(sys.argv[1]), load(sys.argv[2])
    if [(g["start"], g["a_first"]) for g in a] != [(g["start"], g["a_first"]) for g in b]:
        sys.exit("the two records are not the same openings in the same order")
    if len(a) % 2:
        sys.exit("an odd number of games: balanced openings come in pairs")
    diffs = []
    for i in range(0, len(a), 2):
        pa = POINTS[a[i]["result"]] + POINTS[a[i + 1]["result"]]
        pb = POINTS[b[i]["result"]] + POINTS[b[i + 1]["result"]]
        diffs.append(pa - pb)
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1))
    se = sd / math.sqrt(n)
    score = lambda games: sum(POINTS[g["result"]] for g in games) / len(games)
    print(f"{n} openings ({len(a)} games each): A {score(a):.1%}, B {score(b):.1%}")
    print(f"paired gain of A per game {mean / 2:+.1%}, standard error {se / 2:.1%}, z {mean / se:.2f}")
    print(f"openings: A better {sum(d > 0 for d in diffs)}, level {sum(d == 0 for d in diffs)}, "
          f"B better {sum(d < 0 for d in diffs)}")


if __name__ == "__main__":
    main()
