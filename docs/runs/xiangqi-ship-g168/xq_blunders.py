"""The AI's errors in xiangqi games against fairy-stockfish (an `arena --games-out` file, player A
the AI): fairy-stockfish at depth 10 rates the position before and after each AI move, through
the project's UCI client; moves that lose more than 150 centipawns are listed (the first 4 a
game, positions already lost by 1500 or more left out; a mate counts as the client's 2000).

    python docs/runs/xiangqi-ship-g168/xq_blunders.py GAMES.jsonl   (needs /usr/games/fairy-stockfish)
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from games import get_game
from engine.protocols.common import value_to_cp
from engine.protocols.uci_client import UCIEnginePlayer

game = get_game("xiangqi")


def rate(engine, state):
    """fairy-stockfish's score for the side to move (centipawns) and its best move."""
    r = engine.choose(state)
    return value_to_cp(r.value), state.action_to_text(r.action)


with UCIEnginePlayer(game, "/usr/games/fairy-stockfish", work={"depth": 10}) as sf:
    for line in open(sys.argv[1]):
        rec = json.loads(line)
        if rec["result"] != "loss":
            continue
        ai = 0 if rec["a_first"] else 1
        state = game.state_from_text(rec["start"])
        pre = len(state.moves)
        errors = []
        for i, text in enumerate(rec["moves"]):
            nxt = state.play(state.parse_action(text))
            if state.current_player == ai:
                before, best = rate(sf, state)   # for the AI
                after, reply = rate(sf, nxt)     # for fairy-stockfish
                if before + after > 150 and before > -1500:
                    errors.append(f"ply{pre + i} {text} (sf best {best}) {before}->{-after} reply {reply}")
            state = nxt
        print(rec["game"], "AI", "red" if ai == 0 else "black", len(rec["moves"]), "|", "; ".join(errors[:4]),
              flush=True)
