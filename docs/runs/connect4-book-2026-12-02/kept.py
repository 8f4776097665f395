"""Did each side of Connect Four rating games keep its exact result move by move? For every
position of each game (A: the first-named level) the exact result for the side to move (the
opening book where it has the position, else the project's win/draw/loss solver), and every move
that worsened it, by whom and at which ply. Prints a line a game, then the tally: games by the
opening's exact result for A, A's score, and the moves that changed a result by side.

    python docs/runs/connect4-book-2026-12-02/kept.py GAMES.jsonl...

(run from the project root; the positions of 36-37 empty cells take a second or two each)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games import connect4, get_game  # noqa: E402

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def exact(state) -> int:
    found = connect4.book_result(state._cur, state._mask)
    return found if found is not None else connect4.solve(state._cur, state._mask)


def main() -> int:
    game = get_game("connect4")
    by_opening, errors, score, games = {}, {"A": 0, "B": 0}, 0.0, 0
    for path in sys.argv[1:]:
        for line in open(path):
            record = json.loads(line)
            state = game.state_from_text(record["start"])
            a_moves_now = record["a_first"]   # the side to move after the 2-ply opening is the first player
            value = exact(state)
            opening_for_a = value if a_moves_now else -value
            changes = []
            mover_is_a = a_moves_now
            for ply, text in enumerate(record["moves"], start=len(record["start"])):
                nxt = state.apply(int(text) - 1)
                after = 1 if nxt.winner() is not None else 0 if nxt.is_terminal() else -exact(nxt)
                if after < value:
                    changes.append(f"{'A' if mover_is_a else 'B'}@{ply}:{value}->{after}")
                    errors["A" if mover_is_a else "B"] += 1
                state, mover_is_a = nxt, not mover_is_a
                if state.is_terminal():
                    break
                value = exact(state)
            by_opening.setdefault(opening_for_a, {"win": 0, "draw": 0, "loss": 0})[record["result"]] += 1
            score += POINTS[record["result"]]
            games += 1
            print(record["game"], record["start"], "A first" if record["a_first"] else "B first",
                  "opening for A:", opening_for_a, record["result"], " ".join(changes), flush=True)
    print("games by the opening's exact result for A (A's results):", json.dumps(by_opening, sort_keys=True))
    print(f"A's score {score / games:.3f} over {games} games; moves that worsened the mover's exact result: {errors}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
