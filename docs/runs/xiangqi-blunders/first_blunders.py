"""Where the shipped xiangqi model's games against fairy-stockfish at depth 1 go wrong.

usage: python docs/runs/xiangqi-blunders/first_blunders.py GAMES.games.jsonl [DEPTH [DROP]]  (from the project root)

For every game the model (player A of an arena record) did not win, replays it and has
fairy-stockfish (Debian's, `go depth DEPTH`, default 12) evaluate the position before each of
the model's moves and after it. A move that loses DROP centipawns or more (default 250) from
the model's point of view is a blunder; prints each game's first one: the ply, the move, the
engine's preferred move, the evaluation before and after, and the material on the board (a
check of what kind of error it is). The engine only measures here, as in every reference match.
"""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
from engine.protocols.uci_client import UCIEnginePlayer, shift_ranks  # noqa: E402
from games import get_game  # noqa: E402

MATE = 10000


def evaluate(engine: UCIEnginePlayer, state, depth: int) -> tuple[int, str]:
    """(centipawns for the side to move, the engine's best move in the project's notation)."""
    engine.process.drain()
    engine.process.send(engine.position_command(state))
    engine.process.send(f"go depth {depth}")
    lines = engine.process.read_until(lambda l: l.startswith("bestmove"), 120)
    score = 0
    for line in reversed(lines):
        m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
        if m:
            v = int(m.group(2))
            score = v if m.group(1) == "cp" else (MATE - abs(v)) * (1 if v > 0 else -1)
            break
    best = lines[-1].split()[1] if len(lines[-1].split()) > 1 else "(none)"
    return score, shift_ranks(best, -engine.rank_offset)


def main() -> None:
    path = sys.argv[1]
    depth = int(sys.argv[2]) if len(sys.argv) > 2 else 12
    drop = int(sys.argv[3]) if len(sys.argv) > 3 else 250
    game = get_game("xiangqi")
    engine = UCIEnginePlayer(game, "/usr/games/fairy-stockfish", options={"UCI_Variant": "xiangqi"}, timeout=30)
    try:
        for line in Path(path).read_text(encoding="utf-8").splitlines():
            g = json.loads(line)
            if g["result"] == "win":
                continue
            state = game.state_from_text(g["start"])
            first = None
            for ply, text in enumerate(g["moves"]):
                if (ply % 2 == 0) == g["a_first"] and first is None:   # the model's move
                    before, best = evaluate(engine, state, depth)
                    after_state = state.play(state.parse_action(text))
                    after = -evaluate(engine, after_state, depth)[0] if not after_state.is_terminal() else before
                    if before - after >= drop:
                        first = (ply, text, best, before, after)
                state = state.play(state.parse_action(text))
            if first:
                ply, text, best, before, after = first
                print(f"game {g['game']:3d} {g['result']:4s} ({len(g['moves'])} plies): ply {ply:3d} played {text} "
                      f"(engine: {best}), {before:+6d} -> {after:+6d} cp", flush=True)
            else:
                print(f"game {g['game']:3d} {g['result']:4s} ({len(g['moves'])} plies): no drop of {drop} cp", flush=True)
    finally:
        engine.close()


if __name__ == "__main__":
    main()
