"""The compiled search tree (engine/core/_tree_c.c) against the Python tree it mirrors.

Searches run on both paths from the same positions with the same seed and settings must build
the same trees, bit for bit: every node and edge array, the root's counts, the statistics and
the move chosen. A disagreement fails; there is no tolerance. Skipped, with the reason, where
the module is not built (the fallback tests at the end run either way).
"""
from __future__ import annotations

import os
import subprocess
import sys
import zlib
from pathlib import Path

import numpy as np
import pytest

from engine.core import mcts as mcts_module
from engine.core import native_tree
from engine.core.gumbel import GumbelRule
from engine.core.mcts import MCTS, SMALL_NODE, SearchConfig, Tree
from games import get_game, native

ROOT = Path(__file__).resolve().parent.parent
compiled = native._import(native_tree.MODULE)[0]
needs_compiled = pytest.mark.skipif(compiled is None, reason=f"{native_tree.MODULE} is not built")

#: (game id, variant, visits a search, random plies before the root at most)
GAMES = [("tictactoe", {}, 120, 5), ("connect4", {}, 160, 20), ("gomoku", {"size": 9}, 80, 16),
         ("xiangqi", {}, 100, 40), ("othello", {}, 140, 30)]

#: search settings compared: (name, SearchConfig fields, noise, forced playouts k, Gumbel root, trees a search)
SETTINGS = [
    ("play", {}, False, 0.0, False, 1),
    ("wide", {"cpuct": 2.7, "fpu_reduction": 0.0, "virtual_loss": 0.5, "leaf_batch": 5, "draw_value": -0.2,
              "select_lcb": 0.6, "policy_temperature": 1.3, "material_scale": 6.0}, False, 0.0, False, 2),
    ("selfplay", {"cpuct": 1.1, "fpu_reduction": 0.6, "leaf_batch": 16, "dirichlet_alpha": 0.3}, True, 2.0, False, 3),
    ("gumbel", {"leaf_batch": 4, "virtual_loss": 2.0}, False, 0.0, True, 2),
    ("armageddon", {"draw_winner": 1, "leaf_batch": 1, "fpu_reduction": 1.5}, False, 0.0, False, 1),
]

NODE_ARRAYS = [name for name, _ in Tree._NODE_FILLS]
EDGE_ARRAYS = [name for name, _ in Tree._EDGE_FILLS]


class HashedEvaluator:
    """Priors and values drawn from a hash of the position: deterministic, cheap, different at
    every position, spiky (some priors are float16 subnormals, some round to zero)."""

    def evaluate(self, states, legal):
        priors, values = [], []
        for st, acts in zip(states, legal):
            rng = np.random.default_rng(zlib.crc32(repr(st.key()).encode()))
            p = rng.gamma(0.25, size=len(acts)) + 1e-9
            priors.append((p / p.sum()).astype(np.float32))
            values.append(float(rng.uniform(-0.97, 0.97)))
        return priors, np.array(values)


def random_positions(game, count: int, max_plies: int, seed: int) -> list:
    rng = np.random.default_rng(seed)
    out = []
    while len(out) < count:
        state = game.initial_state()
        for _ in range(int(rng.integers(0, max_plies + 1))):
            legal = state.legal_actions()
            nxt = state.apply(legal[int(rng.integers(len(legal)))])
            if nxt.is_terminal():
                break
            state = nxt
        out.append(state)
    return out


def run_searches(states, visits: int, setting, seed: int, tree_c) -> list[Tree]:
    """The trees of one search per group of states (then one more after a move, on reused
    trees), with the compiled tree ``tree_c`` or the Python one (None)."""
    name, fields, noise, forced_k, gumbel, per_search = setting
    saved = mcts_module._tree_c
    mcts_module._tree_c = tree_c
    try:
        search = MCTS(HashedEvaluator(), SearchConfig(**fields), seed=seed)
        if gumbel:
            search.root_rule = GumbelRule(considered=4)
        out = []
        for g in range(0, len(states), per_search):
            trees = [Tree(st) for st in states[g:g + per_search]]
            for t in trees:
                t.forced_k = forced_k
            search.search(trees, visits, noise=noise)
            out += trees
            # tree reuse: the chosen move's subtree searched on
            reused = [t.child_tree(t.stats(limit=1)[0].action) for t in trees if not t.is_root_terminal()]
            reused = [t for t in reused if t is not None and not t.is_root_terminal()]
            if reused:
                search.search(reused, visits + 40, noise=noise)
                out += reused
        return out
    finally:
        mcts_module._tree_c = saved


def assert_same_trees(python_trees: list[Tree], compiled_trees: list[Tree], where: str) -> None:
    assert len(python_trees) == len(compiled_trees), where
    for i, (p, c) in enumerate(zip(python_trees, compiled_trees)):
        at = f"{where}, tree {i} ({p.root_state.key()!r})"
        assert (p.num_nodes, p.num_edges) == (c.num_nodes, c.num_edges), at
        for name in NODE_ARRAYS + EDGE_ARRAYS:   # bit for bit, nan included
            assert getattr(p, name).tobytes() == getattr(c, name).tobytes(), f"{at}: {name} differs"
        assert (p.root_n, p.root_w, p.root_win) == (c.root_n, c.root_w, c.root_win), at
        ps, cs = p.stats(), c.stats()
        assert [(m.action, m.visits, m.q) for m in ps] == [(m.action, m.visits, m.q) for m in cs], at
        assert p.root_value() == c.root_value(), at


@needs_compiled
@pytest.mark.parametrize("game_id,variant,visits,plies", GAMES, ids=[g[0] for g in GAMES])
def test_searches_build_the_same_trees_on_both_paths(game_id, variant, visits, plies):
    game = get_game(game_id, **variant)
    states = random_positions(game, 6, plies, seed=zlib.crc32(game_id.encode()))
    searched = 0
    for k, setting in enumerate(SETTINGS):
        py = run_searches(states, visits, setting, seed=k, tree_c=None)
        cc = run_searches(states, visits, setting, seed=k, tree_c=compiled)
        assert_same_trees(py, cc, f"{game_id}, {setting[0]}")
        searched += len(py)
    assert searched >= 6 * len(SETTINGS)


@needs_compiled
def test_proofs_and_floors_are_walked_alike():
    """Connect Four's endgames and tic-tac-toe's small tree: many children known (won, lost,
    drawn), floors set, root wins found; the same trees on both paths."""
    for game_id, plies, visits in (("connect4", 30, 400), ("tictactoe", 4, 600)):
        game = get_game(game_id)
        states = random_positions(game, 5, plies, seed=11)
        for setting in (SETTINGS[0], SETTINGS[4]):
            py = run_searches(states, visits, setting, seed=5, tree_c=None)
            cc = run_searches(states, visits, setting, seed=5, tree_c=compiled)
            assert_same_trees(py, cc, f"{game_id}, {setting[0]}")
            assert sum(int(t.n_done[:t.num_nodes].sum()) for t in py) > 0
            assert any(t.n_floored[:t.num_nodes].any() for t in py)


FUZZED = ("n_floored", "n_best", "n_term", "n_done", "n_owner")


def fuzz_children(tree: Tree, node: int, kids: np.ndarray, rng: np.random.Generator) -> None:
    """Floors, known results, a count of known children and passes (a child's mover choosing
    again) set at random on ``node``'s children, as the search sets them, only more often."""
    real = kids[kids >= 0]
    if rng.random() < 0.6:
        tree.n_floored[node] = 1
        tree.n_best[real] = rng.choice([-2.0, -1.0, 0.0, 1.0, -0.3, 0.45], size=len(real))
    if rng.random() < 0.5 and len(real):
        known = real[rng.random(len(real)) < 0.4]
        tree.n_term[known] = rng.choice([-1.0, 0.0, 1.0], size=len(known))
        tree.n_done[node] = int(rng.integers(0, len(kids) + 1))
    if rng.random() < 0.3:
        tree.n_owner[real] = rng.integers(0, 2, size=len(real))


@needs_compiled
@pytest.mark.parametrize("game_id", ["connect4", "gomoku", "othello", "xiangqi"])
def test_one_step_down_is_the_python_choice_at_every_node(game_id):
    """At every expanded node of searched trees, for varied visit counts, parent values (first
    play urgency below and above the children's values), settings, floors, known children and
    passes, the compiled walk's first step is the child `_pick_small` or `_pick_wide` chooses."""
    game = get_game(game_id)
    rng = np.random.default_rng(7)
    trees = run_searches(random_positions(game, 3, 20, seed=3), 200, SETTINGS[0], seed=0, tree_c=None)
    compared = 0
    for tree in trees:
        for node in range(tree.num_nodes):
            k = int(tree.n_count[node])
            if not k or not np.isnan(tree.n_term[node]):
                continue
            s = int(tree.n_start[node])
            kids = tree.e_child[s:s + k]
            for trial in range(4):
                saved = {name: getattr(tree, name).copy() for name in FUZZED}
                if trial:
                    fuzz_children(tree, node, kids, rng)
                parent_n = float(rng.choice([0.0, 1.0, rng.uniform(0, 5000)]))
                q_node = float(rng.uniform(-1.2, 1.2))
                fpu_reduction = float(rng.choice([0.0, 0.25, 1.0]))
                cpuct = float(rng.uniform(0.3, 4.0))
                cfg = SearchConfig(cpuct=cpuct, fpu_reduction=fpu_reduction)
                pick = tree._pick_small if k <= SMALL_NODE else tree._pick_wide
                j, child, _, q = pick(node, s, k, kids, q_node - fpu_reduction, parent_n, cfg)
                path: list[int] = []
                code, stop, edge, _, q_c = compiled.descend(tree, node, parent_n, q_node, cpuct, fpu_reduction,
                                                            SMALL_NODE, -1, False, path)
                for name, arr in saved.items():
                    setattr(tree, name, arr)
                if child < 0:
                    assert (code, stop, edge, path, q_c) == (compiled.NEW, node, j, [], q), (node, j)
                else:
                    assert path[:1] == [child], (node, j)
                compared += 1
    assert compared > 300


@needs_compiled
def test_float16_rounding_is_numpys():
    """The prior term is a float16 product in numpy (``c * e_prior``): the C rounds to float16 as
    numpy does, ties, subnormals, overflow and zero included."""
    rng = np.random.default_rng(1)
    values = list(rng.uniform(-70000, 70000, 4000)) + list(np.exp(rng.uniform(-20, 11, 8000)))
    halves = np.arange(0, 0x7c00, dtype=np.uint16).view(np.float16).astype(np.float64)
    values += list((halves[:-1] + halves[1:]) / 2)          # exact ties
    values += list(np.nextafter((halves[:-1] + halves[1:]) / 2, np.inf))
    values += [0.0, -0.0, 65504.0, 65519.99, 65520.0, 1e300, 2.0 ** -25, 2.0 ** -24, 3 * 2.0 ** -26, 1e-320]
    with np.errstate(over="ignore"):   # numpy warns as it rounds the largest values to infinity
        expected = [int(np.float16(x).view(np.uint16)) for x in values]
    for x, bits in zip(values, expected):
        assert compiled.half_bits(float(x)) == bits, x
    # the walk's own rounding of float32 products (a fast path for float16's normal range)
    with np.errstate(over="ignore", invalid="ignore"):
        singles = np.array(values, np.float64).astype(np.float32)
        singles = np.concatenate([singles, -singles, rng.integers(0, 2 ** 31, 20000, dtype=np.uint32).view(np.float32)])
        want = singles.astype(np.float16).astype(np.float64)
    for x, w in zip(singles, want):
        got = compiled.round_half(float(x))
        assert got == w or (np.isnan(got) and np.isnan(w)), (float(x), got, w)
    # where the processor has F16C, the walk rounds with it: the same values
    if compiled.pick_kernels() == "f16c":
        for x, w in zip(singles, want):
            got = compiled.round_half_f16c(float(x))
            assert got == w or (np.isnan(got) and np.isnan(w)), (float(x), got, w)
    else:
        assert compiled.round_half_f16c(1.0) is None


@needs_compiled
def test_bad_trees_and_paths_are_errors_not_crashes():
    tree = Tree(get_game("tictactoe").initial_state())
    with pytest.raises(ValueError):
        compiled.backup(tree, [10_000], 1.0, 0, 0.0)
    with pytest.raises(ValueError):
        compiled.virtual_loss(tree, [-1], 1.0)
    with pytest.raises(TypeError):
        compiled.backup(tree, (1,), 1.0, 0, 0.0)
    with pytest.raises(TypeError):
        compiled.backup(tree, ["a"], 1.0, 0, 0.0)
    with pytest.raises(AttributeError):
        compiled.descend(object(), 0, 0.0, 0.0, 1.5, 0.25, SMALL_NODE, -1, False, [])
    bad = Tree(get_game("tictactoe").initial_state())
    bad.n_visits = bad.n_visits.astype(np.float64)
    with pytest.raises(TypeError):
        compiled.backup(bad, [0], 1.0, 0, 0.0)
    bad = Tree(get_game("tictactoe").initial_state())
    bad.n_wsum = bad.n_wsum[:10]
    with pytest.raises(ValueError):
        compiled.backup(bad, [0], 1.0, 0, 0.0)
    cyclic = Tree(get_game("tictactoe").initial_state())
    cyclic.n_count[0], cyclic.n_count[1] = 1, 1
    cyclic.n_start[1] = 1
    cyclic.e_child[0], cyclic.e_child[1] = 1, 0   # the root's child leads back to the root
    cyclic.num_nodes = 2
    with pytest.raises(ValueError):
        compiled.descend(cyclic, 0, 0.0, 0.0, 1.5, 0.25, SMALL_NODE, -1, False, [])
    readonly = Tree(get_game("tictactoe").initial_state())
    readonly.n_visits.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        compiled.backup(readonly, [0], 1.0, 0, 0.0)
    with pytest.raises(ValueError):
        compiled.subtree(cyclic, 0)   # a node met twice
    with pytest.raises(ValueError):
        compiled.subtree(tree, 10_000)
    with pytest.raises(ValueError):
        compiled.subtree(tree, len(tree.n_start) - 1)   # the spare slot is no node
    beyond = Tree(get_game("tictactoe").initial_state())
    beyond.n_count[0], beyond.n_start[0] = 3, len(beyond.e_child) - 1   # edges past the array's end
    with pytest.raises(ValueError):
        compiled.subtree(beyond, 0)
    src, nodes, edges = Tree(get_game("tictactoe").initial_state()), np.array([0]), np.zeros(0, np.int64)
    dst = Tree(get_game("tictactoe").initial_state())
    compiled.copy_subtree(src, dst, nodes.astype(np.int64), edges)   # a lone root copies
    with pytest.raises(TypeError):
        compiled.copy_subtree(src, dst, nodes.astype(np.int32), edges)
    with pytest.raises(ValueError):
        compiled.copy_subtree(src, dst, np.array([10_000], np.int64), edges)
    with pytest.raises(ValueError):
        compiled.copy_subtree(src, dst, nodes.astype(np.int64), np.array([-1], np.int64))
    short = Tree(get_game("tictactoe").initial_state())
    short.n_wsum = short.n_wsum[:0]
    with pytest.raises(ValueError):
        compiled.copy_subtree(src, short, nodes.astype(np.int64), edges)
    other = Tree(get_game("tictactoe").initial_state())
    other.n_term = other.n_term.astype(np.float64)
    with pytest.raises(ValueError):
        compiled.copy_subtree(src, other, nodes.astype(np.int64), edges)
    frozen = Tree(get_game("tictactoe").initial_state())
    frozen.n_visits.flags.writeable = False
    with pytest.raises((TypeError, ValueError, BufferError)):
        compiled.copy_subtree(src, frozen, nodes.astype(np.int64), edges)


def _chain(length: int, end: float) -> Tree:
    """A tree that is one line of ``length`` nodes below the root, its last node known (``end``
    for its mover): every walk goes to the end of the line."""
    tree = Tree(get_game("tictactoe").initial_state(), node_capacity=length + 2, edge_capacity=length + 1)
    for n in range(length):
        tree.n_count[n], tree.n_start[n], tree.e_child[n] = 1, n, n + 1
        tree.n_player[n + 1] = (n + 1) % 2
        tree.n_owner[n + 1] = n % 2
        tree.states.append(None)   # never asked: no walk creates a node
    tree.n_term[length] = end
    tree.num_nodes, tree.num_edges = length + 1, length
    return tree


@needs_compiled
@pytest.mark.parametrize("length", [3, 255, 256, 300])
@pytest.mark.parametrize("end", [1.0, 0.0, -1.0])
def test_walks_to_known_ends_are_backed_up_in_c_as_in_python(length, end):
    cfg = SearchConfig(draw_value=-0.25)
    trees = {}
    for name, module in (("python", None), ("compiled", compiled)):
        saved = mcts_module._tree_c
        mcts_module._tree_c = module
        try:
            tree = _chain(length, end)
            sims = MCTS(HashedEvaluator(), cfg).gather([tree], 0, 7, None, MCTS(HashedEvaluator()).new_leaves(None))
        finally:
            mcts_module._tree_c = saved
        assert sims == 7, name
        trees[name] = tree
    p, c = trees["python"], trees["compiled"]
    assert (p.root_n, p.root_w) == (c.root_n, c.root_w) and p.root_n == 7.0
    for name in NODE_ARRAYS + EDGE_ARRAYS:
        assert getattr(p, name).tobytes() == getattr(c, name).tobytes(), name


@needs_compiled
def test_settle_stops_at_the_first_walk_that_needs_python():
    tree = _chain(4, 1.0)
    path = []
    settled, code, node, edge, parent_n, q_node = compiled.settle(tree, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, path)
    assert (settled, code, path, tree.root_n) == (5, compiled.DONE, [], 5.0)
    tree.n_term[4] = np.nan   # the end of the line is now a leaf to evaluate
    settled, code, node, edge, parent_n, q_node = compiled.settle(tree, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, path)
    assert (settled, code, node, path) == (0, compiled.LEAF, 4, [1, 2, 3, 4])
    tree.e_child[3] = -1   # and now the edge to it has no node
    path = []
    settled, code, node, edge, _, _ = compiled.settle(tree, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, path)
    assert (settled, code, node, edge, path) == (0, compiled.NEW, 3, 0, [1, 2, 3])
    assert compiled.settle(_chain(300, 1.0), 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, [])[:2] == (0, compiled.DEEP)
    with pytest.raises(TypeError):
        compiled.settle(tree, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, (1,))
    with pytest.raises(ValueError):
        compiled.settle(tree, 1.5, 0.25, SMALL_NODE, 10_000, 0.0, 5, [])
    odd = _chain(4, 1.0)
    odd.root_n = "many"
    with pytest.raises(TypeError):
        compiled.settle(odd, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, [])
    cyclic = _chain(4, 1.0)
    cyclic.e_child[3] = 1   # the line leads back into itself
    cyclic.n_term[4] = np.nan
    with pytest.raises(ValueError):
        compiled.settle(cyclic, 1.5, 0.25, SMALL_NODE, -1, 0.0, 5, [])


@needs_compiled
@pytest.mark.parametrize("length", [4, 300])
def test_settle_first_puts_the_last_leafs_virtual_loss_on(length):
    """settle(..., vl_path, vl) is apply_virtual_loss(vl_path, vl) and then settle, bit for bit."""
    trees = [_chain(length, 1.0) for _ in range(2)]
    lossed = list(range(1, length // 2))
    tree = trees[0]
    tree.apply_virtual_loss(lossed, 1.0)
    want = compiled.settle(tree, 1.5, 0.25, SMALL_NODE, -1, 0.0, 3, [])
    got = compiled.settle(trees[1], 1.5, 0.25, SMALL_NODE, -1, 0.0, 3, [], lossed, 1.0)
    assert got == want
    assert (trees[0].root_n, trees[0].root_w) == (trees[1].root_n, trees[1].root_w)
    for name in NODE_ARRAYS + EDGE_ARRAYS:
        assert getattr(trees[0], name).tobytes() == getattr(trees[1], name).tobytes(), name
    with pytest.raises(ValueError):
        compiled.settle(_chain(4, 1.0), 1.5, 0.25, SMALL_NODE, -1, 0.0, 3, [], [10_000], 1.0)
    with pytest.raises(TypeError):
        compiled.settle(_chain(4, 1.0), 1.5, 0.25, SMALL_NODE, -1, 0.0, 3, [], (1,), 1.0)


@needs_compiled
@pytest.mark.parametrize("game_id,variant,visits,plies", GAMES, ids=[g[0] for g in GAMES])
def test_a_subtree_is_walked_in_the_python_order(game_id, variant, visits, plies):
    """Tree reuse's copy of a subtree (`Tree._subtree`, `Tree._copy_arrays`, `Tree.child_tree`):
    the same node and edge order, and the same copied tree, from the compiled walk and copy as
    from the Python ones, for every child of the root (with subtrees of their own and without)."""
    game = get_game(game_id, **variant)
    trees = run_searches(random_positions(game, 4, plies, seed=7), visits, SETTINGS[2], seed=3, tree_c=compiled)
    compared = 0
    for t in trees:
        if not t.root_expanded:
            continue
        kids = t.e_child[int(t.n_start[0]):int(t.n_start[0]) + int(t.n_count[0])]
        for child in (int(c) for c in kids if c >= 0):
            got = t._subtree(child)
            saved = mcts_module._tree_c
            mcts_module._tree_c = None
            try:
                want = t._subtree(child)
            finally:
                mcts_module._tree_c = saved
            assert got[0].tolist() == want[0].tolist() and got[1].tolist() == want[1].tolist()
            compared += len(want[0]) > 1
    assert compared >= 4   # subtrees deeper than one node were compared
    for t in trees:
        for m in t.stats(limit=3):
            copied = t.child_tree(m.action)
            saved = mcts_module._tree_c
            mcts_module._tree_c = None
            try:
                reference = t.child_tree(m.action)
            finally:
                mcts_module._tree_c = saved
            assert (copied is None) == (reference is None)
            if copied is not None:
                assert_same_trees([reference], [copied], f"{game_id}, child_tree({m.action})")


def _tree_module_in_subprocess(env_extra: dict, code: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(ROOT), **env_extra)
    env.pop(native.PURE_ENV, None) if native.PURE_ENV not in env_extra else None
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


SEARCH_AND_SAY = ("from engine.core import mcts; from engine.core.evaluators import UniformEvaluator; "
                  "from games import get_game; t = mcts.Tree(get_game('connect4').initial_state()); "
                  "mcts.MCTS(UniformEvaluator()).search([t], 64); print(t.root_n, mcts._tree_c is not None)")


def test_pure_python_is_forced_by_the_switch_and_said_in_one_line():
    out = _tree_module_in_subprocess({native.PURE_ENV: "1"}, SEARCH_AND_SAY)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["64.0", "False"]
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("zeroboard:")]
    assert len(lines) == 1 and "pure-Python" in lines[0] and native.PURE_ENV in lines[0], out.stderr


def test_without_the_built_module_the_python_tree_runs_and_says_so():
    """As on a machine without a C compiler: the module cannot be imported."""
    code = ("import sys; sys.modules['engine.core._tree_c'] = None; " + SEARCH_AND_SAY
            + "; from games import native; print('not built' in native.status()['engine.core._tree_c'])")
    out = _tree_module_in_subprocess({}, code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["64.0", "False", "True"]
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("zeroboard:")]
    assert len(lines) == 1 and "pure-Python" in lines[0], out.stderr


def test_without_the_winograd_module_the_line_says_what_runs_instead():
    """The Winograd convolutions have no pure-Python version: where they are not built, the other
    network runtimes serve, and the one line says so rather than speak of a pure-Python path."""
    code = ("import sys; sys.modules['engine.core._winograd_c'] = None; from engine.core import winograd; "
            "print(winograd.available())")
    out = _tree_module_in_subprocess({}, code)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["False"]
    lines = [ln for ln in out.stderr.splitlines() if ln.startswith("zeroboard:")]
    assert len(lines) == 1 and "without Winograd's convolutions" in lines[0] and "not built" in lines[0], out.stderr
    assert "pure-Python" not in lines[0]


@needs_compiled
def test_the_built_module_runs_silently():
    out = _tree_module_in_subprocess({}, SEARCH_AND_SAY)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["64.0", "True"]
    assert "zeroboard:" not in out.stderr


def test_a_module_of_another_api_version_is_refused(monkeypatch):
    monkeypatch.setitem(native.COMPILED, native_tree.MODULE, ("search tree", native_tree.API_VERSION + 1))
    module, reason = native._import(native_tree.MODULE)
    if compiled is None:
        assert module is None
    else:
        assert module is None and "API_VERSION" in reason


@needs_compiled
def test_a_batch_expanded_in_c_leaves_python_what_it_cannot_store():
    """`expand_many` stores a batch as `Tree.expand` and `Tree.backup` do, or changes nothing and
    says None where the Python path must: no room in the edge arrays, priors that are not a
    float32 array as long as the legal actions, a NaN prior. Bad input is an error."""
    game = get_game("tictactoe")

    def fresh():
        tree = Tree(game.initial_state())
        root = tree.root_state
        tree.expand(0, root.legal_actions(), np.full(9, 1 / 9, np.float32))
        for j in range(2):
            tree._create_child(0, j, [])
        return tree

    kids = [fresh() for _ in range(2)]
    legal = [kids[0].states[n].legal_actions() for n in (1, 2)]
    pri = [np.linspace(0.01, 0.2, 8).astype(np.float32), np.full(8, 0.125, np.float32)]
    done = compiled.expand_many(kids[0], [1, 2], [[1], [2]], legal, pri, [0.25, -0.5], 1.0)
    kids[0].num_edges = done
    for n, acts, p, v in zip((1, 2), legal, pri, (0.25, -0.5)):
        kids[1].expand(n, acts, p)
        kids[1].backup([n], v, int(kids[1].n_player[n]), 1.0)
    assert_same_trees([kids[1]], [kids[0]], "expand_many")
    for bad_priors in ([pri[0].astype(np.float64), pri[1]], [pri[0][:7], pri[1]], [list(pri[0]), pri[1]],
                       [np.where(pri[0] > 0.1, np.nan, pri[0]).astype(np.float32), pri[1]], [pri[0][::-1][::2], pri[1]]):
        tree = fresh()
        before = {name: getattr(tree, name).tobytes() for name in NODE_ARRAYS + EDGE_ARRAYS}
        assert compiled.expand_many(tree, [1, 2], [[1], [2]], legal, bad_priors, [0.25, -0.5], 1.0) is None
        assert before == {name: getattr(tree, name).tobytes() for name in NODE_ARRAYS + EDGE_ARRAYS}
        assert (tree.root_n, tree.root_w) == (0.0, 0.0)
    tree = fresh()
    tree.num_edges = len(tree.e_prior) - 10   # room for one node's 8 edges, not for two
    assert compiled.expand_many(tree, [1, 2], [[1], [2]], legal, pri, [0.25, -0.5], 1.0) is None
    for args in (([0], [[]], legal[:1], pri[:1], [0.0], 1.0),           # the root is Python's
                 ([99], [[99]], legal[:1], pri[:1], [0.0], 1.0),         # not a node
                 ([1], [[1, 99]], legal[:1], pri[:1], [0.0], 1.0),       # a path outside the tree
                 ([1, 2], [[1]], legal, pri, [0.0, 0.0], 1.0),           # lengths that differ
                 ([1], [[1]], legal[:1], pri[:1], [], 1.0),
                 ([1], [[1]], legal[:1], pri[:1], ["a"], 1.0)):
        with pytest.raises((ValueError, TypeError)):
            compiled.expand_many(fresh(), *args)


@needs_compiled
@pytest.mark.parametrize("k", [SMALL_NODE, SMALL_NODE + 1])
def test_the_small_and_wide_rules_keep_their_own_rounding(k):
    """A visited child worth 1/3 and unvisited ones at a first play urgency of float32(1/3): in
    double precision (`_pick_small`, at most SMALL_NODE children) an unvisited child scores
    higher; in numpy's float32 (`_pick_wide`) all tie and the first, visited one is chosen.
    The compiled walk makes each rule's choice at each width."""
    game = get_game("gomoku")
    state = game.initial_state()
    tree = Tree(state)
    tree.expand(0, state.legal_actions()[:k], np.zeros(k, np.float32))
    first = tree._new_node(state.apply(state.legal_actions()[0]), 0)
    tree.e_child[0] = first
    tree.n_visits[first], tree.n_wsum[first] = 3.0, 1.0
    tree.root_n = 4.0
    fpu = float(np.float32(1 / 3))
    path: list[int] = []
    code, _, edge, _, _ = compiled.descend(tree, 0, 4.0, fpu, 1.5, 0.0, SMALL_NODE, -1, False, path)
    pick = tree._pick_small if k <= SMALL_NODE else tree._pick_wide
    j, child, _, _ = pick(0, 0, k, tree.e_child[:k], fpu, 4.0, SearchConfig())
    if k <= SMALL_NODE:
        assert (j, child) == (1, -1) and (code, edge, path) == (compiled.NEW, 1, [])
    else:
        assert (j, child) == (0, first) and path == [first]


@needs_compiled
def test_tactics_in_c_is_the_python_loop_or_declines():
    """`_tree_c.tactics` gives what `with_tactics`'s loop gives, bit for bit, on leaves of xiangqi
    (capture gains, material leads, prior floors) and gomoku (floors); it declines (None) what the
    loop must serve, and bad arguments are errors, never a crash."""
    rng = np.random.default_rng(11)
    for game_id, scales in (("xiangqi", (8.0, 6.0)), ("gomoku", (8.0, 0.0))):
        game = get_game(game_id)
        states = [s for s in random_positions(game, 40, 60, seed=5) if not s.is_terminal()]
        legal = [s.legal_actions() for s in states]
        priors = [(lambda p: (p / p.sum()).astype(np.float32))(rng.gamma(0.3, size=len(a)) + 1e-9) for a in legal]
        values = rng.uniform(-1, 1, len(states))
        values[0] = 0.9995   # beyond the clip
        leads = list(rng.uniform(-5, 5, len(states)))
        saved = mcts_module._tree_c
        try:
            mcts_module._tree_c = None
            want = mcts_module.with_tactics(states, legal, priors, values, *scales, leads)
            mcts_module._tree_c = compiled
            got = mcts_module.with_tactics(states, legal, priors, values, *scales, leads)
        finally:
            mcts_module._tree_c = saved
        assert [float(v) for v in want[1]] == list(got[1])
        assert all(a.tobytes() == b.tobytes() for a, b in zip(want[0], got[0]))
        assert sum(a is not b for a, b in zip(priors, got[0])) > 0   # some rows were floored
    tools = mcts_module._NUMPY_FLOOR_TOOLS
    p, acts = [np.full(3, 1 / 3, np.float32)], [[0, 1, 2]]
    assert compiled.tactics(p, acts, np.zeros(1), None, None, None, None, [[(1, 0.6)]], 8.0, 0.0, tools)[0][0][1] \
        == np.float32(0.6)
    # declined: floors not in a list, a float64 prior row, values of another type
    assert compiled.tactics(p, acts, np.zeros(1), None, None, None, None, [((1, 0.6),)], 8.0, 0.0, tools) is None
    assert compiled.tactics([p[0].astype(np.float64)], acts, np.zeros(1), None, None, None, None, [[(1, 0.6)]], 8.0,
                            0.0, tools) is None
    assert compiled.tactics(p, acts, np.zeros(1, np.float32), None, None, None, None, None, 8.0, 0.0, tools) is None
    assert compiled.tactics(p, [[0, 1]], [0.0], None, None, None, None, [[(1, 0.6)]], 8.0, 0.0, tools) is None
    for bad in ((p, acts, [0.0, 1.0], None, None, None, None, None, 8.0, 0.0, tools),      # two values, one row
                (p, acts, [0.0], [1.0, 2.0], None, None, None, None, 8.0, 0.0, tools),   # two gains
                (p, acts, [0.0], None, [1.0], None, None, None, 8.0, 0.0, tools),        # reds without leads
                (p, acts, [0.0], ["x"], None, None, None, None, 8.0, 0.0, tools),
                (p, acts, [0.0], None, None, None, None, [[(1, "x")]], 8.0, 0.0, tools)):
        with pytest.raises((TypeError, ValueError)):
            compiled.tactics(*bad)
