"""The 2026-11-27 judge of the random-start comparison against Rapfi at 1000 nodes (from the project root).

usage: python docs/runs/ab-gomoku-ro/judge.py

Reads rapfi/{cap109,ro115}-sS.games.jsonl (seeds 1-3 on a lent 16-core machine, each seed's 50
balanced openings in three slices by docs/runs/ab-gomoku-cap/rapfi_slice.py; seed 4 of ro115
here) and the shipped generation 30's games from the same openings (docs/runs/ab-gomoku-qmix/rapfi/,
docs/runs/gomoku-ship-g30/). Games are paired by opening (both games of an opening, one from each
side); an opening with a game missing (three of cap109's slices ran out of time) is left out of
every comparison it would be in. Prints each player's score and each paired difference with its
standard error. Generation 30's games left the tree when the run data was trimmed (commit 9d2d3a0);
without them the script prints "g30: no games", and `git show 9d2d3a0^:PATH` gives each back.

usage: python docs/runs/ab-gomoku-ro/judge.py DIR "SEED SEED..." A:B [C:D ...] [NAME=PREFIX ...]
judges any such match the same way: the players named in the pairs, from DIR/NAME-sSEED.games.jsonl
(or, for a NAME=PREFIX, from PREFIX-sSEED.games.jsonl, a path from the project root), each by colour,
then each pair A - B (docs/runs/gomoku-ship-2026-12-01/judge.sh uses it). With 3-stone openings
(white moves first) add --white-first."""
import json
import math
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/ab-gomoku-ro/rapfi"
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}
G30 = {1: "docs/runs/ab-gomoku-qmix/rapfi/main30-s1.games.jsonl",
       2: "docs/runs/ab-gomoku-qmix/rapfi/main30-s2.games.jsonl",
       3: "docs/runs/gomoku-ship-g30/main30-s3.games.jsonl",
       4: "docs/runs/gomoku-ship-g30/main30-s4.games.jsonl"}


def openings(path: Path, seed: int) -> dict:
    """(seed, opening number) -> {a_first: game} for the openings with both games recorded."""
    by = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                g = json.loads(line)
                by.setdefault((seed, (g["game"] + 1) // 2), {})[g["a_first"]] = g
    return {k: v for k, v in by.items() if len(v) == 2}


def points(pair: dict) -> float:
    return sum(POINTS[g["result"]] for g in pair.values())


def report(players: dict, comparisons) -> None:
    """Each player's score (with its wins-draws-losses and per-seed scores), then each (a, b) of
    ``comparisons`` paired by the openings both have: the mean difference per game, its standard
    error and z. ``players``: name -> `openings` dicts merged over seeds."""
    for name, pairs in players.items():
        if not pairs:
            print(f"{name}: no games")
            continue
        seeds = sorted({s for s, _ in pairs})
        per = [f"seed {s} {sum(points(p) for k, p in pairs.items() if k[0] == s) / (2 * sum(k[0] == s for k in pairs)):.1%}"
               for s in seeds]
        games = [g for p in pairs.values() for g in p.values()]
        wdl = "-".join(str(sum(g["result"] == r for g in games)) for r in ("win", "draw", "loss"))
        print(f"{name}: {len(games)} games, {sum(map(points, pairs.values())) / len(games):.1%} ({wdl}; {', '.join(per)})")
    for a, b in comparisons:
        keys = [k for k in players[a] if k in players[b]]
        for k in keys:
            assert players[a][k][True]["start"] == players[b][k][True]["start"], f"opening {k} differs"
        diffs = [(points(players[a][k]) - points(players[b][k])) / 2 for k in keys]
        if len(diffs) < 2:
            print(f"{a} - {b}: {len(diffs)} openings in common")
            continue
        n, mean = len(diffs), sum(diffs) / len(diffs)
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)
        print(f"{a} - {b}: {n} openings, {100 * mean:+.1f} points a game, standard error {100 * se:.1f}"
              + (f", z {mean / se:.2f}" if se > 0 else ""))


def judge(sources: dict, seeds, comparisons) -> None:
    """`report` on players read from files: ``sources`` maps a name to a function of the seed
    giving its games file (or None where that player has no games for the seed)."""
    players = {name: {} for name in sources}
    for seed in seeds:
        for name, path_of in sources.items():
            path = path_of(seed)
            if path is not None:
                players[name].update(openings(Path(path), seed))
    report(players, comparisons)


def by_colour(name: str, paths, first: str = "as black", second: str = "as white") -> None:
    """Print ``name``'s score over the games in ``paths`` (those that exist), in all and by the
    colour it played: ``first`` where it moved first (after 2 opening stones black, after 3
    white), ``second`` where it moved second."""
    games = [json.loads(line) for p in map(Path, paths) if p.exists()
             for line in p.read_text(encoding="utf-8").splitlines() if line.strip()]
    if not games:
        print(f"{name}: no games")
        return
    parts = [f"{sum(POINTS[g['result']] for g in games) / len(games):.1%} of {len(games)}"]
    for moved_first, colour in ((True, first), (False, second)):
        side = [g for g in games if g["a_first"] is moved_first]
        if side:
            parts.append(f"{colour} {sum(POINTS[g['result']] for g in side) / len(side):.1%} of {len(side)}")
    print(f"{name}: " + "; ".join(parts))


def main() -> None:
    if len(sys.argv) > 1:
        args = [a for a in sys.argv[1:] if a != "--white-first"]
        colours = ("as white", "as black") if "--white-first" in sys.argv else ("as black", "as white")
        folder, seeds = Path(args[0]), [int(s) for s in args[1].split()]
        pairs = [a.split(":") for a in args[2:] if ":" in a]
        prefix = {name: ROOT / path for name, path in (a.split("=", 1) for a in args[2:] if "=" in a)}
        names = list(dict.fromkeys(n for pair in pairs for n in pair))
        files = {name: (lambda s, name=name: Path(f"{prefix.get(name, folder / name)}-s{s}.games.jsonl")) for name in names}
        for name in names:
            by_colour(name, [files[name](s) for s in seeds], *colours)
        judge(files, seeds, pairs)
        return
    players = {"ro115": {}, "cap109": {}, "g30": {}}
    for seed in G30:
        players["g30"].update(openings(ROOT / G30[seed], seed))
        for name in ("ro115", "cap109"):
            players[name].update(openings(HERE / f"{name}-s{seed}.games.jsonl", seed))
    report(players, (("ro115", "cap109"), ("ro115", "g30"), ("cap109", "g30")))


if __name__ == "__main__":
    main()
