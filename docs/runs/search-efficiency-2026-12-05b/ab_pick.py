"""In one process, taking turns: the compiled walk with F16C's conversions (this build) against the
same walk with its software conversions (the tree source of the commit before, built as another
module), the network's answers held fixed; CPU microseconds of the search's own work a visit.

    python docs/runs/search-efficiency-2026-12-05b/ab_pick.py GAME ROUNDS OLD_MODULE.so

OLD_MODULE.so: engine/core/_tree_c.c and csrc/tree.c of commit ab97226 (before the F16C walk) built by hand with
-DPyInit__tree_c=PyInit__tree_old (the flags of setup.py's build), so both load in one process."""
import importlib.util
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from held import held_setup  # noqa: E402

from engine.core import mcts as M  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402

spec = importlib.util.spec_from_file_location("_tree_old", sys.argv[3])
old = importlib.util.module_from_spec(spec)
spec.loader.exec_module(old)
new = M._tree_c
rounds = int(sys.argv[2])
cfg, ev, positions = held_setup(sys.argv[1])
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
