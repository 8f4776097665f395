# usage: python docs/runs/ab-connect4-ro/c4_errors.py MODEL SET SIMS [LIMIT [OFFSET [SYMMETRIES [PTEMP]]]]  (from the project root)
# SIMS = 0: the network's own first choice (its policy's most likely legal move), no search.
# SYMMETRIES = 2: every network call averaged with the mirror image's (`[play] symmetries`; 2026-11-27).
# PTEMP: the search's policy temperature (`[play] policy_temperature`; 2026-11-27), 1 when left out.
# A connect4 network with the play search at SIMS visits and without the endgame solver (the
# issue-20 measurement) on a benchmark set: prints the error count and the indices of the wrong
# positions, so two networks can be compared position by position.
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
os.environ.setdefault("ZEROBOARD_CONNECT4_SOLVE_EMPTIES", "0")
import numpy as np  # noqa: E402
import torch  # noqa: E402

torch.set_num_threads(1)
from engine.commands.evaluate import best_moves, read_labelled_positions  # noqa: E402
from engine.core.mcts import MCTS  # noqa: E402
from engine.play.players import load_evaluator, play_search_config, with_symmetries  # noqa: E402
from games import get_game  # noqa: E402

model, setname, sims = sys.argv[1], sys.argv[2], int(sys.argv[3])
limit = int(sys.argv[4]) if len(sys.argv) > 4 else 1000
offset = int(sys.argv[5]) if len(sys.argv) > 5 else 0
symmetries = int(sys.argv[6]) if len(sys.argv) > 6 else 1
ptemp = float(sys.argv[7]) if len(sys.argv) > 7 else 1.0
game = get_game("connect4")
states, optimal, _ = read_labelled_positions(game, Path("benchmarks/connect4") / f"{setname}.labels", None)
states, optimal = states[offset:offset + limit], optimal[offset:offset + limit]
ev = with_symmetries(game, load_evaluator(game, model)[0], symmetries)
mcts = MCTS(ev, play_search_config(game, policy_temperature=ptemp), seed=0)
t = time.perf_counter()
if sims > 0:
    chosen = best_moves(mcts, states, sims)
else:
    legal = [list(s.legal_actions()) for s in states]
    priors, _ = ev.evaluate(states, legal)
    chosen = [int(l[int(np.argmax(p))]) for l, p in zip(legal, priors)]
wrong = [offset + i for i, (a, b) in enumerate(zip(chosen, optimal)) if a not in b]
print(f"{model} {setname} sims={sims} positions={offset}-{offset + len(states) - 1} "
      f"errors={len(wrong)} rate={len(wrong) / len(states):.4f} secs={time.perf_counter() - t:.0f} "
      f"runtime={ev.runtime} symmetries={symmetries}" + (f" ptemp={ptemp:g}" if ptemp != 1.0 else "")
      + f" wrong={wrong}", flush=True)
