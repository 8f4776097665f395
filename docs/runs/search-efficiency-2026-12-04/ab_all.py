"""The strong level's search with and without all the search changes of 2026-12-04, in one
process, taking turns four times: settle, the garbage collector paused, the softmax and the prior
floors in C, and xiangqi's leaf call and batch encoder (the old arm takes XiangqiState's methods
from commit 6a6a200, as git shows them); with --tree-only, xiangqi's leaf call and batch encoder
are in both arms. Run from the
repository root: python docs/runs/search-efficiency-2026-12-04/ab_all.py GAME VISITS [--tree-only].
Positions: 10 of the medium level's own play after 2-4 random plies (seed 5); visits per CPU
second over the 10 searches (no time cap, memory emptied before each); "same moves" checks
that both arms chose the same move everywhere."""
import sys, time, statistics, random, contextlib
sys.path.insert(0, '.')
from games import get_game
from engine.core import mcts as M, evaluators as E
from engine.core.mcts import Tree
from engine.play.players import make_player
import importlib.util, subprocess, games.base, games.xiangqi as XQ
_old_src = subprocess.run(['git', 'show', '6a6a200:games/xiangqi.py'], capture_output=True, text=True, check=True).stdout
_spec = importlib.util.spec_from_loader('games.xiangqi_6a6a200', loader=None)
OLD = importlib.util.module_from_spec(_spec); OLD.__package__ = 'games'; exec(compile(_old_src, 'xiangqi_6a6a200.py', 'exec'), OLD.__dict__)
LEAF = ('_outcome', '_judge', 'legal_actions', 'proven_value', 'winning_capture', '_material_balance')
NEW_LEAF = {name: XQ.XiangqiState.__dict__[name] for name in LEAF + ('encode_batch',)}
OLD_LEAF = {name: OLD.XiangqiState.__dict__[name] for name in LEAF}
OLD_LEAF['encode_batch'] = classmethod(games.base.State.encode_batch.__func__)
gid = sys.argv[1]; n = int(sys.argv[2])
# --tree-only: xiangqi's leaf call and batch encoder in both arms (ab_glue.txt's runs)
TREE_ONLY = '--tree-only' in sys.argv[3:]
g = get_game(gid)
p = make_player(g, 'medium', seed=1, threads=1)
rng = random.Random(5); positions = []
while len(positions) < 10:
    st = g.initial_state()
    for _ in range(rng.randint(2, 4)):
        st = st.apply(rng.choice(st.legal_actions()))
    for _ in range(rng.randint(4, 16)):
        if st.is_terminal(): break
        st = st.apply(p.choose(st).action)
    if not st.is_terminal(): positions.append(st)
sp = make_player(g, 'strong', seed=1, threads=1)
new_settle, new_gc, new_ct = Tree.settle_walks, M.collector_paused, E._compiled_tree
def old_settle(self, cfg, walks): return 0, self._select_leaf_compiled(cfg)
def variant(v):
    on = v == 'new'
    Tree.settle_walks = new_settle if on else old_settle
    M.collector_paused = new_gc if on else contextlib.nullcontext
    E._compiled_tree = new_ct if on else (lambda: None)
    M.MAX_FLOORS = 64 if on else -1
    for name, fn in (NEW_LEAF if on or TREE_ONLY else OLD_LEAF).items():
        setattr(XQ.XiangqiState, name, fn)
def go():
    c = 0.0; s = 0; acts = []
    for st in positions:
        sp.reset(); sp.sims = n; sp.seconds = None
        if hasattr(sp.mcts.evaluator, 'forget'): sp.mcts.evaluator.forget()
        t0 = time.process_time(); r = sp.choose(st); c += time.process_time() - t0; s += r.sims; acts.append(r.action)
    return s / c, acts
res = {'old': [], 'new': []}; seen = {}
for r in range(4):
    for v in (('old', 'new') if r % 2 == 0 else ('new', 'old')):
        variant(v); rate, acts = go(); res[v].append(rate); seen[v] = acts
print(gid, n, 'same moves:', seen['old'] == seen['new'])
for v, xs in res.items(): print(v, 'visits/cpu-s median %.0f  all %s' % (statistics.median(xs), [round(x) for x in xs]))
print('new/old %.3f' % (statistics.median(res['new']) / statistics.median(res['old'])))
