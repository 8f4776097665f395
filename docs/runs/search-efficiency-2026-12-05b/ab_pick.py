"""In one process, taking turns: the compiled walk with F16C's conversions (this build) against the
same walk with its software conversions (the tree source of the commit before, built as another
module), the network's answers held fixed; CPU microseconds of the search's own work a visit."""
import sys, time, importlib.util
from pathlib import Path
ROOT = Path("/work/main"); sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / "benchmarks"))
spec = importlib.util.spec_from_file_location("_tree_old", sys.argv[3]); old = importlib.util.module_from_spec(spec); spec.loader.exec_module(old)
from tree_search_speed import network_evaluator
from engine.commands.cli import sample_positions
from engine.core import mcts as M
from engine.core.mcts import MCTS, Tree
from engine.play.players import play_search_config
from games import get_game
new = M._tree_c
game = get_game(sys.argv[1]); rounds = int(sys.argv[2])
cfg = play_search_config(game)
ev = network_evaluator(game, "ort-fp32"); real, answers = ev.infer, {}
def held(p):
    if len(p) not in answers: answers[len(p)] = real(p)
    return answers[len(p)]
ev.infer = held
positions = sample_positions(game, 4, seed=1)
arms = {"new": new, "old": old}
spent = {k: [] for k in arms}; counts = {}
for r in range(rounds):
    for k in (list(arms) if r % 2 == 0 else list(arms)[::-1]):
        M._tree_c = arms[k]
        v, s = 0, time.process_time(); kids = []
        for st in positions:
            tree = Tree(st); MCTS(ev, cfg, seed=0).search([tree], 800); v += int(tree.root_n)
            kids.append(tree.visit_counts()[1].tolist())
        spent[k].append((time.process_time() - s) / v * 1e6)
        counts.setdefault(k, kids)
M._tree_c = new
print("same visit counts:", counts["new"] == counts["old"])
for k, t in spent.items(): print(k, "fastest %.2f median %.2f us a visit" % (min(t), sorted(t)[len(t)//2]))
