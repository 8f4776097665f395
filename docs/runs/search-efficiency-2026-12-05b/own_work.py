"""A search's own work, CPU microseconds a visit (fastest and median of ROUNDS passes over four
positions at 800 visits), the network's answers held fixed, in the checkout at ROOT; run in turn
for two checkouts to compare builds across processes.

    python docs/runs/search-efficiency-2026-12-05b/own_work.py ROOT GAME ROUNDS
"""
import sys, time
root = sys.argv[1]; sys.path.insert(0, root); sys.path.insert(0, root + "/benchmarks")
from tree_search_speed import network_evaluator
from engine.commands.cli import sample_positions
from engine.core.mcts import MCTS, Tree
from engine.play.players import play_search_config
from games import get_game
game = get_game(sys.argv[2]); cfg = play_search_config(game)
ev = network_evaluator(game, "ort-fp32"); real, answers = ev.infer, {}
def held(p):
    if len(p) not in answers: answers[len(p)] = real(p)
    return answers[len(p)]
ev.infer = held
positions = sample_positions(game, 4, seed=1)
t = []
for r in range(int(sys.argv[3])):
    v, s = 0, time.process_time()
    for st in positions:
        tree = Tree(st); MCTS(ev, cfg, seed=0).search([tree], 800); v += int(tree.root_n)
    t.append((time.process_time() - s) / v * 1e6)
t.sort(); print(f"{root} fastest {t[0]:.2f} median {t[len(t)//2]:.2f}")
