"""Benchmark: tictactoe from a random network to perfect play, on this machine.

Trains with the project's own training run (engine/core/configs/tictactoe.toml) in a temporary
run directory and, after every CHECK_EVERY generations, checks the default level against
exact minimax in every reachable non-terminal position (the `evaluate` suite's check).
Prints one JSON line: the training wall time (checks excluded) and generations until the
first checkpoint that plays perfectly, or the figures at the time limit.

    python benchmarks/tictactoe_from_scratch.py [--minutes 15] [--workers 2]
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

CHECK_EVERY = 3


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=15.0)
    ap.add_argument("--workers", type=int, default=2)
    args = ap.parse_args()
    from engine.core.checkpoint import load_network
    from engine.commands.evaluate import best_moves
    from engine.core.evaluators import NetworkEvaluator
    from engine.core.mcts import MCTS
    from engine.play.players import DEFAULT_LEVEL, LEVEL_SETTINGS
    from engine.play.solver import Solver, reachable_states
    from engine.training.train import TrainingRun
    from games import get_game
    game = get_game("tictactoe")
    solver = Solver()
    positions = reachable_states(game)
    optimal = [solver.optimal_actions(p) for p in positions]
    sims = LEVEL_SETTINGS[DEFAULT_LEVEL].sims
    with tempfile.TemporaryDirectory() as tmp:
        run = TrainingRun(game, Path(tmp) / "run", workers=args.workers, progress=False)
        trained = 0.0
        result = {"game": "tictactoe", "workers": args.workers, "cores": os.cpu_count(), "perfect": False}
        while trained < args.minutes * 60:
            t0 = time.perf_counter()
            state = run.run(generations=CHECK_EVERY)
            trained += time.perf_counter() - t0
            net, _ = load_network(Path(tmp) / "run" / "latest.pt", game)
            chosen = best_moves(MCTS(NetworkEvaluator(net)), positions, sims)
            wrong = sum(a not in best for a, best in zip(chosen, optimal))
            result.update(generations=state["generation"], games=state["games"], train_seconds=round(trained, 1),
                          positions_checked=len(positions), sims=sims, non_optimal=wrong)
            print(json.dumps(result), file=sys.stderr, flush=True)
            if wrong == 0:
                result["perfect"] = True
                break
    print(json.dumps(result))
    return 0 if result["perfect"] else 1


if __name__ == "__main__":
    sys.exit(main())
