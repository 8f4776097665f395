# usage: python docs/runs/play-search/c4_search.py SET SIMS CPUCT FPU LIMIT OFFSET  (from the project root)
# The shipped connect4 network and the play search without the endgame solver, at the given
# exploration constant and first-play urgency reduction, on LIMIT positions of a benchmark set
# from OFFSET: prints the errors (a move not among the set's optimal ones).
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("ZEROBOARD_CONNECT4_SOLVE_EMPTIES", "0")
import torch  # noqa: E402

torch.set_num_threads(1)
from engine.commands.evaluate import best_moves, read_labelled_positions  # noqa: E402
from engine.core.mcts import MCTS  # noqa: E402
from engine.play.players import load_evaluator, play_search_config  # noqa: E402
from games import get_game  # noqa: E402

game = get_game("connect4")
setname, sims, cpuct, fpu, limit, offset = (sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]),
                                            int(sys.argv[5]), int(sys.argv[6]))
states, optimal, _ = read_labelled_positions(game, Path("benchmarks/connect4") / f"{setname}.labels", None)
states, optimal = states[offset:offset + limit], optimal[offset:offset + limit]
ev, _ = load_evaluator(game, "models/connect4.pt")
mcts = MCTS(ev, play_search_config(game, cpuct=cpuct, fpu_reduction=fpu), seed=0)
t = time.perf_counter()
chosen = best_moves(mcts, states, sims)
wrong = [offset + i for i, (a, b) in enumerate(zip(chosen, optimal)) if a not in b]
print(f"{setname} sims={sims} cpuct={cpuct:g} fpu={fpu:g} positions={offset}-{offset + len(states) - 1} "
      f"errors={len(wrong)} rate={len(wrong) / len(states):.4f} secs={time.perf_counter() - t:.0f} "
      f"runtime={ev.runtime} wrong={wrong}", flush=True)
