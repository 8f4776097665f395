"""Where Connect Four's rating games between two levels are decided: for each game, the exact
result (win/draw/loss for player A, the first-named level) of every position with at most
``EMPTIES`` empty cells, solved by the project's win/draw/loss solver, and the moves that changed
it (by A or B). Prints one line a game, then a tally of (result, A's exact result at the first
solved position), A's score, and the score A would have had had it played perfectly from there on
with B's moves unchanged (a loss from a drawn or won position counted as that position's result,
a draw from a won one as a win): how much a stronger A could still gain after that point. Where
openings.json (beside this script, from openings.py) has a game's 2-ply opening, also how often
A's exact result at the first solved position is worse or better than at the opening: who erred,
net, in the plies between.

    python docs/runs/connect4-decided-2026-12-01/decided.py EMPTIES GAMES.jsonl...

(run from the project root; 34 empty cells take about a second a position compiled)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games import connect4, get_game  # noqa: E402

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def main() -> int:
    limit = int(sys.argv[1])
    game = get_game("connect4")
    tally, score, ceiling, games = {}, 0.0, 0.0, 0
    known = Path(__file__).with_name("openings.json")
    openings = json.loads(known.read_text()) if known.exists() else {}
    early = {"worse": 0, "better": 0, "same": 0, "unknown": 0}
    for path in sys.argv[2:]:
        for line in open(path):
            record = json.loads(line)
            state = game.state_from_text(record["start"])
            empties = 42 - len(record["start"])
            first, changes, last = None, [], None
            for ply, text in enumerate([None] + record["moves"]):
                if text is not None:
                    state = state.apply(state.parse_action(text))
                    empties -= 1
                if empties > limit or state.is_terminal():
                    continue
                a_to_move = (ply % 2 == 0) == record["a_first"]
                v = connect4.solve(state._cur, state._mask)   # 1, 0 or -1 for the side to move
                va = v if a_to_move else -v
                if first is None:
                    first = va
                if last is not None and va != last:
                    changes.append(("B" if a_to_move else "A", last, va, empties + 1))
                last = va
            result = record["result"]
            if record["start"] in openings and first is not None:
                at_start = openings[record["start"]] * (1 if record["a_first"] else -1)
                early["worse" if first < at_start else "better" if first > at_start else "same"] += 1
            else:
                early["unknown"] += 1
            print(Path(path).name, record["game"], "A first" if record["a_first"] else "A second", result,
                  "A's exact result", first, "changes (by, from, to, empties before)", changes)
            tally[(result, first)] = tally.get((result, first), 0) + 1
            games += 1
            score += POINTS[result]
            best = (first + 1) / 2 if first is not None else POINTS[result]
            ceiling += max(POINTS[result], best)
    print("tally (result, A's exact result at the first solved position):", sorted(tally.items(), key=str))
    print(f"A's exact result at {limit} empty cells against the opening's:", early)
    print(f"A's score {score:g} of {games} ({100 * score / games:.1f}%); played perfectly from {limit} empty cells "
          f"with B's moves unchanged: {ceiling:g} ({100 * ceiling / games:.1f}%)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
