"""Xiangqi at equal visits: remembered leaves backed up as they are gathered against waiting in
the batch (rule.md here), from the project root.

usage: python docs/runs/recall-in-gather-2026-11-30/xq_match.py FIRST COUNT OUT.games.jsonl [VISITS [SEED]]

Plays openings FIRST..FIRST+COUNT-1 of the 30 balanced 2-ply openings of SEED (default 11),
each from both sides, the new search (A) first in the first game; one JSON line a game with A's
score."""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
from engine.commands.specs import close_player, player_from_spec  # noqa: E402
from engine.play.arena import play_match, random_openings  # noqa: E402
from games import get_game  # noqa: E402


def main() -> None:
    first, count, out = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    visits = int(sys.argv[4]) if len(sys.argv) > 4 else 400
    seed = int(sys.argv[5]) if len(sys.argv) > 5 else 11
    game = get_game("xiangqi")
    openings = random_openings(game, 30, 2, seed)[first:first + count]
    a = player_from_spec(game, f"model:models/xiangqi.pt@{visits}", seed=seed, opening_plies=0)
    b = player_from_spec(game, f"model:models/xiangqi.pt@{visits}", seed=seed + 1, opening_plies=0)
    assert a.mcts.evaluator.remembering and b.mcts.evaluator.remembering
    a.mcts.recall_in_gather, b.mcts.recall_in_gather = True, False
    t = time.perf_counter()
    try:
        with open(out, "w", encoding="utf-8") as f:
            def record(i, a_first, start, final, actions, outcome):
                line = {"game": 2 * first + i + 1, "a_first": a_first, "start": start.to_text(),
                        "plies": len(actions), "result": outcome}
                f.write(json.dumps(line) + "\n")
                f.flush()
            play_match(game, a, b, 2 * len(openings), openings=openings, on_record=record)
    finally:
        close_player(a)
        close_player(b)
    print(f"{out}: {count} openings, {time.perf_counter() - t:.0f} s", flush=True)


if __name__ == "__main__":
    main()
