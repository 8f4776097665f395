# usage: ZEROBOARD_CONNECT4_SOLVE_EMPTIES=0 python c4_bench.py SET SIMS SYMMETRIES LIMIT OFFSET  (from the project root)
import sys, time, os
os.environ.setdefault("ZEROBOARD_CONNECT4_SOLVE_EMPTIES", "0")
import numpy as np, torch
torch.set_num_threads(1)
from pathlib import Path
from games import get_game
from engine.play.players import load_evaluator, play_search_config
from engine.core.evaluators import SymmetryEvaluator
from engine.core.mcts import MCTS
from engine.commands.evaluate import read_labelled_positions, best_moves
game = get_game("connect4")
setname, sims, syms, limit, offset = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
states, optimal, bad = read_labelled_positions(game, Path("benchmarks/connect4")/f"{setname}.labels", None)
states, optimal = states[offset:offset+limit], optimal[offset:offset+limit]
ev, _ = load_evaluator(game, "models/connect4.pt")
if syms > 1:
    ev = SymmetryEvaluator(ev, game, syms)
mcts = MCTS(ev, play_search_config(game), seed=0)
t = time.perf_counter()
ch = best_moves(mcts, states, sims)
err = sum(a not in b for a, b in zip(ch, optimal))
print(f"{setname} sims={sims} syms={syms} n={len(states)} errors={err} rate={err/len(states):.4f} secs={time.perf_counter()-t:.0f} runtime={ev.runtime}", flush=True)
