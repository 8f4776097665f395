"""KataGo's forced playouts and policy target pruning in PUCT self-play
(`[selfplay] forced_playouts`, `Tree.forced_k`, `Tree.pruned_visits`)."""
from __future__ import annotations

import math

import numpy as np

from engine.core.config import SelfPlaySettings
from engine.core.mcts import MCTS, SearchConfig, Tree
from engine.core.selfplay import play_games
from engine.core.evaluators import UniformEvaluator
from games import get_game


class Skewed:
    """Prior 0.9 on connect4's middle column, the rest shared; every position after a first
    move in the middle is worth 0.3 to the first player, every other 0: PUCT alone gives the
    other first moves few visits."""

    first_move_values = {3: 0.3}

    def evaluate(self, states, legal):
        priors = []
        for acts in legal:
            p = np.array([0.9 if a == 3 else 0.1 / max(len(acts) - 1, 1) for a in acts])
            priors.append(p / p.sum())
        values = []
        for s in states:
            v = self.first_move_values.get(s.moves[0], 0.0) if s.moves else 0.0
            values.append(v if s.current_player == 0 else -v)
        return priors, np.array(values)


def searched(forced_k: float, sims: int = 800) -> Tree:
    tree = Tree(get_game("connect4").initial_state())
    tree.forced_k = forced_k
    MCTS(Skewed(), SearchConfig(leaf_batch=1), seed=0).search([tree], sims)
    return tree


def quota_shortfall(tree: Tree, k: float) -> float:
    """The most any root move falls below its forced quota sqrt(k * prior * visits)."""
    _, n, _, p, _ = tree.edges(0)
    return float(np.max(np.sqrt(k * p * n.sum()) - n))


def test_every_root_move_gets_its_forced_quota():
    assert quota_shortfall(searched(0.0), 2.0) > 2.5        # plain PUCT starves the low-prior moves
    assert quota_shortfall(searched(2.0), 2.0) <= 1.0        # forced: each is within a visit of its quota


def test_pruning_takes_back_the_forced_visits():
    plain, forced = searched(0.0), searched(2.0)
    _, raw = forced.visit_counts()
    actions, kept = forced.pruned_visits(cpuct=SearchConfig().cpuct)
    best = int(np.argmax(raw))
    assert actions[best] == 3 and kept[best] == raw[best]              # the best move keeps all its visits
    assert np.all(kept <= raw) and kept.sum() < raw.sum()
    quota = np.sqrt(2.0 * forced.edges(0)[3] * raw.sum())
    assert np.all((raw - kept <= quota + 1e-9) | (kept == 0))         # at most the quota, or a single visit left
    assert np.all((kept == 0) | (kept > 1))                            # a single visit counts none
    # the pruned target is nearer to what PUCT alone would have learnt than the forced visits are
    target = plain.visit_counts()[1] / plain.visit_counts()[1].sum()
    assert np.abs(kept / kept.sum() - target).sum() < np.abs(raw / raw.sum() - target).sum()


class GoodEdgeMove(Skewed):
    """As `Skewed`, but a first move in column 0 (a low prior) is as good as the middle: a move PUCT wants."""

    first_move_values = {3: 0.3, 0: 0.3}


def test_a_move_puct_wanted_keeps_its_visits():
    tree = Tree(get_game("connect4").initial_state())
    tree.forced_k = 2.0
    MCTS(GoodEdgeMove(), SearchConfig(leaf_batch=1), seed=0).search([tree], 800)
    actions, raw = tree.visit_counts()
    _, kept = tree.pruned_visits(SearchConfig().cpuct)
    good, dull = list(actions).index(0), list(actions).index(6)
    assert raw[good] > raw[dull]
    assert kept[good] == raw[good] and kept[dull] < raw[dull]


def test_without_forced_playouts_the_target_is_the_visit_counts():
    tree = searched(0.0)
    a, n = tree.visit_counts()
    pa, kept = tree.pruned_visits(SearchConfig().cpuct)
    assert np.array_equal(a, pa) and np.array_equal(kept, n)


def test_the_next_move_tree_starts_without_forcing():
    tree = searched(2.0)
    child = tree.child_tree(3)
    assert child is not None and child.forced_k == 0.0


def test_self_play_with_forced_playouts_records_pruned_targets():
    game = get_game("connect4")
    settings = dict(sims=60, fast_sims=0, games_per_generation=2, parallel_games=2, leaf_batch=1,
                    temperature_moves=4, dirichlet_alpha=0.3, resign_threshold=0, max_plies=12)
    records, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**settings, forced_playouts=2.0), 2, seed=5)
    plain, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**settings), 2, seed=5)
    assert stats.games == 2
    for rec in records + plain:
        for val in rec.policy_val:
            assert math.isclose(float(np.asarray(val, np.float64).sum()), 1.0, abs_tol=2e-2)
    zeros = lambda recs: sum(int((np.asarray(v) == 0).sum()) for r in recs for v in r.policy_val)
    assert zeros(records) > zeros(plain)   # pruning empties moves that only forcing visited


def test_a_negative_forced_playouts_setting_is_refused(tmp_path):
    import pytest
    from engine.core.config import load_config
    bad = tmp_path / "bad.toml"
    bad.write_text("[selfplay]\nforced_playouts = -1\n")
    with pytest.raises(ValueError, match="forced_playouts"):
        load_config(get_game("connect4"), bad)
    good = tmp_path / "good.toml"
    good.write_text("[selfplay]\nforced_playouts = 2\n")
    assert load_config(get_game("connect4"), good).selfplay.forced_playouts == 2.0
