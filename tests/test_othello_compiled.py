"""The compiled othello core (games/_othello_c.c) against its reference, the Python in games/othello.py.

Every comparison is exact: a disagreement on one position fails. The positions come from random
games on the 4x4, 6x6 and 8x8 boards played to their end (passes and games ending with squares
left among them, which the tests require), and from random boards no game reaches. The margin
solver is compared on its value and on the budget it leaves, so a bounded solve must stop where
the reference stops. The tests that need the compiled module skip when it is not built; the
fallback tests run everywhere.
"""
from __future__ import annotations

import random
from contextlib import contextmanager

import numpy as np
import pytest

from native_support import check_forced_python, check_silent, check_stale_refused, check_unbuilt, run_python

import games.othello as oth
from games import get_game

try:
    from games import _othello_c as core
except ImportError:
    core = None

needs_core = pytest.mark.skipif(core is None, reason="the compiled othello core is not built here (no C compiler "
                                                     "when the project was installed): only the Python rules run")
SIZES = (4, 6, 8)


@contextmanager
def rules(module):
    """games.othello's functions and states use ``module`` (the compiled core, or None: the Python)."""
    saved = oth._core
    oth._core = module
    try:
        yield
    finally:
        oth._core = saved


def random_games(size: int, count: int, seed: int) -> list[list[int]]:
    """The action lists of ``count`` uniformly random games played to their end (Python rules)."""
    game = get_game("othello", size=size)
    rng, out = random.Random(seed), []
    with rules(None):
        for _ in range(count):
            s, moves = game.initial_state(), []
            while not s.is_terminal():
                a = rng.choice(s.legal_actions())
                moves.append(a)
                s = s.apply(a)
            out.append(moves)
    return out


def planes(x: np.ndarray) -> tuple:
    return x.dtype.str, x.shape, x.flags.writeable, x.tobytes()


def observe(state) -> tuple:
    """Everything the rules say about a position through the state API (the solver only near the end)."""
    return (state.key(), state.legal_mask(), state.legal_actions(), state.is_terminal(), state.winner(),
            state.end_reason(), state.discs(), planes(state.encode()), state.proven_value(),
            state.perft_counts(2), state.board_array().tolist())


def play_in_step(game, moves: list[int]) -> tuple[int, set]:
    """Plays ``moves`` on both paths at once, comparing every position: (positions compared, end reasons)."""
    with rules(None):
        ref = game.initial_state()
    with rules(core):
        fast = game.initial_state()
    for i, a in enumerate(moves + [None]):
        with rules(None):
            want = observe(ref)
        with rules(core):
            got = observe(fast)
        assert got == want, (game.size, moves[:i])
        if a is None:
            return len(moves) + 1, {want[5]}
        with rules(None):
            ref = ref.apply(a)
        with rules(core):
            fast = fast.apply(a)


@needs_core
@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_on_every_position(size, monkeypatch):
    """Every position of random games, through the state API (the win/draw/loss solver at the
    last eight empty squares, the wipe-out and last-square shortcut before them)."""
    monkeypatch.setattr(oth, "SOLVE_EMPTIES", 8)
    game = get_game("othello", size=size)
    positions, ends, passes = 0, set(), 0
    for moves in random_games(size, {4: 200, 6: 60, 8: 25}[size], seed=size):
        n, end = play_in_step(game, moves)
        positions += n
        ends |= end
        passes += moves.count(game.pass_action)
    assert passes and "full board" in ends and (size == 8 or "no moves" in ends)
    assert positions > {4: 2000, 6: 1500, 8: 1400}[size]


def random_board(game, rng: random.Random) -> tuple[int, int]:
    """Two disjoint random disc sets, from nearly empty to nearly full: boards no game reaches."""
    density = rng.random()
    me = opp = 0
    for sq in range(game.cells):
        if rng.random() < density:
            if rng.random() < 0.5:
                me |= 1 << sq
            else:
                opp |= 1 << sq
    return me, opp


@needs_core
@pytest.mark.parametrize("size", SIZES)
def test_moves_and_flips_agree_on_every_square_of_random_boards(size):
    """Move masks for both sides and the flips of every square, occupied ones included (the
    reference computes them regardless), on random boards; and the made move's position."""
    game = get_game("othello", size=size)
    rng = random.Random(40 + size)
    flipped = 0
    for _ in range(600):
        me, opp = random_board(game, rng)
        for a, b in ((me, opp), (opp, me)):
            assert core.move_mask(size, a, b) == oth.move_mask(a, b, game.full, game.shifts), (a, b)
            for sq in range(game.cells):
                f = oth.flips(a, b, sq, game.up_rays, game.down_rays)
                assert core.flips(size, a, b, sq) == f, (a, b, sq)
                assert core.play(size, a, b, sq) == (b ^ f, a | f | 1 << sq)
                flipped += f != 0
    assert flipped > {4: 4000, 6: 10_000, 8: 20_000}[size]


@needs_core
@pytest.mark.parametrize("size", SIZES)
def test_encodings_and_wins_at_once_agree_on_random_boards(size):
    game = get_game("othello", size=size)
    rng = random.Random(50 + size)
    wins = 0
    for _ in range(1000):
        me, opp = random_board(game, rng)
        states = []
        for module in (None, core):
            with rules(module):
                s = oth.OthelloState(game, me, opp, rng.randrange(2) if module is None else states[0][0])
                states.append((s.current_player, planes(s.encode()), s.legal_actions(), s.is_terminal(),
                               core.wins_at_once(size, me, opp) if module else _python_wins_at_once(s)))
        assert states[0] == states[1], (me, opp)
        wins += states[0][4]
    assert wins > 10


def _python_wins_at_once(state) -> bool:
    """The shortcut of `proven_value`, Python path, without the solver."""
    saved = oth.SOLVE_EMPTIES
    oth.SOLVE_EMPTIES = 0
    try:
        return state.proven_value() == 1.0
    finally:
        oth.SOLVE_EMPTIES = saved


def endgames(size: int, empties: int, count: int, seed: int) -> list:
    """States of random games cut with ``empties`` empty squares left (the side to move still has a game)."""
    game = get_game("othello", size=size)
    rng, out = random.Random(seed), []
    with rules(None):
        while len(out) < count:
            s = game.initial_state()
            while not s.is_terminal() and (game.full ^ (s._me | s._opp)).bit_count() > empties:
                s = s.apply(rng.choice(s.legal_actions()))
            if not s.is_terminal():
                out.append(s)
    return out


@needs_core
def test_the_win_draw_loss_solver_agrees_on_random_endgames():
    """`solve` on endgames with 1-12 empty squares (8x8) and up to the whole 4x4 and 6x6 games'
    ends, the Python's table cleared and kept, the C's too: the same result each time."""
    results, compared = set(), 0
    for size, most, per in ((8, 12, 6), (6, 14, 4), (4, 12, 6)):
        game = get_game("othello", size=size)
        for empties in range(1, most + 1):
            for i, s in enumerate(endgames(size, empties, per, seed=100 * size + empties)):
                if i % 2:
                    oth._SOLVED.clear()
                    core.solve_clear()
                with rules(None):
                    want = oth.solve(game, s._me, s._opp)
                with rules(core):
                    got = oth.solve(game, s._me, s._opp)
                assert got == want, (size, s.to_text())
                results.add(want)
                compared += 1
    assert results == {-1, 0, 1} and compared == 12 * 6 + 14 * 4 + 12 * 6


@needs_core
def test_the_solver_agrees_on_the_positions_of_a_game_one_after_another_with_its_table_kept():
    """As a search asks: every position of random games from 12 (6x6) or 10 (8x8) empty squares
    to the end, solved in turn with both tables kept, so bounds stored under one window are read
    under another (a bound stored on the wrong side shows up here)."""
    compared = 0
    oth._SOLVED.clear()
    core.solve_clear()
    for size, start, count in ((6, 12, 160), (8, 10, 30)):
        game = get_game("othello", size=size)
        for moves in random_games(size, count, seed=900 + size):
            with rules(None):
                s = game.initial_state()
                for a in moves:
                    if (game.full ^ (s._me | s._opp)).bit_count() <= start:
                        assert core.solve(size, s._me, s._opp) == oth.solve(game, s._me, s._opp), s.to_text()
                        compared += 1
                    s = s.apply(a)
    assert compared > 2000


@needs_core
def test_the_solver_is_right_on_a_finished_game_and_a_board_no_game_reaches():
    rng = random.Random(7)
    for size in SIZES:
        game = get_game("othello", size=size)
        for _ in range(300):
            me, opp = random_board(game, rng)
            if (game.full ^ (me | opp)).bit_count() <= 9:
                with rules(None):
                    want = oth.solve(game, me, opp)
                assert core.solve(size, me, opp) == want, (size, me, opp)


@needs_core
def test_threads_solving_at_once_get_the_references_results():
    """Four threads solve (and now and then clear) at once through the shared table; solves of
    ten empty squares or more run without the GIL, under the table's lock: the reference's
    results, and nothing hangs. (Without the lock this still passed: a race is too rare here.)"""
    import threading
    positions = endgames(6, 12, 30, seed=61) + endgames(8, 11, 8, seed=62)
    with rules(None):
        want = [oth.solve(s.game, s._me, s._opp) for s in positions]
    errors = []

    def solve_all(order):
        try:
            for round_ in range(3):
                for i in order:
                    s = positions[i]
                    if core.solve(s.game.size, s._me, s._opp) != want[i]:
                        errors.append(s.to_text())
                if round_ == 1:
                    core.solve_clear()
        except Exception as e:   # noqa: BLE001  (reported below)
            errors.append(repr(e))

    orders = [random.Random(k).sample(range(len(positions)), len(positions)) for k in range(4)]
    threads = [threading.Thread(target=solve_all, args=(o,)) for o in orders]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not any(t.is_alive() for t in threads) and errors == []


@needs_core
def test_the_margin_solver_gives_the_same_margin_and_budget_left_at_every_budget():
    """`solve_margin` at budgets from one position to plenty: the same margin, or the same
    `SolveBudgetExceeded`, and the same count left in the shared counter either way."""
    outcomes = {"solved": 0, "exceeded": 0}
    for size, empties_range, per in ((8, range(1, 11), 4), (6, range(1, 11), 3), (4, range(1, 12), 3)):
        game = get_game("othello", size=size)
        for empties in empties_range:
            for s in endgames(size, empties, per, seed=300 * size + empties):
                for budget in (0, 1, 7, 60, 500, 4_000, 30_000, 200_000):
                    seen = []
                    for module in (None, core):
                        counter = [budget]
                        with rules(module):
                            try:
                                seen.append((oth.solve_margin(game, s._me, s._opp, counter), counter[0]))
                            except oth.SolveBudgetExceeded:
                                seen.append(("exceeded", counter[0]))
                    assert seen[0] == seen[1], (size, budget, s.to_text())
                    outcomes["exceeded" if seen[0][0] == "exceeded" else "solved"] += 1
    assert min(outcomes.values()) > 100, outcomes


@needs_core
def test_exact_move_margins_agree_with_their_shared_budget():
    """Each move's margin (`exact_move_margins`, one budget shared by the moves' solves): the
    same margins, or None on both paths when the budget runs out part-way."""
    found = {"margins": 0, "none": 0}
    for size in SIZES:
        for s in endgames(size, min(10, size * size - 5), 12, seed=500 + size):
            for budget in (50, 2_000, 200_000):
                with rules(None):
                    want = s.exact_move_margins(budget)
                with rules(core):
                    got = s.exact_move_margins(budget)
                assert got == want, (size, budget, s.to_text())
                found["none" if want is None else "margins"] += 1
    assert min(found.values()) >= 5, found


@needs_core
def test_perft_agrees_to_depth_through_passes_and_ends():
    """Perft from the starts (the 4x4 game to its very end and past it) and from positions
    of random games; the published 8x8 counts too."""
    cases = [(4, None, 16), (6, None, 6), (8, None, 6)]
    for size in SIZES:
        for moves in random_games(size, 2, seed=600 + size):
            for cut in (len(moves) // 3, len(moves) // 2, len(moves) - 8):
                cases.append((size, moves[:max(cut, 0)], {4: 12, 6: 5, 8: 4}[size]))
    for size, moves, depth in cases:
        game = get_game("othello", size=size)
        with rules(None):
            s = game.initial_state()
            for a in moves or ():
                s = s.apply(a)
            want = s.perft_counts(depth)
        with rules(core):
            assert s.perft_counts(depth) == want, (size, moves, depth)
            assert s.perft_counts(0) == [] and s.perft_counts(-3) == []
    with rules(core):
        start = get_game("othello").initial_state()
        assert start.perft_counts(7) == [4, 12, 56, 244, 1396, 8200, 55092]


@needs_core
def test_random_playouts_play_the_same_games():
    from engine.core.evaluators import RolloutEvaluator  # noqa: F401  (the playout's caller)
    for size in SIZES:
        game = get_game("othello", size=size)
        for moves in random_games(size, 3, seed=700 + size):
            s = game.initial_state()
            for a in moves[: len(moves) // 2]:
                s = s.apply(a)
            for seed in range(20):
                results = []
                for module in (None, core):
                    with rules(module):
                        rng = random.Random(seed)
                        results.append((s.random_playout(rng, 200), s.random_playout(rng, 5), rng.random()))
                assert results[0] == results[1], (size, seed)


@needs_core
def test_searches_with_the_same_seed_give_the_same_visits(monkeypatch):
    """The search (proofs on: the solver at the last 10 empty squares) with a fixed evaluator that
    reads the planes: the same visit counts and values on both paths."""
    from engine.core.evaluators import BatchNetEvaluator
    from engine.core.mcts import MCTS, Tree
    monkeypatch.setattr(oth, "SOLVE_EMPTIES", 10)

    class PlanesEvaluator(BatchNetEvaluator):
        """Logits and values from fixed random weights on the input planes."""
        def __init__(self, game):
            super().__init__()
            weights = np.random.default_rng(5)
            self.w = weights.standard_normal((3 * game.cells, game.action_size)).astype(np.float32) * 0.3
            self.v = weights.standard_normal(3 * game.cells).astype(np.float32) * 0.1

        def infer(self, planes):
            flat = planes.reshape(len(planes), -1)
            return flat @ self.w, np.tanh(flat @ self.v)

    compared = 0
    for size, seed in ((8, 31), (6, 32)):
        game = get_game("othello", size=size)
        for moves in random_games(size, 2, seed):
            for cut in (len(moves) // 3, len(moves) - 16, len(moves) - 9):
                results = []
                for module in (None, core):
                    with rules(module):
                        s = game.initial_state()
                        for a in moves[:cut]:
                            s = s.apply(a)
                        tree = Tree(s)
                        MCTS(PlanesEvaluator(game), seed=3).search([tree], 200)
                        counts = tree.visit_counts()
                        results.append((counts[0].tolist(), counts[1].tolist(), float(tree.root_n),
                                        tree.root_value()))
                assert results[0] == results[1], (size, cut)
                compared += 1
    assert compared == 12


@needs_core
def test_bad_input_is_an_error_that_names_it_never_a_crash():
    cases = [
        (core.move_mask, (1, 0, 0), ValueError, "size"),
        (core.move_mask, (9, 0, 0), ValueError, "size"),
        (core.move_mask, (8, -1, 0), ValueError, "me"),
        (core.move_mask, (6, 0, 1 << 36), ValueError, "opp"),
        (core.move_mask, (8, 0, 1 << 64), ValueError, "opp"),
        (core.move_mask, (8, 0.5, 0), TypeError, "me"),
        (core.flips, (8, 0, 0, 64), ValueError, "square"),
        (core.play, (4, 0, 0, -1), ValueError, "square"),
        (core.legal, (8, "x", 0), TypeError, "me"),
        (core.solve, (8, None, 0), TypeError, "me"),
        (core.solve_margin, (8, 0, 0, 1.5), TypeError, "integer"),
        (core.solve_margin, (8, 0, 0, 1 << 70), OverflowError, "too big"),
        (core.perft, (8, 0, 0), TypeError, "arguments"),
        (core.encode, (8, 0, 0, -2), ValueError, "legal"),
        (core.wins_at_once, (4, 1 << 16, 0), ValueError, "me"),
    ]
    for fn, args, error, word in cases:
        with pytest.raises(error, match=word):
            fn(*args)
    full = (1 << 64) - 1
    assert core.move_mask(8, full, 0) == 0 and core.perft(8, full, 0, 3) == [0, 0, 0]
    assert core.solve(8, full, 0) == 1 and core.solve_margin(8, 0, full, 5) == (-64, 4)
    # a budget the C cannot count runs the Python (the same answer), as does a float budget
    game = get_game("othello", size=4)
    s = endgames(4, 6, 1, seed=9)[0]
    with rules(None):
        want = oth.solve_margin(game, s._me, s._opp)
    with rules(core):
        assert oth.solve_margin(game, s._me, s._opp, 1 << 70) == want
        assert oth.solve_margin(game, s._me, s._opp, [10_000.0]) == want


# --- which path runs, and the fallback -------------------------------------------------------
PLAY = ("import games.othello as o; from games import get_game; "
        "s = get_game('othello').state_from_text('f5d6c3d3c4f4f6f3e6e7'); "
        "print(o._core is None, s.legal_actions(), s.perft_counts(3), s.encode().sum())")
PLAYED = "[10, 11, 12, 13, 14, 20, 30, 42, 51, 53, 59] [11, 134, 1433] 25.0"


def test_the_switch_forces_the_python_rules_and_says_so_in_one_line():
    check_forced_python(PLAY, PLAYED)


def test_without_the_compiled_module_the_python_rules_run_and_say_so():
    check_unbuilt("games._othello_c", PLAY, PLAYED, "othello")


@needs_core
def test_the_compiled_core_runs_silently_when_built():
    check_silent(PLAY, PLAYED)


def test_an_othello_build_from_other_sources_is_refused(monkeypatch, capsys):
    check_stale_refused("games._othello_c", "othello", monkeypatch, capsys)


THRESHOLD = "import games.othello as o; print(o.SOLVE_EMPTIES)"


def threshold(pure: bool, value: str | None = None) -> int:
    """`SOLVE_EMPTIES` in a fresh interpreter on the Python or the compiled path, with
    ZEROBOARD_OTHELLO_SOLVE_EMPTIES set to ``value`` (None: empty, which keeps the default)."""
    env = {"ZEROBOARD_PURE_PYTHON": "1" if pure else ""}
    env["ZEROBOARD_OTHELLO_SOLVE_EMPTIES"] = "" if value is None else value
    out = run_python(THRESHOLD, **env)
    assert out.returncode == 0, out.stderr
    return int(out.stdout.split()[-1])


def test_the_python_solver_keeps_the_old_threshold_and_clamp():
    """Without the compiled solver (about a hundred times dearer) positions are solved from 12
    empty squares, and the environment may raise that to 16 at most; 0 switches it off, a value
    that is not a number keeps the default."""
    assert threshold(pure=True) == 12
    assert threshold(pure=True, value="99") == 16
    assert threshold(pure=True, value="0") == 0
    assert threshold(pure=True, value="lots") == 12


@needs_core
def test_the_compiled_solver_may_be_asked_for_more_empty_squares():
    """With the compiled solver the default stays 12 (14 was tried and made the strong level's
    search too slow: docs/performance.md, "Othello's solver threshold"), but the environment may
    raise it to 20 (a cold solve of 20 empty squares takes up to about a second, as 16 does in
    the Python); 0 switches it off, a value that is not a number keeps the default."""
    assert threshold(pure=False) == 12
    assert threshold(pure=False, value="99") == 20
    assert threshold(pure=False, value="18") == 18
    assert threshold(pure=False, value="0") == 0
    assert threshold(pure=False, value="lots") == 12
