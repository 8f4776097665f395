# usage: python docs/runs/remembered-evaluations-2026-11-30/repeats.py GAME VISITS POSITIONS  (from the project root)
# How many of a play search's network positions repeat one the same search already evaluated
# (a transposition): the shipped model with the play settings, without the memory, each
# position searched afresh to VISITS; counts the rows the network is given and the distinct
# ones among them per search. Connect Four's positions are the first of the middle-medium
# set, the other games' positions 4-20 random plies from the start (seed 1).
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
os.environ.setdefault("ZEROBOARD_CONNECT4_SOLVE_EMPTIES", "0")
import numpy as np  # noqa: E402

from engine.commands.evaluate import read_labelled_positions  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402
from engine.core.network import configure_threads  # noqa: E402
from engine.play.players import load_evaluator, play_search_config  # noqa: E402
from games import get_game  # noqa: E402

configure_threads(1)
gname, visits, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
game = get_game(gname)
ev = load_evaluator(game)[0].remember(0)   # every leaf reaches the network
seen: set[bytes] = set()
count = {"rows": 0, "distinct": 0}
infer = ev.infer


def counting_infer(planes):
    for row in planes:
        count["rows"] += 1
        key = row.tobytes()
        if key not in seen:
            seen.add(key)
            count["distinct"] += 1
    return infer(planes)


ev.infer = counting_infer
mcts = MCTS(ev, play_search_config(game), seed=0)
if gname == "connect4":
    states = read_labelled_positions(game, Path("benchmarks/connect4/Test_L2_R2.labels"), None)[0][:n]
else:
    rng = np.random.default_rng(1)
    states = []
    while len(states) < n:
        s = game.initial_state()
        for _ in range(int(rng.integers(4, 20))):
            if s.is_terminal():
                break
            s = s.apply(int(rng.choice(s.legal_actions())))
        if not s.is_terminal():
            states.append(s)
for s in states:
    seen.clear()   # repeats within one search only
    mcts.search([Tree(s)], visits)
print(f"{gname} visits={visits} positions={len(states)} network_rows={count['rows']} distinct={count['distinct']} "
      f"repeated={1 - count['distinct'] / count['rows']:.3f}")
