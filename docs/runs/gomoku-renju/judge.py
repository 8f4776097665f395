"""The 2026-11-29 judge of the first renju network (from the project root), written before any of its games.

usage: python docs/runs/gomoku-renju/judge.py

Two networks play renju at 800 visits against Rapfi (classical evaluation, renju rules, 1000
nodes) from the 50 balanced 3-stone openings of seeds 1 and 2, each opening from both sides
(`run.sh`; 200 games each):
- free: the shipped free-style network (models/gomoku.pt, generation 115), which the app plays
  under renju until a renju network ships;
- renju: the last network of the renju line (`line.toml`: 115 continued by renju self-play,
  runs/renju-line, one worker), fixed as the line's final checkpoint when its --hours ran out.

Paired by opening, renju - free decides: the renju network ships as models/gomoku-renju.pt when
the difference is above -1 standard error (no worse); its score, with each colour's, goes into
models/gomoku-renju.json. Otherwise nothing ships and the app goes on playing renju with the
free-style network. Prints each network's score overall and per colour (Rapfi's colour is the
other one), and the paired difference."""
import json
import math
from pathlib import Path

HERE = Path(__file__).resolve().parent / "rapfi"
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
SEEDS = (1, 2)


def games(name: str) -> dict:
    """(seed, opening) -> {a_first: game} for the openings with both games recorded."""
    by = {}
    for seed in SEEDS:
        path = HERE / f"{name}-s{seed}.games.jsonl"
        if path.exists():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    g = json.loads(line)
                    by.setdefault((seed, (g["game"] + 1) // 2), {})[g["a_first"]] = g
    return {k: v for k, v in by.items() if len(v) == 2}


def summary(name: str, pairs: dict) -> dict:
    out = {"games": 2 * len(pairs)}
    for label, first in (("all", None), ("black", True), ("white", False)):
        gs = [g for p in pairs.values() for f, g in p.items() if first is None or f == first]
        wdl = [sum(g["result"] == r for g in gs) for r in ("win", "draw", "loss")]
        score = sum(POINTS[g["result"]] for g in gs) / len(gs) if gs else float("nan")
        out[label] = {"games": len(gs), "wins": wdl[0], "draws": wdl[1], "losses": wdl[2], "score": round(score, 4)}
        print(f"{name} {label}: {len(gs)} games, {score:.1%} ({'-'.join(map(str, wdl))})")
    return out


def main() -> None:
    players = {name: games(name) for name in ("free", "renju")}
    for name, pairs in players.items():
        summary(name, pairs)
    keys = [k for k in players["renju"] if k in players["free"]]
    diffs = [(sum(POINTS[g["result"]] for g in players["renju"][k].values())
              - sum(POINTS[g["result"]] for g in players["free"][k].values())) / 2 for k in keys]
    if len(diffs) < 2:
        print(f"renju - free: {len(diffs)} openings in common")
        return
    n, mean = len(diffs), sum(diffs) / len(diffs)
    se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
    verdict = "ships" if mean > -se else "does not ship"
    print(f"renju - free: {n} openings, {100 * mean:+.1f} points a game, standard error {100 * se:.1f}; "
          f"the renju network {verdict}")


if __name__ == "__main__":
    main()
