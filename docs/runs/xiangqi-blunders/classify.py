"""What kind of error each first blunder of first_blunders.py is (from the project root).

usage: python docs/runs/xiangqi-blunders/classify.py GAMES.games.jsonl BLUNDERS.txt [MODEL]

For each game's first blunder (a line of first_blunders.py's output), follows fairy-stockfish's
depth-10 line after the model's move for 4 plies and prints, from the model's side: the
material (conventional values: chariot 9, cannon 4.5, horse 4, ...) before the move and at the
end of those 4 plies; the network's own value (no search) before the move and at that point;
fairy-stockfish's depth-1 and depth-10 verdicts on the move; and the 800-visit search's mean
value (q) for the move played and for fairy-stockfish's choice. A material loss that the
network's value barely registers is a valuation error; one the search never looked at is a
search error."""
import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
sys.path.insert(0, str(Path(__file__).resolve().parent))
from engine.commands.specs import close_player, player_from_spec  # noqa: E402
from engine.play.players import load_evaluator  # noqa: E402
from engine.protocols.uci_client import UCIEnginePlayer, shift_ranks  # noqa: E402
from first_blunders import evaluate  # noqa: E402
from games import get_game  # noqa: E402

LINE = re.compile(r"game +(\d+) \S+ \(\d+ plies\): ply +(\d+) played (\S+) \(engine: (\S+)\)")


def main() -> None:
    games_path, blunders_path = sys.argv[1], sys.argv[2]
    model = sys.argv[3] if len(sys.argv) > 3 else "models/xiangqi.pt"
    game = get_game("xiangqi")
    games = {g["game"]: g for g in map(json.loads, Path(games_path).read_text(encoding="utf-8").splitlines())}
    evaluator = load_evaluator(game, model)[0]
    player = player_from_spec(game, f"model:{model}@800", seed=1, opening_plies=0)
    engine = UCIEnginePlayer(game, "/usr/games/fairy-stockfish", options={"UCI_Variant": "xiangqi"}, timeout=30)

    def net_value(state, side):
        v = float(evaluator.evaluate([state], [state.legal_actions()])[1][0])
        return v if state.current_player == side else -v

    print("game ply move  sf-move | material before -> after 4 | net value before -> after 4 | "
          "sf d1, d10 after move (cp) | search q played, q sf-move (visits)")
    try:
        for line in Path(blunders_path).read_text(encoding="utf-8").splitlines():
            m = LINE.search(line)
            if not m:
                continue
            gi, ply, played, best = int(m.group(1)), int(m.group(2)), m.group(3), m.group(4)
            g = games[gi]
            state = game.state_from_text(g["start"])
            for text in g["moves"][:ply]:
                state = state.play(state.parse_action(text))
            side = state.current_player
            mat0, val0 = state.heuristic(side), net_value(state, side)
            after = state.play(state.parse_action(played))
            d1, d10 = -evaluate(engine, after, 1)[0], -evaluate(engine, after, 10)[0]
            engine.process.drain()
            engine.process.send(engine.position_command(after))
            engine.process.send("go depth 10")
            lines = engine.process.read_until(lambda l: l.startswith("bestmove"), 60)
            pv = [x for x in lines if " pv " in x]
            pv = pv[-1].split(" pv ")[1].split() if pv else []
            end = after
            for text in pv[:4]:
                if end.is_terminal():
                    break
                end = end.play(end.parse_action(shift_ranks(text, -engine.rank_offset)))
            mat1 = end.heuristic(side)
            val1 = net_value(end, side) if not end.is_terminal() else float("nan")
            result = player.choose(state)
            q = {state.action_to_text(s.action): (s.q, s.visits) for s in result.top}
            qp, qb = q.get(played, (float("nan"), 0)), q.get(best, (float("nan"), 0))
            print(f"{gi:4d} {ply:3d} {played} {best} | {mat0:+5.1f} -> {mat1:+5.1f} | {val0:+.2f} -> {val1:+.2f} | "
                  f"{d1:+5d}, {d10:+5d} | {qp[0]:+.2f} ({qp[1]}), {qb[0]:+.2f} ({qb[1]})", flush=True)
    finally:
        engine.close()
        close_player(player)


if __name__ == "__main__":
    main()
