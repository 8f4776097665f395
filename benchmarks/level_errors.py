"""Benchmark: each level's rate of large errors in the games that rated it.

`tools/rate_levels.py` keeps every rating match's games (``*.games.jsonl``: the start position
and the moves). This replays them and judges every move a level made where it had a choice (more
than one legal move): a **large error** is a move that loses at least 20% of win rate by the
judge's reckoning, i.e. (value before − value after) / 2 ≥ 0.2 on the −1..1 scale, both values
for the mover. The judge is the shipped model searched with the play settings at a fixed number
of visits (``--judge-visits``, no time cap, so the machine's load does not change the verdicts);
a finished game's value is exact.

Prints one JSON line per level: moves judged, large errors, their rate, the games they came
from. Levels are read from the file names (``level_<name>_cap_0``), so a level that played a
level is judged in both roles.

    python benchmarks/level_errors.py --game othello [--dir docs/runs/level-ratings/othello]
        [--levels beginner easy] [--games-per-level 10] [--judge-visits 400]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from weak_levels import is_large_error  # noqa: E402  (the weak levels' benchmark's measure)

LEVEL_NAME = re.compile(r"^level_([a-z]+)_cap_0$")


def players_of(path: Path) -> tuple[str | None, str | None]:
    """The level names of a match file's players A and B (None where a player is not a level)."""
    stem = path.name[:-len(".games.jsonl")]
    a, _, rest = stem.partition("__vs__")
    b = rest.rsplit("__", 1)[0]
    names = []
    for part in (a, b):
        m = LEVEL_NAME.match(part)
        names.append(m.group(1) if m else None)
    return names[0], names[1]


def level_records(folder: Path, level: str, games: int) -> list[tuple[str | None, dict]]:
    """(player A's level name, record) of up to ``games`` of ``level``'s recorded games, taken
    in turn from each of its match files (name order), so that every opponent is represented."""
    queues = []
    for path in sorted(folder.glob("*.games.jsonl")):
        a, b = players_of(path)
        if level in (a, b):
            queues.append([(a, json.loads(line)) for line in path.read_text(encoding="utf-8").splitlines()])
    picked = []
    while len(picked) < games and any(queues):
        for queue in queues:
            if queue and len(picked) < games:
                picked.append(queue.pop(0))
    return picked


def level_moves(game, records, level: str):
    """[(state before, action)] of ``level``'s moves in ``records`` where it had a choice."""
    from engine.play.arena import record_positions
    moves = []
    for a, record in records:
        states, actions = record_positions(game, record)
        # player A is the side to move at the start when a_first; a level that played itself
        # is judged as A only
        a_player = states[0].current_player if record["a_first"] else 1 - states[0].current_player
        mine = a_player if a == level else 1 - a_player
        moves += [(s, action) for s, action in zip(states, actions)
                  if s.current_player == mine and len(s.legal_actions()) > 1]
    return moves


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", required=True)
    p.add_argument("--dir", help="the rating matches' folder (default docs/runs/level-ratings/<game>)")
    p.add_argument("--levels", nargs="+", default=["beginner", "easy", "medium", "hard", "strong", "max"])
    p.add_argument("--games-per-level", type=int, default=10)
    p.add_argument("--judge-visits", type=int, default=400)
    args = p.parse_args(argv)
    from engine.play.players import MCTSPlayer, load_evaluator, play_search_config
    from games import get_game
    game = get_game(args.game)
    folder = Path(args.dir or f"docs/runs/level-ratings/{args.game}")
    if not folder.is_dir():
        p.error(f"no rating matches at {folder}: give --dir")
    evaluator, described = load_evaluator(game)
    judge = MCTSPlayer(game, evaluator, sims=args.judge_visits, seconds=None, config=play_search_config(game),
                       reuse=False)
    for level in args.levels:
        t0 = time.process_time()
        records = level_records(folder, level, args.games_per_level)
        moves, used = level_moves(game, records, level), len(records)
        large = sum(is_large_error(judge, before, action) for before, action in moves)
        print(json.dumps({"game": args.game, "level": level, "games": used, "judged_moves": len(moves),
                          "large_errors": large, "large_error_rate": round(large / max(1, len(moves)), 4),
                          "judge": f"{described}, {args.judge_visits} visits, play settings",
                          "cpu_s": round(time.process_time() - t0, 1), "date": time.strftime("%Y-%m-%d")}),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
