"""In one process, taking turns: `MCTS.expand` and `Tree.settle_walks` with `_tree_c.expand_many`
and the virtual loss folded into `settle` ("new") against `MCTS._expand_each` (`Tree.expand` and
`Tree.backup` leaf by leaf) with a separate virtual-loss call ("old"), the same trees either way.
The network answers each batch size with the answer it gave first, so that its own cost (and its noise) is
left out and what is timed is the search's own work, in CPU microseconds a visit.

    python docs/runs/search-efficiency-2026-12-05/ab_expand.py [game] [rounds]
"""
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tree_search_speed import network_evaluator  # noqa: E402

from engine.commands.cli import sample_positions  # noqa: E402
from engine.core.mcts import MCTS, Tree  # noqa: E402
from engine.play.players import play_search_config  # noqa: E402
from games import get_game  # noqa: E402

game = get_game(sys.argv[1] if len(sys.argv) > 1 else "xiangqi")
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 24
cfg = play_search_config(game)
evaluator = network_evaluator(game, "ort-fp32")
real, answers = evaluator.infer, {}


def held(planes):
    """The network's first answer for a batch of this size."""
    if len(planes) not in answers:
        answers[len(planes)] = real(planes)
    return answers[len(planes)]


evaluator.infer = held
positions = sample_positions(game, 4, seed=1)
new_expand, new_settle = MCTS.expand, Tree.settle_walks


def old_settle(self, cfg, walks, lossed=None):
    if lossed is not None:
        self.apply_virtual_loss(lossed, cfg.virtual_loss)
    return new_settle(self, cfg, walks)


arms = {"new": (new_expand, new_settle), "old": (MCTS._expand_each, old_settle)}
spent = {name: [] for name in arms}
for r in range(rounds):
    for name, (expand, settle) in (list(arms.items()) if r % 2 == 0 else list(arms.items())[::-1]):
        MCTS.expand, Tree.settle_walks = expand, settle
        visits, start = 0, time.process_time()
        for state in positions:
            tree = Tree(state)
            MCTS(evaluator, cfg, seed=0).search([tree], 800)
            visits += int(tree.root_n)
        spent[name].append((time.process_time() - start) / visits * 1e6)
for name, times in spent.items():
    print(f"{name}: fastest {min(times):.2f} median {sorted(times)[len(times) // 2]:.2f} us a visit")
