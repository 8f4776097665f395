"""Where xiangqi games against fairy-stockfish went wrong: for every game the model did not win,
fairy-stockfish's own evaluation (`go depth 9`, centipawns, the mover's view) before and after
each of the model's moves, and each move that lost 250 or more from a position not already
lost by 500, with the piece moved, what the opponent then wins by captures alone
(`capture_gain`, soldiers) and whether it gives check. One JSON line a game.

usage: python docs/runs/xiangqi-play-search-2026-11-28/blunders.py GAMES.jsonl... > blunders.jsonl
       (from the project root; fairy-stockfish at /usr/games/fairy-stockfish or $FAIRY_STOCKFISH)

It was run on 2026-11-28 on generation 171's games of seeds 1-3 against depth 1 (see docs/training.md)."""
import json
import os
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
from engine.protocols.uci_client import UCIEnginePlayer  # noqa: E402
from games import get_game  # noqa: E402

DEPTH = 9


def main() -> None:
    game = get_game("xiangqi")
    engine = UCIEnginePlayer(game, os.environ.get("FAIRY_STOCKFISH", "/usr/games/fairy-stockfish"),
                             work={"depth": DEPTH})

    def evaluate(state) -> int:
        engine.process.drain()
        engine.process.send(engine.position_command(state))
        engine.process.send(f"go depth {DEPTH}")
        for line in reversed(engine.process.read_until(lambda l: l.startswith("bestmove"), 60)):
            m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
            if m:
                v = int(m.group(2))
                return v if m.group(1) == "cp" else (10000 if v > 0 else -10000)
        return 0

    try:
        for path in sys.argv[1:]:
            for line in open(path, encoding="utf-8"):
                g = json.loads(line)
                if g["result"] == "win":
                    continue
                state = game.state_from_text(g["start"])
                model_side = state.current_player if g["a_first"] else 1 - state.current_player
                drops = []
                for ply, text in enumerate(g["moves"]):
                    if state.is_terminal():
                        break
                    action = state.parse_action(text)
                    after = state.play(action)
                    if state.current_player == model_side:
                        before_cp = evaluate(state)
                        after_cp = before_cp if after.is_terminal() else -evaluate(after)
                        if before_cp - after_cp >= 250 and before_cp > -500 and not after.is_terminal():
                            piece = state.piece_at(*state.action_squares(action)[0])
                            drops.append((ply, text, before_cp, after_cp, piece, round(after.capture_gain(), 1),
                                          after.is_check()))
                    state = after
                print(json.dumps({"file": path, "game": g["game"], "result": g["result"], "plies": len(g["moves"]),
                                  "drops": drops}), flush=True)
    finally:
        engine.close()


if __name__ == "__main__":
    main()
