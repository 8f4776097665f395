"""One slice of a balanced arena match, so that a match can be spread over many cores.

usage: python docs/runs/ab-gomoku-cap/rapfi_slice.py A_SPEC B_SPEC SEED FIRST COUNT OUT.games.jsonl
       [OPENINGS [PLIES [GAME]]]  (from the project root; GAME defaults to gomoku)

Plays openings FIRST..FIRST+COUNT-1 of the OPENINGS (default 50) balanced openings of PLIES
(default 3) random moves that `main.py arena --game gomoku --games 2*OPENINGS
--balanced-openings PLIES --seed SEED` plays (the opening list is drawn the same way, and its
first K are the same whatever its length), each from both sides, A first in the first game.
Each game is one JSON line in the arena's `--games-out` format with the whole match's game
number, so slices concatenated in order are the match's record (paired.py reads them).
With GAME, the same for `main.py arena --game GAME` (2026-11-27: xiangqi).
Written on 2026-11-27 for a lent 16-core machine, whose time ran out first; checked here to
reproduce the arena's games exactly (two games of seed 1's second opening)."""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
from engine.commands.specs import close_player, player_from_spec  # noqa: E402
from engine.play.arena import play_match, random_openings  # noqa: E402
from games import get_game  # noqa: E402


def main() -> None:
    a_spec, b_spec, seed, first, count, out = sys.argv[1:7]
    seed, first, count = int(seed), int(first), int(count)
    total = int(sys.argv[7]) if len(sys.argv) > 7 else 50
    plies = int(sys.argv[8]) if len(sys.argv) > 8 else 3
    game = get_game(sys.argv[9] if len(sys.argv) > 9 else "gomoku")
    openings = random_openings(game, total, plies, seed)[first:first + count]
    a = player_from_spec(game, a_spec, seed=seed, opening_plies=0)
    b = player_from_spec(game, b_spec, seed=seed + 1, opening_plies=0)
    t = time.perf_counter()
    try:
        with open(out, "w", encoding="utf-8") as f:
            def record(i, a_first, start, final, actions, outcome):
                state, moves = start, []
                for action in actions:
                    moves.append(state.action_to_text(action))
                    state = state.play(action)
                line = {"game": 2 * first + i + 1, "a_first": a_first, "start": start.to_text(), "moves": moves,
                        "result": outcome}
                f.write(json.dumps(line, ensure_ascii=False) + "\n")
                f.flush()
            play_match(game, a, b, 2 * len(openings), openings=openings, on_record=record)
    finally:
        close_player(a)
        close_player(b)
    print(f"{out}: {count} openings, {time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
