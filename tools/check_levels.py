"""Check the levels' ratings in models/<game>.json (issue 52's target): every level of
connect4, othello, gomoku and xiangqi rated ("rating", "low", "high", "games", "reference"),
each from at least 20 games, neighbouring levels at least 100 points apart. Prints each
game's ladder with the gaps and what fails; exits 1 when anything does.

    python tools/check_levels.py [--games connect4 othello gomoku xiangqi] [--models DIR]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.play.players import LEVELS  # noqa: E402

RATED_GAMES = ("connect4", "othello", "gomoku", "xiangqi")
MIN_GAMES = 20
MIN_GAP = 100
FIELDS = {"rating": (int, float), "low": (int, float), "high": (int, float), "games": (int,), "reference": (str,)}


def problems(game: str, data: dict) -> list[str]:
    """What ``data`` (a models/<game>.json) lacks against the target, as sentences."""
    levels = data.get("levels") if isinstance(data, dict) else None
    if not isinstance(levels, dict):
        return [f"{game}: no \"levels\""]
    out = []
    for level in LEVELS:
        entry = levels.get(level)
        if not isinstance(entry, dict):
            out.append(f"{game}: {level} is not rated")
            continue
        for name, kinds in FIELDS.items():
            if not isinstance(entry.get(name), kinds) or isinstance(entry.get(name), bool):
                out.append(f"{game}: {level} has no valid {name!r}")
        if isinstance(entry.get("games"), int) and entry["games"] < MIN_GAMES:
            out.append(f"{game}: {level} rests on {entry['games']} games (< {MIN_GAMES})")
    return out


def gaps(data: dict) -> list[tuple[str, str, float]]:
    """(lower level, upper level, rating difference) for each neighbouring pair rated."""
    levels = data.get("levels") or {}
    rated = [lv for lv in LEVELS if isinstance(levels.get(lv), dict) and isinstance(levels[lv].get("rating"), (int, float))]
    return [(a, b, levels[b]["rating"] - levels[a]["rating"]) for a, b in zip(rated, rated[1:])]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", nargs="+", default=list(RATED_GAMES))
    ap.add_argument("--models", default=str(ROOT / "models"))
    args = ap.parse_args(argv)
    failed = []
    for game in args.games:
        path = Path(args.models) / f"{game}.json"
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            failed.append(f"{game}: {path} cannot be read ({exc})")
            continue
        failed += problems(game, data)
        levels = data.get("levels") or {}
        print(f"{game} ({next(iter(levels.values()), {}).get('reference', 'no scale')}):")
        for level in LEVELS:
            e = levels.get(level)
            if isinstance(e, dict):
                print(f"  {level:9s} {e.get('rating')!s:>6} ({e.get('low')}-{e.get('high')}), {e.get('games')} games")
        for a, b, d in gaps(data):
            mark = "" if d >= MIN_GAP else f"  < {MIN_GAP}"
            print(f"    {a} -> {b}: {d:+.0f}{mark}")
            if d < MIN_GAP:
                failed.append(f"{game}: {a} and {b} are {d:.0f} points apart (< {MIN_GAP})")
    for line in failed:
        print("FAIL", line)
    print("all levels rated and spread" if not failed else f"{len(failed)} problem(s)")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
