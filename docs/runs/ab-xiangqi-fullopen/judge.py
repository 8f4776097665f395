"""Session 28's judge of the opening full-search comparison against fairy-stockfish at depth 1
(from the project root).

usage: python docs/runs/ab-xiangqi-fullopen/judge.py

Reads judge/{base,full}-sS.games.jsonl (800 visits against Debian's fairy-stockfish at `go
depth 1`, the balanced 2-move openings of seed S, 20 openings each played from both sides;
seeds 1-2 here, seed 3 on a lent 16-core machine in seven slices by
docs/runs/ab-gomoku-cap/rapfi_slice.py) and the shipped generation 251's games from the seed 1-2
openings (sessions 19-20). Pairs games by opening as docs/runs/ab-gomoku-ro/judge.py does (an
opening with a game missing is left out of the comparisons it would be in)."""
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT / "docs/runs/ab-gomoku-ro"))
from judge import openings, points  # noqa: E402

HERE = ROOT / "docs/runs/ab-xiangqi-fullopen/judge"
G251 = {1: "docs/runs/ab-xiangqi-open/eval/sfd1-t30.games.jsonl", 2: "docs/runs/xiangqi-ship-g251/sfd1-s2.games.jsonl"}


def main() -> None:
    players = {"full": {}, "base": {}, "g251": {}}
    for seed in (1, 2, 3):
        for name in ("full", "base"):
            players[name].update(openings(HERE / f"{name}-s{seed}.games.jsonl", seed))
        if seed in G251:
            players["g251"].update(openings(ROOT / G251[seed], seed))
    for name, pairs in players.items():
        seeds = sorted({s for s, _ in pairs})
        per = [f"seed {s} {sum(points(p) for k, p in pairs.items() if k[0] == s) / (2 * sum(k[0] == s for k in pairs)):.1%}"
               for s in seeds]
        games = [g for p in pairs.values() for g in p.values()]
        wdl = [sum(g["result"] == r for g in games) for r in ("win", "draw", "loss")]
        print(f"{name}: {len(games)} games, {sum(map(points, pairs.values())) / len(games):.1%} "
              f"({'-'.join(map(str, wdl))}; {', '.join(per)})")
    for a, b in (("full", "base"), ("full", "g251"), ("base", "g251")):
        keys = [k for k in players[a] if k in players[b]]
        for k in keys:
            assert players[a][k][True]["start"] == players[b][k][True]["start"], f"opening {k} differs"
        diffs = [(points(players[a][k]) - points(players[b][k])) / 2 for k in keys]
        n, mean = len(diffs), sum(diffs) / len(diffs)
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        print(f"{a} - {b}: {n} openings, {100 * mean:+.1f} points a game, standard error {100 * se:.1f}"
              + (f", z {mean / se:.2f}" if se > 0 else ""))


if __name__ == "__main__":
    main()
