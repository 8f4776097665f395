"""PUCT search: tactics, convergence to minimax, value signs, terminal handling, noise,
move selection, tree reuse and batching."""
from __future__ import annotations

import importlib.util

import numpy as np
import pytest

from engine.core.evaluators import UniformEvaluator
from engine.core.mcts import MCTS, SearchConfig, Tree, select_action
from engine.play.solver import Solver, reachable_states
from games import get_game


def search(state, sims, evaluator=None, **cfg):
    tree = Tree(state)
    MCTS(evaluator or UniformEvaluator(), SearchConfig(**cfg), seed=0).search([tree], sims)
    return tree


def best(tree) -> int:
    return tree.stats(limit=1)[0].action


class WinsForPlayer0:
    """Says player 0 is winning in every position: +1 for player 0 to move, -1 for player 1."""

    def evaluate(self, states, legal):
        return ([np.full(len(a), 1.0 / len(a)) for a in legal],
                np.array([1.0 if s.current_player == 0 else -1.0 for s in states]))


class RefusesTerminal(UniformEvaluator):
    """A uniform evaluator that fails the test if it is ever asked about a finished game."""

    def evaluate(self, states, legal):
        assert not any(s.is_terminal() for s in states), "a terminal state was sent to the evaluator"
        assert all(legal), "a state without legal moves was sent to the evaluator"
        return super().evaluate(states, legal)


def edge_consistency(tree: Tree) -> None:
    """Every expanded non-root node: its edges' visits sum to its own visits minus the one that expanded it."""
    for node in range(1, tree.num_nodes):
        k = int(tree.n_count[node])
        if not k:
            continue
        assert tree.edges(node)[1].sum() == pytest.approx(tree.n_visits[node] - 1)
    assert tree.edges(0)[1].sum() == pytest.approx(tree.root_n - 1)


# --- tactics -------------------------------------------------------------------------

def test_takes_an_immediate_win_in_tictactoe():
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b1 a2 b2")  # X: a1 a2, O: b1 b2; X to move wins at a3
    assert g.initial_state().action_to_text(best(search(state, 400))) == "a3"


def test_blocks_an_immediate_loss_in_tictactoe():
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b1 c3 b2")  # O threatens b3; X must block
    assert state.action_to_text(best(search(state, 1500))) == "b3"


def test_takes_an_immediate_win_in_connect4():
    g = get_game("connect4")
    state = g.state_from_text("121212")  # first player to move, with three in column 1
    tree = search(state, 400)
    assert state.action_to_text(best(tree)) == "1"
    assert tree.stats(limit=1)[0].q == pytest.approx(1.0)


def test_blocks_an_immediate_loss_in_connect4():
    g = get_game("connect4")
    state = g.state_from_text("12121")  # second player to move must block column 1
    assert state.action_to_text(best(search(state, 3000))) == "1"


# --- values --------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["c3 b3 c2", "c3 b3", "c3 b3 a3 c2", "a1 b2 c3", "b2 a1 a3 c1", "a1 b1 b2 c1"])
def test_root_value_converges_to_minimax_in_tictactoe(text):
    g = get_game("tictactoe")
    state = g.state_from_text(text)
    exact = Solver().value(state)
    tree = search(state, 4000)
    assert tree.root_value() == pytest.approx(exact, abs=0.15)
    assert best(tree) in Solver().optimal_actions(state)


def test_every_result_the_search_proves_is_the_minimax_result():
    g = get_game("tictactoe")
    solver = Solver()
    states = sorted(reachable_states(g), key=lambda st: st.key())
    rng = np.random.default_rng(3)
    proofs = draws = root_wins = root_draws = 0
    for i in rng.choice(len(states), 250, replace=False):
        state = states[i]
        tree = search(state, 150)
        for n in range(1, tree.num_nodes):
            st = tree.states[n]
            if not np.isnan(tree.n_term[n]) and not st.is_terminal():
                assert tree.n_term[n] == solver.value(st), st.moves   # proven, not finished
                proofs += 1
                draws += tree.n_term[n] == 0.0
        if tree.root_result() is not None:
            assert tree.root_value() == tree.root_result() == solver.value(state)
            root_draws += tree.root_result() == 0.0
        if tree.root_win >= 0:
            root_wins += 1
            assert solver.value(state) == 1
            assert best(tree) in solver.optimal_actions(state)   # played, however few its visits
    assert proofs > 200 and draws > 50 and root_wins > 20 and root_draws > 20, (proofs, draws, root_wins, root_draws)


def test_a_lost_position_is_proven_from_its_children():
    g = get_game("tictactoe")
    # X has a fork: O (to move) can stop only one of the two lines
    state = g.state_from_text("a1 b2 c3 a3 c1 b1")   # X: a1 c3 c1; O: b2 a3 b1 -> X to move wins
    tree = search(state, 50)
    assert tree.root_win >= 0
    # one ply earlier O (to move) is lost whatever it plays: every child gets proven lost
    before = g.state_from_text("a1 b2 c3 a3 c1")
    assert Solver().value(before) == -1
    tree = search(before, 400)
    s, k = int(tree.n_start[0]), int(tree.n_count[0])
    kids = tree.e_child[s:s + k]
    assert tree.n_done[0] == k and tree.n_best[0] == -1.0 and (kids >= 0).all()
    assert tree.root_result() == tree.root_value() == -1.0
    assert all(tree.n_term[c] == 1.0 and tree.n_player[c] == 0 for c in kids)   # each a win for X


def test_values_are_for_the_player_to_move_at_every_ply():
    g = get_game("connect4")
    for text in ("", "4", "44"):  # player 0, 1, 0 to move; no game can end within the searched depth
        state = g.state_from_text(text)
        tree = search(state, 200, WinsForPlayer0())
        expected = 1.0 if state.current_player == 0 else -1.0
        assert tree.root_value() == pytest.approx(expected)
        assert all(m.q == pytest.approx(expected) for m in tree.stats() if m.visits)


def test_value_flips_between_a_parent_and_its_child():
    g = get_game("tictactoe")
    tree = search(g.state_from_text("c3 b3"), 2000)
    top = tree.stats(limit=1)[0]
    child = tree.child_tree(top.action)
    assert child.root_w / child.root_n == pytest.approx(-top.q, abs=1e-6)   # the means
    assert tree.root_value() == 1.0 and child.root_value() == -1.0         # X's win is proven


def test_terminal_positions_are_scored_by_the_rules_not_the_evaluator():
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b1 a2 b2 c3")  # four empty cells, wins and losses within reach
    tree = search(state, 3000, RefusesTerminal())
    assert tree.root_value() == pytest.approx(Solver().value(state), abs=0.15)
    won = search(g.state_from_text("a1 b1 a2 b2"), 200, RefusesTerminal())
    win = [m for m in won.stats() if m.action == 6][0]
    assert win.q == 1.0


def test_a_terminal_root_is_not_searched():
    g = get_game("tictactoe")
    finished = g.state_from_text("a1 b1 a2 b2 a3")
    tree = Tree(finished)
    assert MCTS(RefusesTerminal()).search([tree], 50) == 0
    assert tree.is_root_terminal()


# --- noise and move choice -----------------------------------------------------------------

def _priors(tree: Tree):
    root = tree.edges(0)[3]
    others = np.concatenate([tree.edges(n)[3] for n in range(1, tree.num_nodes) if tree.n_count[n]])
    return root, others


def test_dirichlet_noise_changes_only_the_root_priors():
    g = get_game("tictactoe")
    tree = Tree(g.initial_state())
    MCTS(UniformEvaluator(), SearchConfig(dirichlet_alpha=0.3), seed=1).search([tree], 200, noise=True)
    root, others = _priors(tree)
    assert not np.allclose(root, 1 / 9)
    assert root.sum() == pytest.approx(1.0, abs=2e-3)   # priors are stored as float16
    counts = [int(tree.n_count[n]) for n in range(1, tree.num_nodes) if tree.n_count[n]]
    assert np.allclose(others, np.concatenate([np.full(k, 1.0 / k) for k in counts]), atol=1e-3)


def test_no_noise_unless_asked():
    g = get_game("tictactoe")
    for noise, alpha in ((False, 0.3), (True, None)):
        tree = Tree(g.initial_state())
        MCTS(UniformEvaluator(), SearchConfig(dirichlet_alpha=alpha), seed=1).search([tree], 100, noise=noise)
        assert np.allclose(_priors(tree)[0], 1 / 9, atol=1e-3)


def test_temperature_zero_picks_the_most_visited_move():
    rng = np.random.default_rng(0)
    actions = np.array([3, 5, 7, 8])
    visits = np.array([10.0, 40.0, 39.0, 1.0])
    assert all(select_action(actions, visits, 0.0, rng) == 5 for _ in range(20))
    sampled = {select_action(actions, visits, 1.0, rng) for _ in range(200)}
    assert {5, 7} <= sampled


# --- tree reuse and batching ---------------------------------------------------------------

def test_child_tree_keeps_the_subtree_statistics():
    g = get_game("connect4")
    tree = search(g.initial_state(), 1500)
    edge_consistency(tree)
    top = tree.stats(limit=1)[0]
    child = tree.child_tree(top.action)
    assert child.root_n == top.visits
    assert child.root_state == g.initial_state().apply(top.action)
    edge_consistency(child)
    for node in range(child.num_nodes):  # every stored state is its parent's state after the edge's action
        actions, _, _, _, kids = child.edges(node)
        for a, kid in zip(actions, kids):
            if kid >= 0:
                assert child.states[kid] == child.states[node].apply(int(a))
    MCTS(UniformEvaluator()).search([child], top.visits + 300)
    assert child.root_n == top.visits + 300
    edge_consistency(child)


def test_child_tree_of_an_unvisited_move_is_none():
    g = get_game("tictactoe")
    tree = search(g.initial_state(), 3)
    visited = {m.action for m in tree.stats() if m.visits}
    unvisited = [a for a in g.initial_state().legal_actions() if a not in visited]
    assert tree.child_tree(unvisited[0]) is None


def test_batched_search_gives_every_tree_its_visits():
    g = get_game("connect4")
    trees = [Tree(g.state_from_text(t)) for t in ("", "4", "44", "4453", "121212")]
    targets = [50, 80, 120, 33, 200]
    MCTS(UniformEvaluator(), SearchConfig(leaf_batch=8)).search(trees, targets)
    assert [t.root_n for t in trees] == targets
    for t in trees:
        edge_consistency(t)


def test_leaf_batched_search_still_converges():
    g = get_game("tictactoe")
    solver = Solver()
    for text in ("c3 b3 c2", "c3 b3", "a1 b1 c3 b2"):
        state = g.state_from_text(text)
        tree = search(state, 4000, leaf_batch=16)
        assert tree.root_value() == pytest.approx(solver.value(state), abs=0.2)
        assert best(tree) in solver.optimal_actions(state)


# --- passes -------------------------------------------------------------------------------

@pytest.mark.skipif(importlib.util.find_spec("games.othello") is None, reason="othello has not landed yet")
def test_values_flip_correctly_across_an_othello_pass(monkeypatch):
    import games.othello as othello_module
    # the search's values, not the endgame solver's (a 4x4 board is all endgame)
    monkeypatch.setattr(othello_module, "SOLVE_EMPTIES", 0)
    g = get_game("othello", size=4)
    solver = Solver()
    rng = np.random.default_rng(3)
    found = 0
    for _ in range(400):  # random 4x4 games; check positions whose solution involves a pass
        state = g.initial_state()
        while not state.is_terminal() and found < 4:
            legal = state.legal_actions()
            child_passes = any(state.apply(a).legal_actions() == [g.pass_action] for a in legal)
            if child_passes and len(legal) > 1 and len(state.moves) >= 5:
                tree = search(state, 3000)
                exact = solver.value(state)
                assert tree.root_value() == pytest.approx(exact, abs=0.3), state.to_text()
                assert best(tree) in solver.optimal_actions(state), state.to_text()
                found += 1
                break
            state = state.apply(int(rng.choice(legal)))
        if found >= 4:
            break
    assert found >= 2, "no position with a pass was found"
    # at a forced pass the player-0-wins evaluator still reads +1 for player 0, -1 for player 1
    passes = 0
    for _ in range(200):
        state = g.initial_state()
        while not state.is_terminal() and state.legal_actions() != [g.pass_action]:
            state = state.apply(int(rng.choice(state.legal_actions())))
        if state.is_terminal() or any(state.apply(g.pass_action).apply(a).is_terminal()
                                      for a in state.apply(g.pass_action).legal_actions()):
            continue
        tree = search(state, 3, WinsForPlayer0())  # root, the pass, one reply: none is terminal
        expected = 1.0 if state.current_player == 0 else -1.0
        assert tree.root_value() == pytest.approx(expected)
        assert tree.stats()[0].q == pytest.approx(expected)
        passes += 1
    assert passes, "no forced pass was found"


def test_a_proven_position_becomes_a_searchable_root():
    g = get_game("connect4")
    # O to move; X threatens to win in column 1, so every other O move loses at once
    before = g.state_from_text("12121")
    tree = search(before, 300)
    block = [m for m in tree.stats() if m.action == 0][0]
    assert block.visits > 250 and block.q > -1.0
    other = next(m for m in tree.stats() if m.action != 0 and m.visits)
    assert other.q == -1.0                     # X to move wins at once: proven
    child = tree.child_tree(other.action)      # ... yet not finished: as a root it is searched
    assert not child.is_root_terminal()
    MCTS(UniformEvaluator()).search([child], 200)
    assert child.root_n >= 200 and child.root_expanded


class MisguidedPriors:
    """Almost all prior on moves other than ``avoid`` (1e-4 each there), values 0: a network
    that has not learnt the defence."""

    def __init__(self, avoid: set[int]):
        self.avoid = avoid

    def evaluate(self, states, legal):
        priors = []
        for acts in legal:
            p = np.array([1e-4 if a in self.avoid else 1.0 for a in acts])
            priors.append(p / p.sum())
        return priors, np.zeros(len(states))


def test_the_only_defence_is_found_though_the_network_ignores_it(monkeypatch):
    """White must stop black's open three at once (every other move loses to an open four,
    which the rules prove). The network puts almost no prior on the two blocks and the losses
    drag the root's value towards -1; known losses must not keep outranking the unvisited moves."""
    import games.gomoku
    # the threat-space defence at the root (off by default, switched on by an environment
    # variable) would give the blocks the whole prior; this test is about the solver
    monkeypatch.setattr(games.gomoku, "DEFENCE_BUDGET", 0)
    game = get_game("gomoku", size=9)
    s = game.state_from_text("d5 a9 e5 a8 f5")   # black d5 e5 f5, open at both ends
    assert s.current_player == 1
    blocks = {s.parse_action("c5"), s.parse_action("g5")}
    losing = [a for a in s.legal_actions() if s.apply(a).proven_value() == 1.0]
    assert set(s.legal_actions()) - set(losing) == blocks  # every other move is proven lost
    for leaf_batch in (1, 8):
        tree = Tree(s)
        # the game's tactical priors would hand the blocks their share at once: this is about the solver
        MCTS(MisguidedPriors(blocks), SearchConfig(leaf_batch=leaf_batch, tactics=False)).search([tree], 400)
        assert best(tree) in blocks, s.action_to_text(best(tree))
        lost_visits = [m.visits for m in tree.stats() if m.action in losing]
        assert max(lost_visits) <= 1  # each known loss is tried once
        kids = tree.edges(0)[4]
        known = (kids >= 0) & ~np.isnan(tree.n_term[np.maximum(kids, 0)])
        assert tree.n_done[0] == known.sum() >= len(losing)  # and counted once on its parent


def test_the_root_defence_leaves_a_lost_root_alone(monkeypatch):
    """Black has two open threes on separate lines: white stops one, black makes an open four
    with the other. Every point that touches a threat is proven lost, and the moves elsewhere
    lose too; the root defence must then leave the priors as they were (it used to hand the whole
    prior to the far-away moves, which lose at once, instead of a block that loses later)."""
    import games.gomoku
    game = get_game("gomoku")
    s = game.state_from_text("e8 a1 f8 a15 g8 o1 j5 o15 j6 h1 j7")
    monkeypatch.setattr(games.gomoku, "DEFENCE_BUDGET", 5000)
    defences, refuted = s.threat_defence()
    assert defences == [] and {s.parse_action(p) for p in ("d8", "h8", "j4", "j8")} <= set(refuted)
    roots = []
    for budget in (0, 5000):
        monkeypatch.setattr(games.gomoku, "DEFENCE_BUDGET", budget)
        tree = Tree(s)
        MCTS(UniformEvaluator(), SearchConfig(), seed=0).search([tree], 64)
        assert tree.defended
        roots.append(tree.e_prior[int(tree.n_start[0]):int(tree.n_start[0]) + int(tree.n_count[0])].copy())
    assert np.array_equal(roots[0], roots[1])


def test_a_win_behind_drawn_moves_is_found_though_the_network_ignores_it():
    """Tic-tac-toe positions with one winning move (a fork, not a win in one) and only draws
    besides. The network gives the fork almost no prior and calls everything level; once the
    other moves are proven draws the search must stop spending visits on them and try the
    fork. (Before draws were proven, every one of these positions was drawn instead.)"""
    g = get_game("tictactoe")
    solver = Solver()
    found = 0
    for state in sorted(reachable_states(g), key=lambda st: st.key()):
        if state.is_terminal() or solver.value(state) != 1 or len(solver.optimal_actions(state)) != 1:
            continue
        children = [state.apply(a) for a in state.legal_actions()]
        if any(c.is_terminal() for c in children) or sorted(solver.value(c) for c in children)[0] != -1:
            continue
        if any(solver.value(c) == 1 for c in children):   # another move that loses: not this test
            continue
        (win,) = solver.optimal_actions(state)
        tree = Tree(state)
        MCTS(MisguidedPriors({win}), SearchConfig()).search([tree], 400)
        assert best(tree) == win and tree.root_result() == 1.0, state.moves
        found += 1
    assert found > 50, found


class MoverIsAhead:
    """Uniform priors; every unfinished position is worth +0.2 to the player to move."""

    def evaluate(self, states, legal):
        return [np.full(len(a), 1.0 / len(a)) for a in legal], np.full(len(states), 0.2)


@pytest.mark.parametrize("game_id, text, win", [
    ("connect4", "121212", "1"),                 # the first player connects four in column 1
    ("tictactoe", "a1 b1 a2 b2", "a3"),
])
def test_a_win_in_one_is_played_though_the_network_ignores_it(game_id, text, win):
    """The rules prove the root won at once; the winning move must be played even when its
    prior is tiny and the search too short to visit it by itself (a trained connect4 network
    blocked column 2 here at 60 visits), and also in a tree reused from the move before."""
    game = get_game(game_id)
    state = game.state_from_text(text)
    action = state.parse_action(win)
    for sims in (2, 60):
        tree = Tree(state)
        MCTS(MisguidedPriors({action}), SearchConfig()).search([tree], sims)
        assert best(tree) == action and tree.root_result() == 1.0
    head, last = text.rsplit(" ", 1) if " " in text else (text[:-1], text[-1])
    before = game.state_from_text(head)
    tree = Tree(before)
    MCTS(UniformEvaluator(), SearchConfig()).search([tree], 300)
    reused = tree.child_tree(before.parse_action(last))
    assert reused is not None
    MCTS(MisguidedPriors({action}), SearchConfig()).search([reused], 2)
    assert best(reused) == action and reused.root_result() == 1.0


def test_draw_contempt_steers_the_search_away_from_a_drawing_repetition():
    g = get_game("xiangqi")
    # the horses go out and back twice: black's i7g9 would repeat the start a third time (a draw)
    state = g.state_from_text(g.initial_state().to_text() + " moves h0i2 g9i7 i2h0 i7g9 h0i2 g9i7 i2h0")
    draw = state.parse_action("i7g9")
    assert state.apply(draw).is_terminal() and state.apply(draw).winner() is None
    # every other move hands the opponent a position worth +0.2 to them, so the true draw (0) is best
    plain = search(state, 400, MoverIsAhead(), tactics=False)   # values from the evaluator alone
    assert best(plain) == draw
    assert [m.q for m in plain.stats() if m.action == draw] == [0.0]
    # a known result is not visited again while moves are open, so the draw is played though
    # an open move (rated worse) has more visits
    assert [m.visits for m in plain.stats() if m.action == draw] == [1]
    assert max(m.visits for m in plain.stats()) > 1
    # with contempt the drawing move is worth -0.5 to the side that plays it, worse than -0.2
    contempt = search(state, 400, MoverIsAhead(), draw_value=-0.5, tactics=False)
    assert best(contempt) != draw
    assert [m.q for m in contempt.stats() if m.action == draw] == [pytest.approx(-0.5)]


def test_a_root_whose_moves_are_all_known_plays_the_best_of_them():
    """Visits gathered before a move was proven say nothing once every move is known: a known
    loss that happens to have the most visits must not be played over a known draw."""
    g = get_game("tictactoe")
    state = g.state_from_text("a1 b2 c3")   # O to move: an edge draws, a corner loses
    solver = Solver()
    tree = search(state, 2000)
    assert tree.root_result() == solver.value(state) == 0
    a, n, w, p, kids = tree.edges(0)
    losing = [j for j in range(len(a)) if solver.action_values(state)[int(a[j])] == -1]
    assert losing
    tree.n_visits[kids[losing[0]]] = n.max() + 100   # as if visited heavily before it was proven
    assert best(tree) in solver.optimal_actions(state)


def test_othello_endgames_are_proven_exactly_through_passes(monkeypatch):
    """Small 6x6 othello endgames (passes and drawn finishes included): every value the
    search proves, at the root and below, is the exact minimax value, and a root known to
    its end plays a best move. The proofs here are the tree's own (the endgame solver, which
    would prove every child at once, is off; it is checked in tests/test_othello.py)."""
    import games.othello as othello_module
    monkeypatch.setattr(othello_module, "SOLVE_EMPTIES", 0)
    game = get_game("othello", size=6)
    rng = np.random.default_rng(11)
    solver = Solver()
    proven = draws = passes = roots = 0
    for _ in range(40):
        state = game.initial_state()
        while not state.is_terminal() and game.cells - sum(state.discs()) > 7:
            legal = state.legal_actions()
            state = state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal():
            continue
        tree = search(state, 800)
        for n in range(tree.num_nodes):
            st = tree.states[n]
            passes += st.legal_actions() == [game.pass_action] if not st.is_terminal() else 0
            if n and not np.isnan(tree.n_term[n]) and not st.is_terminal():
                assert tree.n_term[n] == solver.value(st), st.to_text()
                proven += 1
                draws += tree.n_term[n] == 0.0
        if tree.root_result() is not None:
            roots += 1
            assert tree.root_result() == solver.value(state), state.to_text()
            assert best(tree) in solver.optimal_actions(state), state.to_text()
    assert proven > 1000 and draws > 30 and roots > 20 and passes > 0, (proven, draws, roots, passes)


def test_connect4_endgames_are_proven_exactly(monkeypatch):
    """Connect Four endgames with 10 empty cells: every value the search proves is the exact
    minimax value, and a root known to its end plays a best move. The game's own endgame
    solver is switched off: the proofs here are the search's."""
    from conftest import win_in_one

    import games.connect4 as c4
    monkeypatch.setattr(c4, "SOLVE_EMPTIES", 0)
    game = get_game("connect4")
    rng = np.random.default_rng(12)
    solver = Solver()
    proven = roots = positions = 0
    while positions < 30:
        state = game.initial_state()
        while not state.is_terminal() and len(state.moves) < 32:
            # random moves, but none that lets the opponent win at once where another exists:
            # purely random games rarely last 32 plies
            legal = state.legal_actions()
            safe = [a for a in legal if not win_in_one(state.apply(a))] or legal
            state = state.apply(safe[rng.integers(len(safe))])
        if state.is_terminal():
            continue
        positions += 1
        tree = search(state, 800)
        for n in range(1, tree.num_nodes):
            st = tree.states[n]
            if not np.isnan(tree.n_term[n]) and not st.is_terminal():
                assert tree.n_term[n] == solver.value(st), st.to_text()
                proven += 1
        if tree.root_result() is not None:
            roots += 1
            assert tree.root_result() == solver.value(state), state.to_text()
            assert best(tree) in solver.optimal_actions(state), state.to_text()
    assert proven > 1000 and roots > 10, (proven, roots)


@pytest.mark.parametrize("game_id", ["connect4", "othello", "tictactoe"])
def test_the_plain_python_child_choice_is_the_numpy_one(game_id):
    """At every expanded node of searched trees (known children, floors and unvisited moves
    included), `_pick_small` chooses what `_pick_wide` does, up to near-ties of the scores."""
    from engine.core.mcts import SMALL_NODE
    game = get_game(game_id, size=6) if game_id == "othello" else get_game(game_id)
    rng = np.random.default_rng(3)
    cfg = SearchConfig()
    compared = differ = 0
    for _ in range(6):
        state = game.initial_state()
        for _ in range(int(rng.integers(0, 12))):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state = state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal():
            continue
        tree = search(state, 1500, MisguidedPriors(set()))
        for node in range(tree.num_nodes):
            k = int(tree.n_count[node])
            if not k or k > SMALL_NODE or not np.isnan(tree.n_term[node]):
                continue
            s = int(tree.n_start[node])
            kids = tree.e_child[s:s + k]
            for parent_n, q_node in ((float(tree.n_visits[node]) or 1.0, 0.1), (3.0, -0.4)):
                wide = tree._pick_wide(node, s, k, kids, q_node, parent_n, cfg)
                small = tree._pick_small(node, s, k, kids, q_node, parent_n, cfg)
                compared += 1
                if wide[:2] != small[:2]:
                    differ += 1
                    continue
                assert small[2] == wide[2] and small[3] == pytest.approx(wide[3], abs=1e-5)
    assert compared > 500 and differ <= compared // 1000, (compared, differ)


def test_connect4_endgames_are_played_perfectly_though_the_network_prefers_the_losing_moves():
    """From SOLVE_EMPTIES + 1 empty cells every position after a root move is solved by the game
    at once, so a short search must choose an optimal move even when the network puts almost
    no prior on the optimal moves (a zugzwang the network cannot see, say)."""
    import random

    from conftest import quiet_moves

    import games.connect4 as c4
    game = get_game("connect4")
    rng = random.Random(2)
    checked = 0
    while checked < 40:
        s = game.initial_state()
        while 42 - len(s.moves) > c4.SOLVE_EMPTIES + 1 and not s.is_terminal():
            s = s.apply(rng.choice(quiet_moves(s) or s.legal_actions()))
        if s.is_terminal() or s.proven_value() is not None:
            continue
        values = {a: (1.0 if s.apply(a).is_terminal() else -s.apply(a).proven_value()) for a in s.legal_actions()}
        optimal = {a for a, v in values.items() if v == max(values.values())}
        if len(optimal) == len(values):
            continue   # every move is as good: nothing to get wrong
        tree = Tree(s)
        MCTS(MisguidedPriors(optimal), SearchConfig()).search([tree], 30)
        assert best(tree) in optimal, s.to_text()
        assert tree.root_result() == max(values.values())
        checked += 1


def test_othello_search_plays_the_solvers_result_near_the_end():
    """With the endgame solver on (the default), an 8x8 search with a handful of visits knows
    the exact result of a position with 12 or fewer empty squares and plays a best move."""
    import games.othello as othello_module
    assert othello_module.SOLVE_EMPTIES >= 8
    game = get_game("othello")
    rng = np.random.default_rng(5)
    checked = 0
    while checked < 12:
        state = game.initial_state()
        while not state.is_terminal() and game.cells - sum(state.discs()) > 8:
            legal = state.legal_actions()
            state = state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal() or len(state.legal_actions()) < 2:
            continue
        exact = {a: -othello_module.solve(game, *_sides(state.apply(a))) for a in state.legal_actions()}
        tree = search(state, 40)
        assert tree.root_result() == max(exact.values()), state.to_text()
        assert exact[best(tree)] == max(exact.values()), state.to_text()
        checked += 1


def _sides(state):
    """(side to move's discs, opponent's) of an othello position."""
    return state._me, state._opp


class RecordsCollector(UniformEvaluator):
    """Uniform priors; notes whether the garbage collector was on at each call, and can fail."""

    def __init__(self, fail: bool = False):
        super().__init__()
        self.seen: list[bool] = []
        self.fail = fail

    def evaluate(self, states, legal):
        import gc
        self.seen.append(gc.isenabled())
        if self.fail:
            raise RuntimeError("the evaluator failed")
        return super().evaluate(states, legal)


@pytest.mark.parametrize("was_on", [True, False])
def test_the_collector_is_paused_during_a_search_and_left_as_it_was(was_on):
    import gc
    state = get_game("tictactoe").initial_state()
    (gc.enable if was_on else gc.disable)()
    try:
        ev = RecordsCollector()
        MCTS(ev, SearchConfig(leaf_batch=2)).search([Tree(state)], 30)
        assert ev.seen and not any(ev.seen)
        assert gc.isenabled() == was_on
        with pytest.raises(RuntimeError):
            MCTS(RecordsCollector(fail=True)).search([Tree(state)], 30)
        assert gc.isenabled() == was_on
    finally:
        gc.enable()


def test_overlapping_searches_turn_the_collector_back_on_once_the_last_ends():
    import gc
    import threading
    from engine.core.mcts import collector_paused
    gc.enable()
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()

    def first():
        with collector_paused():
            first_in.set()
            second_in.wait(5)
        first_out.set()

    worker = threading.Thread(target=first)
    worker.start()
    first_in.wait(5)
    with collector_paused():   # starts while the first runs and ends after it
        second_in.set()
        first_out.wait(5)
        assert not gc.isenabled()
    worker.join()
    assert gc.isenabled()
