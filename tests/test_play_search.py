"""The search's exploration constant, first-play urgency, policy temperature and move choice at
play: the game's `[play]` settings reach every play search, and a model spec can set them for
one player."""
from __future__ import annotations

import pytest

from engine.commands.specs import SpecError, player_from_spec
import numpy as np

from engine.core.config import load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.mcts import MCTS, SearchConfig, Tree, tempered
from engine.play.players import play_search_config
from games import get_game


def test_play_search_follows_the_games_play_settings(tmp_path):
    game = get_game("connect4")
    play = load_config(game).play
    cfg = play_search_config(game)
    assert (cfg.cpuct, cfg.fpu_reduction, cfg.leaf_batch) == (play.cpuct, play.fpu_reduction, max(1, play.leaf_batch))
    assert cfg.policy_temperature == play.policy_temperature
    assert play_search_config(game, cpuct=3.0).cpuct == 3.0


def test_a_config_with_an_unusable_exploration_constant_is_refused(tmp_path):
    game = get_game("connect4")
    for text in ("[play]\ncpuct = 0\n", "[play]\ncpuct = nan\n", "[play]\nfpu_reduction = -1\n",
                 "[play]\ncpuct = 'big'\n", "[play]\npolicy_temperature = 0\n", "[play]\npolicy_temperature = 9\n"):
        path = tmp_path / "c.toml"
        path.write_text(text)
        with pytest.raises(ValueError):
            load_config(game, path)
    path.write_text("[play]\ncpuct = 2\nfpu_reduction = 0.5\n")
    play = load_config(game, path).play
    assert (play.cpuct, play.fpu_reduction) == (2.0, 0.5)


def test_a_model_spec_sets_the_search_of_its_player():
    game = get_game("connect4")
    p = player_from_spec(game, "model:models/connect4.pt@50?cpuct=2.5&fpu=0.1&sym=2", seed=1)
    assert (p.mcts.cfg.cpuct, p.mcts.cfg.fpu_reduction) == (2.5, 0.1)
    assert p.name.endswith("sym2 cpuct2.5 fpu0.1")
    plain = player_from_spec(game, "model:models/connect4.pt@50", seed=1)
    default = play_search_config(game)
    assert (plain.mcts.cfg.cpuct, plain.mcts.cfg.fpu_reduction) == (default.cpuct, default.fpu_reduction)
    # the two settings change the search: from the same position, different visit counts
    state = game.initial_state()
    for a in (3, 3, 2):
        state = state.apply(a)
    wide = player_from_spec(game, "model:models/connect4.pt@200?cpuct=8", seed=1).choose(state)
    narrow = player_from_spec(game, "model:models/connect4.pt@200?cpuct=0.2", seed=1).choose(state)
    assert [(m.action, m.visits) for m in wide.top] != [(m.action, m.visits) for m in narrow.top]


def test_tempered_priors_flatten_and_keep_their_order():
    p = np.array([0.7, 0.2, 0.1, 0.0], np.float32)
    flat = tempered(p, 2.0)
    assert abs(float(flat.sum()) - 1.0) < 1e-6
    assert list(np.argsort(-flat[:3])) == [0, 1, 2] and flat[3] == 0.0
    assert flat[0] < p[0] and flat[2] > p[2]
    np.testing.assert_allclose(tempered(p, 1.0), p, atol=1e-7)
    assert tempered(np.zeros(3, np.float32), 1.5).sum() == 0.0


def test_the_policy_temperature_spreads_the_searchs_visits():
    game = get_game("connect4")
    p = player_from_spec(game, "model:models/connect4.pt@200?ptemp=3", seed=1)
    assert p.mcts.cfg.policy_temperature == 3.0 and p.name.endswith("ptemp3")
    state = game.initial_state()
    for a in (3, 3, 2):
        state = state.apply(a)
    plain = player_from_spec(game, "model:models/connect4.pt@200", seed=1).choose(state)
    flat = p.choose(state)
    tried = lambda r: sum(1 for m in r.top if m.visits > 0)  # noqa: E731
    # with flatter priors the search spreads its visits: its favourite gets fewer of them
    assert max(m.visits for m in flat.top) < max(m.visits for m in plain.top)
    assert tried(flat) >= tried(plain)


@pytest.mark.parametrize("bad", ["cpuct=0", "cpuct=21", "cpuct=nan", "cpuct=x", "fpu=-0.1", "fpu=3", "fpu=",
                                 "cpuct=1&cpuct=2", "depth=3", "cpuct", "ptemp=0", "ptemp=6", "ptemp=x",
                                 "lcb=-1", "lcb=6", "lcb=nan", "mat=-1", "mat=1001", "mat=x",
                                 "effort=0", "effort=4", "effort=1.5", "effort=x"])
def test_bad_model_options_get_a_clear_error(bad):
    with pytest.raises(SpecError):
        player_from_spec(get_game("connect4"), f"model:models/connect4.pt@50?{bad}", seed=1)


def test_the_proof_effort_option_reaches_the_search():
    game = get_game("gomoku")
    p = player_from_spec(game, "model:models/gomoku.pt@50?effort=3", seed=1)
    assert p.mcts.cfg.proof_effort == 3 and p.name.endswith("effort3")
    assert player_from_spec(game, "model:models/gomoku.pt@50", seed=1).mcts.cfg.proof_effort == 1


def _rated(tree, visits_q: dict) -> None:
    """Give the root's children the (visits, q) of ``visits_q`` (by action; the rest 1 visit at -1)."""
    actions, _, _, _, kids = tree.edges(0)
    for a, kid in zip(actions, kids):
        n, q = visits_q.get(int(a), (1, -1.0))
        tree.n_visits[kid] = n
        tree.n_wsum[kid] = n * q


def test_the_lower_confidence_bound_passes_over_visits_that_a_prior_piled_up():
    game = get_game("tictactoe")
    tree = Tree(game.initial_state())
    MCTS(UniformEvaluator(), SearchConfig(), seed=0).search([tree], 60)
    # a favourite with many visits and a worse rating, a rival nearly as visited and better
    # rated, a better-rated move with too few visits to count (under a tenth of the top's)
    _rated(tree, {4: (357, -0.43), 0: (311, -0.33), 8: (30, 0.5)})
    assert tree.stats(limit=1)[0].action == 4                # select_lcb 0: the most visited
    tree.select_lcb = 1.0
    assert [m.action for m in tree.stats(limit=2)] == [0, 4]
    assert tree.stats(limit=1)[0].q == pytest.approx(-0.33)
    # a rival with fewer visits needs a better rating, the more so the wider the bound
    _rated(tree, {4: (357, -0.43), 0: (100, -0.38), 8: (30, 0.5)})
    assert tree.stats(limit=1)[0].action == 0
    tree.select_lcb = 5.0
    assert tree.stats(limit=1)[0].action == 4
    # a search copies its setting onto the tree, and its subtree keeps it
    MCTS(UniformEvaluator(), SearchConfig(select_lcb=0.5), seed=0).search([tree], 1)
    assert tree.select_lcb == 0.5 and tree.child_tree(4).select_lcb == 0.5


def test_the_lower_confidence_bound_never_passes_over_a_proven_win():
    game = get_game("tictactoe")
    state = game.state_from_text("a1 b1 a2 b2")   # X wins at a3
    tree = Tree(state)
    MCTS(UniformEvaluator(), SearchConfig(select_lcb=1.0), seed=0).search([tree], 200)
    assert game.initial_state().action_to_text(tree.stats(limit=1)[0].action) == "a3"


def test_the_lcb_option_and_play_setting_reach_the_search():
    game = get_game("connect4")
    assert player_from_spec(game, "model:models/connect4.pt@50?lcb=0.75", seed=1).mcts.cfg.select_lcb == 0.75
    assert play_search_config(game).select_lcb == load_config(game).play.select_lcb
    assert SearchConfig().select_lcb == 0.0     # self-play's searches choose the most visited


def test_the_material_option_and_play_setting_reach_the_search():
    game = get_game("xiangqi")
    p = player_from_spec(game, "model:models/xiangqi.pt@50?mat=6", seed=1)
    assert p.mcts.cfg.material_scale == 6.0 and p.name.endswith("mat6")
    assert play_search_config(game).material_scale == load_config(game).play.material_scale
    assert SearchConfig().material_scale == 0.0   # off unless asked for
