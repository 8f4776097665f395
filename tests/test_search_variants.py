"""Gumbel root search for self-play, the capture look-ahead at xiangqi leaves, and how a
lost position is defended."""
from __future__ import annotations

from functools import lru_cache

import numpy as np
import pytest

from engine.core.evaluators import UniformEvaluator
from engine.core.gumbel import GumbelRule, considered_visits
from engine.core.mcts import MCTS, SearchConfig, Tree, with_capture_gain, with_tactics
from engine.play.solver import Solver
from games import get_game


# --- Gumbel -------------------------------------------------------------------------

@pytest.mark.parametrize("considered,sims", [(16, 64), (7, 32), (4, 200), (2, 10)])
def test_sequential_halving_visits_the_considered_moves_evenly_then_halves_them(considered, sims):
    plan = considered_visits(considered, sims)
    assert len(plan) == sims
    assert plan[:considered] == [0] * considered          # every considered move once first
    counts = {}
    for level in plan:                                      # each simulation raises one move's count
        counts[level] = counts.get(level, 0) + 1
    widths = [counts[level] for level in sorted(counts)]
    assert all(a >= b for a, b in zip(widths, widths[1:]))  # fewer moves at each higher count
    assert widths[-1] >= 1 and (min(widths) >= 2 or sims <= considered)


def gumbel_search(state, sims, evaluator=None, seed=0):
    mcts = MCTS(evaluator or UniformEvaluator(), SearchConfig(), seed=seed)
    mcts.root_rule = GumbelRule(considered=16)
    tree = Tree(state)
    mcts.search([tree], sims)
    return tree


def test_the_gumbel_root_spends_exactly_the_budget_on_at_most_the_considered_moves():
    state = get_game("gomoku").initial_state()            # 225 moves, far more than considered
    tree = gumbel_search(state, 64)
    _, n = tree.visit_counts()
    assert tree.root_n == 64 and n.sum() == 63
    assert 2 <= (n > 0).sum() <= 16


def test_the_improved_policy_is_a_distribution_that_prefers_what_the_search_found():
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b1 a2 b2")   # X to move: a3 wins at once, c2... b3 must wait
    policies, choices = [], []
    for seed in range(8):
        tree = gumbel_search(state, 32, seed=seed)
        policy = tree.root_rule.improved_policy(tree)
        assert policy.shape == (len(state.legal_actions()),) and policy.sum() == pytest.approx(1.0)
        policies.append(policy)
        choices.append(state.legal_actions()[tree.root_rule.choice(tree)])
    win = g.state_from_text("a1").parse_action("a3")
    j = state.legal_actions().index(win)
    assert all(p.argmax() == j for p in policies)
    assert all(c == win for c in choices)


def test_gumbel_self_play_records_improved_policy_targets():
    from engine.core.config import load_config
    from engine.core.selfplay import play_games
    game = get_game("tictactoe")
    sp = load_config(game).selfplay
    sp.gumbel_considered, sp.sims, sp.fast_sims, sp.parallel_games = 4, 12, 0, 4
    records, stats = play_games(game, UniformEvaluator(), sp, 4, seed=3)
    assert stats.games == 4
    for rec in records:
        for idx, val in zip(rec.policy_idx, rec.policy_val):
            assert len(idx) == len(val) and float(np.sum(val.astype(np.float64))) == pytest.approx(1.0, abs=2e-3)


def test_gumbel_self_play_plays_a_proven_win_found_while_it_still_samples_its_opening():
    """A root whose win is proven in the sampled opening plies: the Gumbel arm of 2026-11-28
    stopped there (it asked for PUCT's visit counts, which a Gumbel search does not make)."""
    from engine.core.config import load_config
    from engine.core.selfplay import play_games
    game = get_game("tictactoe")
    sp = load_config(game).selfplay
    sp.gumbel_considered, sp.sims, sp.fast_sims, sp.parallel_games, sp.temperature_moves = 4, 32, 0, 8, 9
    sp.resign_threshold = 0
    records, stats = play_games(game, UniformEvaluator(), sp, 24, seed=1)
    assert stats.games == 24
    for rec in records:   # every game ends by the rules: a win, once proven, is played
        state = game.initial_state()
        for a in rec.moves:
            state = state.apply(a)
        assert state.is_terminal()


# --- capture look-ahead (xiangqi) ---------------------------------------------------------

def test_capture_gain_counts_what_an_exchange_really_wins():
    g = get_game("xiangqi")
    start = g.initial_state()
    assert start.capture_gain() == 0.0
    # Red's cannon takes the h-file horse: Black to move wins the cannon back (4.5), nothing more
    assert start.apply(start.parse_action("h2h9")).capture_gain() == 4.5
    # a chariot in front of a defended soldier gains nothing: capturing loses the chariot
    s = g.state_from_text("4k4/9/9/4p4/4p4/4R4/9/9/9/3K5 w - - 0 1")
    assert s.capture_gain() == 0.0
    # the same soldier undefended is simply won
    s = g.state_from_text("4k4/9/9/9/4p4/4R4/9/9/9/3K5 w - - 0 1")
    assert s.capture_gain() == 1.0


def test_capture_gain_sees_the_generals_facing_each_other():
    g = get_game("xiangqi")
    # Black's chariot on the e-file shields the generals: taking it would leave them facing
    s = g.state_from_text("4k4/9/9/9/4r4/9/9/9/4R4/4K4 w - - 0 1")
    assert s.capture_gain() == 9.0  # the chariot is taken and Black cannot answer on the file


def test_the_leaf_value_rises_with_what_the_mover_wins_by_captures():
    assert with_capture_gain(0.2, 0.0, 8.0) == 0.2
    assert 0.2 < with_capture_gain(0.2, 4.0, 8.0) < with_capture_gain(0.2, 9.0, 8.0) < 1.0
    assert with_capture_gain(1.0, 9.0, 8.0) < 1.0 and with_capture_gain(-1.0, 9.0, 8.0) > -1.0


def test_the_search_does_not_leave_a_chariot_to_a_capture():
    """Red's chariot is attacked by a horse; the network knows nothing (uniform). With the
    capture look-ahead the search moves it or defends it; the material it keeps is the test."""
    g = get_game("xiangqi")
    s = g.state_from_text("3k5/9/9/9/9/2n6/9/1R7/9/4K4 w - - 0 1")
    assert s.apply(s.parse_action("e0e1")).capture_gain() == 9.0   # a quiet move loses the chariot
    mcts = MCTS(UniformEvaluator(), SearchConfig(), seed=0)
    tree = Tree(s)
    mcts.search([tree], 400)
    move = tree.stats(limit=1)[0].action
    after = s.apply(move)
    assert after.heuristic(0) - after.capture_gain() >= s.heuristic(0) - 1e-9


def test_the_leaf_value_moves_with_the_material_won_or_lost_since_the_root():
    g = get_game("xiangqi")
    root = g.state_from_text("3k5/9/9/9/9/2n6/9/1R7/9/4K4 w - - 0 1")   # Red a chariot up
    lost = root.apply(root.parse_action("e0e1")).apply(root.apply(root.parse_action("e0e1")).parse_action("c4b2"))
    assert lost.current_player == 0 and lost.heuristic(0) == root.heuristic(0) - 9.0
    quiet = root.apply(root.parse_action("b2b3"))   # Black to move, nothing taken
    lead = [root.heuristic(0)] * 2

    def values(scale):
        _, v = with_tactics([lost, quiet], [lost.legal_actions(), quiet.legal_actions()],
                            [np.full(len(lost.legal_actions()), 1 / len(lost.legal_actions()), np.float32),
                             np.full(len(quiet.legal_actions()), 1 / len(quiet.legal_actions()), np.float32)],
                            [0.1, 0.1], 8.0, scale, lead)
        return v
    assert values(0.0) == [0.1, 0.1]                    # off: the network's values
    v = values(6.0)
    assert v[0] == pytest.approx(np.tanh(np.arctanh(0.1) - 9.0 / 6.0))   # Red, a chariot down since the root
    assert v[1] == 0.1                                  # no material changed hands: the network's
    black = g.state_from_text("3k5/9/9/9/9/2n6/9/9/9/4K4 b - - 0 1")     # Black to move, the chariot gone
    _, (vb,) = with_tactics([black], [black.legal_actions()],
                            [np.full(len(black.legal_actions()), 1 / len(black.legal_actions()), np.float32)],
                            [0.0], 0.0, 6.0, [root.heuristic(0)])
    assert vb == pytest.approx(np.tanh(9.0 / 6.0))      # Black's view: the chariot won


def test_the_material_term_keeps_a_uniform_search_from_trading_a_chariot_for_a_horse():
    """Red's chariot can take a horse defended by a chariot. With a uniform network the capture
    look-ahead sees the recapture only from the leaf right after the take; once the search has
    played the recapture inside its tree, nothing at the leaves below remembers the chariot,
    and the take ends up valued about even (above 0 here). With the material term the tree's
    own exchanges count."""
    g = get_game("xiangqi")
    s = g.state_from_text("3k5/9/9/2r6/9/2n6/9/9/2R6/4K4 w - - 0 1")
    take = s.parse_action("c1c4")
    results = {}
    for scale in (0.0, 4.0):
        mcts = MCTS(UniformEvaluator(), SearchConfig(material_scale=scale), seed=0)
        tree = Tree(s)
        mcts.search([tree], 600)
        results[scale] = {m.action: m for m in tree.stats(limit=None)}
    assert results[4.0][take].q < results[0.0][take].q
    assert results[4.0][take].q < -0.3   # a chariot for a horse: bad for Red


# --- holding out in a lost position -------------------------------------------------------

@lru_cache(maxsize=None)
def _distance(state_text: str) -> tuple[int, int]:
    """(value for the mover, plies to the end) with best play: the winner hurries, the loser delays."""
    g = get_game("tictactoe")
    s = g.state_from_text(state_text)
    if s.is_terminal():
        w = s.winner()
        return (0 if w is None else (1 if w == s.current_player else -1)), 0
    options = []
    for a in s.legal_actions():
        v, d = _distance(s.apply(a).to_text())
        options.append((-v, d + 1))
    best = max(v for v, _ in options)
    depths = [d for v, d in options if v == best]
    return best, (max(depths) if best < 0 else min(depths))


def test_a_lost_position_is_defended_as_long_as_possible():
    g = get_game("tictactoe")
    solver = Solver()
    rng = np.random.default_rng(5)
    checked = 0
    for _ in range(400):
        s = g.initial_state()
        for _ in range(int(rng.integers(2, 6))):
            if s.is_terminal():
                break
            s = s.apply(int(rng.choice(s.legal_actions())))
        if s.is_terminal() or solver.value(s) != -1:
            continue
        delays = {a: _distance(s.apply(a).to_text())[1] for a in s.legal_actions()}
        if len(set(delays.values())) < 2:
            continue
        tree = Tree(s)
        MCTS(UniformEvaluator(), SearchConfig(), seed=0).search([tree], 3000)
        assert tree.root_result() == -1.0
        assert delays[tree.stats(limit=1)[0].action] == max(delays.values()), s.to_text()
        checked += 1
    assert checked >= 5


class IgnoresCaptures:
    """A network that puts its whole prior on one quiet move and sees every position as even."""

    def __init__(self, quiet_action: int):
        self.quiet = quiet_action

    def evaluate(self, states, legal):
        priors = []
        for acts in legal:
            p = np.full(len(acts), 1e-6, np.float32)
            if self.quiet in acts:
                p[acts.index(self.quiet)] = 1.0
            priors.append(p / p.sum())
        return priors, np.zeros(len(states))


def test_a_free_chariot_is_taken_though_the_network_ignores_the_capture():
    g = get_game("xiangqi")
    s = g.state_from_text("3k5/9/9/9/r8/9/9/9/9/R3K4 w - - 0 1")   # a0 takes the undefended chariot on a5
    take, quiet = s.parse_action("a0a5"), s.parse_action("e0e1")
    assert s.winning_capture() == (9.0, take)
    for tactics, expected in ((True, take), (False, quiet)):
        tree = Tree(s)
        MCTS(IgnoresCaptures(quiet), SearchConfig(tactics=tactics), seed=0).search([tree], 200)
        assert tree.stats(limit=1)[0].action == expected


def test_gomoku_names_the_points_that_make_or_stop_a_four():
    g = get_game("gomoku")
    s = g.state_from_text("h8 a1 i8 a2 j8")   # black: three in a row h8 i8 j8; white to move
    points = sorted(s.action_to_text(a) for a, _ in s.tactical_priors())
    assert points == ["f8", "g8", "k8", "l8"]
    assert g.initial_state().tactical_priors() == []


def test_prior_floors_keep_a_distribution():
    from engine.core.mcts import with_floors
    pri = np.array([0.7, 0.2, 0.1, 0.0], np.float32)
    out = with_floors(pri, [10, 11, 12, 13], [(13, 0.3)])
    assert out.sum() == pytest.approx(1.0, abs=1e-6) and out[3] == pytest.approx(0.3, abs=1e-6)
    assert out[0] / out[1] == pytest.approx(3.5, rel=1e-5)                  # the rest keep their ratios
    assert with_floors(pri, [10, 11, 12, 13], [(10, 0.5)]) is pri            # already above its floor
    many = with_floors(pri, [10, 11, 12, 13], [(11, 0.6), (12, 0.6)])
    assert many[1] + many[2] == pytest.approx(0.9, abs=1e-6)                 # floors take at most 0.9


def _floors_by_dict(priors, actions, floors):
    """`with_floors` as it was first written (a dict from action to index, a mask for the rest):
    the reference its faster form keeps to bit for bit."""
    if not floors:
        return priors
    pri = np.asarray(priors, np.float64).copy()
    index = {a: j for j, a in enumerate(actions)}
    raised = {}
    for action, floor in floors:
        j = index.get(action)
        if j is not None and floor > pri[j]:
            raised[j] = max(raised.get(j, 0.0), floor)
    if not raised:
        return priors
    total = sum(raised.values())
    if total > 0.9:
        raised = {j: f * 0.9 / total for j, f in raised.items()}
        total = 0.9
    mask = np.ones(len(pri), bool)
    mask[list(raised)] = False
    rest = float(pri[mask].sum())
    pri[mask] *= (1.0 - total) / rest if rest > 0 else 0.0
    for j, f in raised.items():
        pri[j] = f
    return (pri / pri.sum()).astype(np.float32)


def test_prior_floors_are_those_of_the_reference_bit_for_bit(tree_path):
    from engine.core.mcts import with_floors
    rng = np.random.default_rng(12)
    for trial in range(3000):
        k = int(rng.integers(1, 600 if trial % 50 == 0 else 230))   # past the C side's stack arrays too
        actions = sorted(rng.choice(2086, size=k, replace=False).tolist())
        pri = rng.dirichlet(np.full(k, 0.3)).astype(np.float32)
        if trial % 7 == 0:
            pri[:] = 0.0   # nothing left for the others
        floors = [(int(rng.choice(actions)) if rng.random() < 0.8 else 5000, float(rng.uniform(0.0, 0.7)))
                  for _ in range(int(rng.integers(0, 70 if trial % 100 == 0 else 5)))]
        acts = actions if trial % 4 else np.array(actions, np.int64)
        if trial % 9 == 0:   # a strided view, as an averaging evaluator may give
            pri = np.repeat(pri, 2)[::2]
        want = _floors_by_dict(pri, actions, floors)
        got = with_floors(pri, acts, floors)
        assert got.dtype == want.dtype and got.tobytes() == want.tobytes(), (actions, pri, floors)
        assert (got is pri) == (want is pri)


def test_gomoku_blocks_an_open_three_in_few_visits_though_the_network_ignores_it():
    g = get_game("gomoku", size=9)
    s = g.state_from_text("d5 a9 e5 a8 f5")   # black d5 e5 f5 open at both ends; white to move
    blocks = {s.parse_action("c5"), s.parse_action("g5")}

    class Misguided:
        def evaluate(self, states, legal):
            priors = [np.array([1e-4 if a in blocks else 1.0 for a in acts]) for acts in legal]
            return [p / p.sum() for p in priors], np.zeros(len(states))

    tree = Tree(s)
    MCTS(Misguided(), SearchConfig(), seed=0).search([tree], 40)
    assert tree.stats(limit=1)[0].action in blocks


def test_the_gumbel_root_value_is_the_chosen_moves_not_the_mean_over_forced_visits():
    class Varied:   # values that differ from move to move, the same every time for a position
        def evaluate(self, states, legal):
            values = [((hash(st.key()) % 1000) / 500.0 - 1.0) * 0.9 for st in states]
            return [np.full(len(a), 1.0 / len(a)) for a in legal], np.array(values)

    state = get_game("gomoku", size=9).state_from_text("e5 d4")
    tree = gumbel_search(state, 48, Varied())
    q, _ = tree.root_rule.completed_q(tree)
    assert tree.root_rule.value(tree) == pytest.approx(q[tree.root_rule.choice(tree)])
    _, n = tree.visit_counts()
    assert n[tree.root_rule.choice(tree)] == n.max()
    assert tree.root_rule.value(tree) != pytest.approx(tree.root_w / tree.root_n)   # not the mean of all visits
