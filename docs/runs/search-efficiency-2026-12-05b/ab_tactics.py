"""In one process, taking turns: `with_tactics` with its arithmetic in one compiled call
(`_tree_c.tactics`, "new") against its Python loop ("old"), the network's answers held fixed;
the same trees either way. CPU microseconds of a search's own work a visit.

    python docs/runs/search-efficiency-2026-12-05b/ab_tactics.py [game] [rounds]
"""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held import held_setup  # noqa: E402

from engine.core import mcts as M  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402

game_id = sys.argv[1] if len(sys.argv) > 1 else "xiangqi"
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 24
cfg, ev, positions = held_setup(game_id)
compiled = M._tree_c.tactics
def refuse(*args):
    return None   # the Python loop serves every batch
arms = {"new": compiled, "old": refuse}
spent = {k: [] for k in arms}; counts = {}
for r in range(rounds):
    for k in (list(arms) if r % 2 == 0 else list(arms)[::-1]):
        M._tree_c.tactics = arms[k]
        v, s = 0, time.process_time(); kids = []
        for st in positions:
            tree = Tree(st); MCTS(ev, cfg, seed=0).search([tree], 800); v += int(tree.root_n)
            kids.append(tree.visit_counts()[1].tolist())
        spent[k].append((time.process_time() - s) / v * 1e6)
        counts.setdefault(k, kids)
M._tree_c.tactics = compiled
print("same visit counts:", counts["new"] == counts["old"])
for k, t in spent.items(): print(k, "fastest %.2f median %.2f us a visit" % (min(t), sorted(t)[len(t)//2]))
