"""The compiled Connect Four core (games/_connect4_c.c) against its reference, the Python in games/connect4.py.

Every comparison is exact: a disagreement on one position fails. The positions come from uniformly
random games played to their end (wins of either side and full-board draws among them) and cut at
every length, and from random boards no game reaches. The distance solver is compared on its
answer and on the positions it counts against its budget, so a bounded solve must stop where the
reference stops. The tests that need the compiled module skip when it is not built; the fallback
tests run everywhere.
"""
from __future__ import annotations

import random
from contextlib import contextmanager

import numpy as np
import pytest

from native_support import check_forced_python, check_silent, check_stale_refused, check_unbuilt

import games.connect4 as c4
from games import get_game

try:
    from games import _connect4_c as core
except ImportError:
    core = None

needs_core = pytest.mark.skipif(core is None, reason="the compiled Connect Four core is not built here (no C "
                                                     "compiler when the project was installed): only the Python "
                                                     "rules run")
GAME = get_game("connect4")


@contextmanager
def rules(module):
    """games.connect4's functions and states use ``module`` (the compiled core, or None: the Python)."""
    saved = c4._core
    c4._core = module
    try:
        yield
    finally:
        c4._core = saved


def random_games(count: int, seed: int, long: bool = False) -> list[list[int]]:
    """The column lists of ``count`` uniformly random games played to their end (Python rules);
    ``long``: each side makes four only where every move does, so that games last longer and
    some fill the board (about one in nine ends drawn)."""
    rng, out = random.Random(seed), []
    with rules(None):
        for _ in range(count):
            s, moves = GAME.initial_state(), []
            while not s.is_terminal():
                actions = s.legal_actions()
                if long:
                    actions = [a for a in actions if s.apply(a).winner() is None] or actions
                a = rng.choice(actions)
                moves.append(a)
                s = s.apply(a)
            out.append(moves)
    return out


def endgames(empties: int, count: int, seed: int) -> list:
    """States of random games cut with ``empties`` empty cells left, nobody having won."""
    rng, out = random.Random(seed), []
    with rules(None):
        while len(out) < count:
            s = GAME.initial_state()
            while not s.is_terminal() and c4.CELLS - s._mask.bit_count() > empties:
                s = s.apply(rng.choice(s.legal_actions()))
            if not s.is_terminal():
                out.append(s)
    return out


def long_endgames(empties, count: int, seed: int) -> list:
    """States of ``count`` long random games (`random_games` with ``long``) cut at each of the
    ``empties`` counts of empty cells where nobody has won yet: endgames a solve must search."""
    out = []
    with rules(None):
        for moves in random_games(count, seed, long=True):
            s = GAME.initial_state()
            for a in moves:
                if c4.CELLS - s._mask.bit_count() in empties:
                    out.append(s)
                s = s.apply(a)
    return out


def planes(x: np.ndarray) -> tuple:
    return x.dtype.str, x.shape, x.flags.writeable, x.tobytes()


def observe(state) -> tuple:
    """Everything the rules say about a position through the state API (the solvers at the last
    `SOLVE_EMPTIES` empty cells, the shortcuts before them)."""
    return (state.key(), state.legal_actions(), state.is_terminal(), state.winner(), state.current_player,
            planes(state.encode()), state.proven_value(), state.proven_distance(), state.perft_counts(3),
            state.board_array().tolist(), state.to_text())


@needs_core
def test_random_games_agree_on_every_position(monkeypatch):
    """Every position of 300 random games (a third of them long, some drawn) through the state
    API, played on both paths in step (the exact solvers at the last 10 empty cells)."""
    monkeypatch.setattr(c4, "SOLVE_EMPTIES", 10)
    positions, ends = 0, {"won": 0, "draw": 0}
    for moves in random_games(200, seed=1) + random_games(100, seed=11, long=True):
        with rules(None):
            ref = GAME.initial_state()
        with rules(core):
            fast = GAME.initial_state()
        for i, a in enumerate(moves + [None]):
            with rules(None):
                want = observe(ref)
            with rules(core):
                got = observe(fast)
            assert got == want, moves[:i]
            positions += 1
            if a is None:
                ends["draw" if want[3] is None else "won"] += 1
                break
            with rules(None):
                ref = ref.apply(a)
            with rules(core):
                fast = fast.apply(a)
    assert positions > 8000 and ends["won"] > 250 and ends["draw"] >= 5, (positions, ends)


def random_board(rng: random.Random) -> tuple[int, int]:
    """(stones, mask): columns filled to random heights and a random subset of them, from nearly
    empty to full; most are boards no game reaches (fours of both sides, more of one side)."""
    mask = stones = 0
    density = rng.random()
    for c in range(c4.WIDTH):
        for r in range(rng.randint(0, c4.HEIGHT)):
            mask |= 1 << (c * c4.STRIDE + r)
            if rng.random() < density:
                stones |= 1 << (c * c4.STRIDE + r)
    return stones, mask


@needs_core
def test_fours_winning_cells_and_shortcuts_agree_on_random_boards(monkeypatch):
    """`has_four`, `winning_cells` (also against a mask of scattered cells) and the shortcut of
    `proven_value` (a win at once, two threats) on random boards."""
    monkeypatch.setattr(c4, "SOLVE_EMPTIES", 0)
    rng = random.Random(2)
    seen = {"four": 0, "cells": 0, "win": 0, "threats": 0}
    for _ in range(20_000):
        stones, mask = random_board(rng)
        scattered = rng.getrandbits(64) & c4.BOARD
        for bits in (stones, mask ^ stones, scattered):
            assert core.has_four(bits) == c4.has_four(bits), bits
            seen["four"] += c4.has_four(bits)
        for s, m in ((stones, mask), (mask ^ stones, mask), (stones, scattered | stones)):
            want = c4.winning_cells(s, m)
            assert core.winning_cells(s, m) == want, (s, m)
            seen["cells"] += want != 0
        with rules(None):
            want = c4.Connect4State(GAME, stones, mask).proven_value()
        assert core.shortcut(stones, mask) == (0 if want is None else int(want)), (stones, mask)
        if want is not None:
            seen["win" if want > 0 else "threats"] += 1
    assert seen["four"] > 2000 and seen["cells"] > 2000 and seen["win"] > 1000 and seen["threats"] > 50, seen


@needs_core
def test_moves_and_planes_agree_on_random_boards():
    """A stone in every open column (the new position and whether it made four) and the planes,
    on random boards."""
    rng = random.Random(3)
    won = 0
    for _ in range(5000):
        stones, mask = random_board(rng)
        s = c4.Connect4State(GAME, stones, mask)
        with rules(None):
            want_planes = planes(s.encode())
            children = [s.apply(a) for a in s.legal_actions()]
        with rules(core):
            assert planes(s.encode()) == want_planes, (stones, mask)
            for a, child in zip(s.legal_actions(), children):
                assert core.play(stones, mask, a) == (child._cur, child._mask, child._winner is not None)
                won += child._winner is not None
    assert won > 1000


@needs_core
def test_the_win_draw_loss_solver_agrees_on_random_endgames():
    """`solve` on endgames of 1-20 empty cells, both tables cleared before every other solve
    and kept otherwise: the same result each time."""
    results, compared = {-1: 0, 0: 0, 1: 0}, 0
    for empties in range(1, 21):
        for i, s in enumerate(endgames(empties, 40 if empties <= 16 else 12, seed=100 + empties)):
            if i % 2:
                c4.clear_solved()
            with rules(None):
                want = c4.solve(s._cur, s._mask)
            with rules(core):
                got = c4.solve(s._cur, s._mask)
            assert got == want, s.to_text()
            results[want] += 1
            compared += 1
    assert compared == 16 * 40 + 4 * 12 and min(results.values()) > 20, results


@needs_core
def test_the_solver_agrees_on_the_positions_of_a_game_one_after_another_with_its_table_kept():
    """As a search asks: every position of random games from 20 empty cells to the end, solved
    in turn with both tables kept, so bounds stored under one window are read under another."""
    c4.clear_solved()
    compared = 0
    for moves in random_games(100, seed=4, long=True):
        with rules(None):
            s = GAME.initial_state()
            for a in moves:
                if c4.CELLS - s._mask.bit_count() <= 20:
                    assert core.solve(s._cur, s._mask) == c4.solve(s._cur, s._mask), s.to_text()
                    compared += 1
                s = s.apply(a)
    assert compared > 1000


def python_distance(s, budget: int, monkeypatch) -> tuple:
    """(the reference's answer or "exceeded", the positions it counted)."""
    counters = []
    real = c4._count

    def counting(counter):
        counters.append(counter)
        real(counter)

    monkeypatch.setattr(c4, "_count", counting)
    try:
        with rules(None):
            try:
                answer = c4.solve_distance(s._cur, s._mask, budget)
            except c4.SolveBudgetExceeded:
                answer = "exceeded"
    finally:
        monkeypatch.setattr(c4, "_count", real)
    return answer, budget - counters[0][0] if counters else 0


@needs_core
def test_the_distance_solver_gives_the_same_answer_and_counts_the_same_positions_at_every_budget(monkeypatch):
    """`solve_distance` at budgets from none to plenty on endgames of 2-20 empty cells: the same
    (result, plies), or the same `SolveBudgetExceeded`, and the same positions counted either way."""
    outcomes = {"solved": 0, "exceeded": 0, "win": 0, "loss": 0, "draw": 0}
    for empties in range(2, 21):
        for s in endgames(empties, 6, seed=200 + empties):
            for budget in (0, 1, 3, 20, 150, 1_000, 8_000, 200_000):
                want, counted = python_distance(s, budget, monkeypatch)
                found, left = core.solve_distance(s._cur, s._mask, budget)
                assert (found or "exceeded", budget - left) == (want, counted), (budget, s.to_text())
                with rules(core):
                    try:
                        assert c4.solve_distance(s._cur, s._mask, budget) == want
                    except c4.SolveBudgetExceeded:
                        assert want == "exceeded"
                outcomes["exceeded" if want == "exceeded" else "solved"] += 1
                if want != "exceeded":
                    outcomes[{1: "win", 0: "draw", -1: "loss"}[want[0]]] += 1
    assert min(outcomes.values()) > 50, outcomes


@needs_core
def test_a_bounded_distance_solve_gives_up_at_the_same_position_as_the_reference(monkeypatch):
    """With exactly the positions a solve needs it succeeds on both paths; with one fewer it
    gives up on both (the budget's edge, found on positions of 10-18 empty cells)."""
    edges = 0
    for empties in range(8, 21):
        for s in endgames(empties, 12, seed=300 + empties):
            (found, left) = core.solve_distance(s._cur, s._mask, 10**9)
            needed = 10**9 - left
            if needed == 0:
                continue
            assert python_distance(s, needed, monkeypatch) == (found, needed), s.to_text()
            assert python_distance(s, needed - 1, monkeypatch)[0] == "exceeded", s.to_text()
            assert core.solve_distance(s._cur, s._mask, needed) == (found, 0)
            assert core.solve_distance(s._cur, s._mask, needed - 1) == (None, -1)
            edges += 1
    assert edges > 40


@needs_core
def test_proven_distance_agrees_at_the_search_threshold():
    """`proven_distance` as the search calls it (the default `SOLVE_EMPTIES`, its default budget
    and a small one) on positions of random games around the threshold."""
    compared, unknown = 0, 0
    for empties in range(c4.SOLVE_EMPTIES - 2, c4.SOLVE_EMPTIES + 3):
        for s in endgames(empties, 10, seed=400 + empties):
            for budget in (200_000, 40):
                with rules(None):
                    want = s.proven_distance(budget)
                with rules(core):
                    assert s.proven_distance(budget) == want, (budget, s.to_text())
                compared += 1
                unknown += want is None
    assert compared == 100 and 0 < unknown < 100


@needs_core
def test_the_distance_solver_gives_the_published_scores_of_pascal_pons_benchmark_positions():
    """An outside reference: Pons' sets (benchmarks/connect4) score a position 22 less the winner's
    stones at the end with the winner fastest and the loser slowest (0 a draw, negative a loss),
    which `solve_distance` says as plies; every position with 20 empty cells or fewer agrees."""
    from pathlib import Path
    checked = 0
    for path in sorted((Path(__file__).resolve().parent.parent / "benchmarks" / "connect4").glob("*.labels")):
        for line in path.read_text().splitlines():
            moves, score = line.split()[:2]
            played = len(moves)
            if c4.CELLS - played > 20:
                continue
            s = GAME.state_from_text(moves)
            (result, plies), _ = core.solve_distance(s._cur, s._mask, 10**7)
            mover_stones, other_stones = played // 2, (played + 1) // 2
            want = (0 if result == 0 else 22 - mover_stones - (plies + 1) // 2 if result > 0
                    else other_stones + plies // 2 - 22)
            assert want == int(score), (path.name, moves)
            checked += 1
    assert checked > 1800


@needs_core
def test_perft_agrees_to_depth():
    """Perft from the start (the published counts) and from positions of random games to depth,
    past the game's end included."""
    with rules(core):
        start = GAME.initial_state()
        assert start.perft_counts(7) == [7, 49, 343, 2401, 16807, 117649, 823536]
        assert start.perft_counts(0) == [] and start.perft_counts(-2) == []
    cases = [((), 8)]
    for moves in random_games(8, seed=5) + random_games(8, seed=5, long=True):
        for cut in (4, len(moves) // 2, len(moves) - 9, len(moves) - 3, len(moves)):
            empties = c4.CELLS - max(cut, 0)
            cases.append((moves[:max(cut, 0)], empties + 2 if empties <= 11 else 6))
    for moves, depth in cases:
        with rules(None):
            s = GAME.initial_state()
            for a in moves:
                s = s.apply(a)
            want = s.perft_counts(depth)
        with rules(core):
            assert s.perft_counts(depth) == want, (moves, depth)
    assert core.perft(0, c4.BOARD, 3) == [0, 0, 0]
    last_two = c4.BOARD ^ (1 << 5 | 1 << (c4.STRIDE + 5))   # two top cells left, deeper than the game
    assert core.perft(0, last_two, 60) == [2, 2] + [0] * 58


@needs_core
def test_searches_with_the_same_seed_give_the_same_visits(monkeypatch):
    """The search (proofs on: the solver at the last 12 empty cells) with a fixed evaluator that
    reads the planes: the same visit counts and values on both paths."""
    from engine.core.evaluators import BatchNetEvaluator
    from engine.core.mcts import MCTS, Tree
    monkeypatch.setattr(c4, "SOLVE_EMPTIES", 12)

    class PlanesEvaluator(BatchNetEvaluator):
        """Logits and values from fixed random weights on the input planes."""
        def __init__(self):
            super().__init__()
            weights = np.random.default_rng(5)
            self.w = weights.standard_normal((2 * c4.CELLS, c4.WIDTH)).astype(np.float32) * 0.3
            self.v = weights.standard_normal(2 * c4.CELLS).astype(np.float32) * 0.1

        def infer(self, x):
            flat = x.reshape(len(x), -1)
            return flat @ self.w, np.tanh(flat @ self.v)

    compared = 0
    for moves in random_games(3, seed=6):
        for cut in (4, len(moves) - 18, len(moves) - 12):
            results = []
            for module in (None, core):
                with rules(module):
                    c4.clear_solved()
                    s = GAME.initial_state()
                    for a in moves[:max(cut, 0)]:
                        s = s.apply(a)
                    tree = Tree(s)
                    MCTS(PlanesEvaluator(), seed=3).search([tree], 200)
                    counts = tree.visit_counts()
                    results.append((counts[0].tolist(), counts[1].tolist(), float(tree.root_n), tree.root_value()))
            assert results[0] == results[1], cut
            compared += 1
    assert compared == 9


@needs_core
def test_threads_solving_at_once_get_the_references_results():
    """Four threads solve (and now and then clear) at once through the shared table; solves of
    twelve empty cells or more run without the GIL, under the table's lock."""
    import threading
    positions = endgames(14, 30, seed=61) + endgames(18, 8, seed=62)
    with rules(None):
        want = [c4.solve(s._cur, s._mask) for s in positions]
    errors = []

    def solve_all(order):
        try:
            for round_ in range(3):
                for i in order:
                    s = positions[i]
                    if core.solve(s._cur, s._mask) != want[i]:
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
def test_bad_input_is_an_error_that_names_it_never_a_crash():
    top = 1 << (c4.HEIGHT - 1)            # column 0's top cell, with nothing under it
    cases = [
        (core.has_four, (-1,), ValueError, "stones"),
        (core.has_four, (1 << 6,), ValueError, "stones"),      # a sentinel bit
        (core.has_four, (1 << 64,), ValueError, "stones"),
        (core.has_four, ("x",), TypeError, "stones"),
        (core.winning_cells, (0, 1 << 49), ValueError, "mask"),
        (core.solve, (0, top), ValueError, "mask"),
        (core.solve, (2, 1), ValueError, "cur"),
        (core.solve, (None, 0), TypeError, "cur"),
        (core.play, (0, 0, 7), ValueError, "column"),
        (core.play, (0, 0, -1), ValueError, "column"),
        (core.play, (0, 0x3F, 0), ValueError, "column"),          # a full column
        (core.solve_distance, (0, 0, 1.5), TypeError, "integer"),
        (core.solve_distance, (0, 0, 1 << 70), OverflowError, "too big"),
        (core.perft, (0, 0), TypeError, "arguments"),
        (core.encode, (0, 1 << 6), ValueError, "mask"),
        (core.shortcut, (1, 0), ValueError, "cur"),
    ]
    for fn, args, error, word in cases:
        with pytest.raises(error, match=word):
            fn(*args)
    assert core.perft(0, 0, -3) == [] and core.solve(0, c4.BOARD) == 0
    assert core.solve_distance(0, c4.BOARD, 5) == ((0, 0), 5)
    # a budget the C cannot count runs the Python (the same answer)
    s = endgames(10, 1, seed=9)[0]
    with rules(None):
        want = c4.solve_distance(s._cur, s._mask)
    with rules(core):
        assert c4.solve_distance(s._cur, s._mask, 1 << 70) == want


@needs_core
def test_the_solvers_agree_on_finished_games_too():
    """The solvers are not meant for a position someone has won (the search never asks), yet
    given the last position of a won game both paths give the same answer (or would raise the
    same AssertionError where the distance solver finds no end)."""
    seen = {"answer": 0, "assertion": 0}
    for moves in random_games(300, seed=8, long=True):
        with rules(None):
            s = GAME.initial_state()
            for a in moves:
                s = s.apply(a)
        if s.winner() is None or c4.CELLS - len(moves) > 14:
            continue
        outcomes = []
        for module in (None, core):
            with rules(module):
                c4.clear_solved()
                try:
                    outcomes.append((c4.solve(s._cur, s._mask), c4.solve_distance(s._cur, s._mask)))
                except AssertionError as e:
                    outcomes.append(("AssertionError", str(e)))
        assert outcomes[0] == outcomes[1], s.to_text()
        seen["assertion" if outcomes[0][0] == "AssertionError" else "answer"] += 1
    assert seen["answer"] > 50, seen


# --- which path runs, and the fallback -------------------------------------------------------
PLAY = ("import games.connect4 as c; from games import get_game; "
        "s = get_game('connect4').state_from_text('4453326251'); "
        "print(c._core is None, s.legal_actions(), s.perft_counts(3), s.encode().sum(), s.apply(1).proven_value())")
PLAYED = "[0, 1, 2, 3, 4, 5, 6] [7, 42, 294] 10.0 None"


def test_the_switch_forces_the_python_rules_and_says_so_in_one_line():
    check_forced_python(PLAY, PLAYED)


def test_without_the_compiled_module_the_python_rules_run_and_say_so():
    check_unbuilt("games._connect4_c", PLAY, PLAYED, "Connect Four")


@needs_core
def test_the_compiled_core_runs_silently_when_built():
    check_silent(PLAY, PLAYED)


def test_a_connect4_build_from_other_sources_is_refused(monkeypatch, capsys):
    check_stale_refused("games._connect4_c", "Connect Four", monkeypatch, capsys)


def _within(module, s, budget: int, clear: bool = True):
    with rules(module):
        if clear:
            c4.clear_solved()
        return c4.solve_within(s._cur, s._mask, budget)


@pytest.mark.parametrize("module", [None, pytest.param("core", marks=needs_core)])
def test_a_bounded_solve_succeeds_with_the_positions_it_needs_and_gives_up_with_one_fewer(module):
    """`solve_within` on each path, its table cleared before each solve: with the positions it
    counted it finds `solve`'s result again, with one fewer it gives up ((None, -1)); and a solve
    cut short leaves no bound behind (the unbounded solve after it agrees with a fresh one)."""
    module = core if module == "core" else None
    edges = 0
    for s in long_endgames(range(6, 21, 2), 80, seed=400):
        with rules(None):
            c4.clear_solved()
            want = c4.solve(s._cur, s._mask)
        found, left = _within(module, s, 10**7)
        assert found == want, s.to_text()
        needed = 10**7 - left
        assert _within(module, s, needed) == (want, 0)
        if needed > 1:
            assert _within(module, s, needed - 1) == (None, -1)
            for part in (needed // 3, needed // 2):      # cut short, then solved on the same table
                _within(module, s, part)
                with rules(module):
                    assert c4.solve(s._cur, s._mask) == want, s.to_text()
            edges += 1
    assert _within(module, endgames(10, 1, seed=7)[0], -5) == (None, -1)
    assert edges > 50


@needs_core
def test_a_bounded_solve_gives_the_same_results_on_both_paths():
    """`solve_within` on endgames of 1-20 empty cells at budgets from none to plenty: whenever both
    paths finish their results agree with each other and with `solve`. (The positions they count
    may differ past a solve's first stored bound: the compiled table has fixed slots.)"""
    finished = {"both": 0, "neither": 0}
    for empties in range(1, 21):
        for s in endgames(empties, 8, seed=500 + empties):
            with rules(None):
                c4.clear_solved()
                want = c4.solve(s._cur, s._mask)
            for budget in (0, 10, 300, 5_000, 10**7):
                got = [_within(m, s, budget)[0] for m in (None, core)]
                for g in got:
                    assert g in (None, want), (budget, s.to_text())
                if None not in got:
                    finished["both"] += 1
                elif got == [None, None]:
                    finished["neither"] += 1
    assert min(finished.values()) > 40, finished


@pytest.mark.parametrize("module", [None, pytest.param("core", marks=needs_core)])
def test_every_moves_exact_result_is_its_child_solved(module):
    """`exact_result` is `solve`'s, and `exact_move_result` each move's result for the mover, as
    `solve` of the position after it says (a four at once 1, a full board 0); (None, -1) when the
    budget runs out."""
    module = core if module == "core" else None
    seen = {-1: 0, 0: 0, 1: 0}
    with rules(module):
        for empties in (3, 7, 12, 16):
            for s in endgames(empties, 10, seed=600 + empties):
                c4.clear_solved()
                assert s.exact_result(10**7)[0] == c4.solve(s._cur, s._mask)
                for a in s.legal_actions():
                    got, left = s.exact_move_result(a, 10**7)
                    assert 0 <= left <= 10**7
                    child = s.apply(a)
                    want = 1 if child.winner() is not None else 0 if child.is_terminal() else -c4.solve(child._cur, child._mask)
                    assert got == want, (a, s.to_text())
                    seen[got] += 1
                c4.clear_solved()
                if empties >= 12:
                    assert s.exact_result(0) == (None, -1)
        assert GAME.state_from_text("12345671").exact_result(50) == (None, -1)   # beyond the book
        assert GAME.state_from_text("4444").exact_result(0)[0] in (-1, 0, 1)       # in it: no solve
    assert min(seen.values()) > 10, seen


def test_the_opening_book_reads_its_own_format_and_refuses_anything_else():
    key = c4.book_key(*(lambda s: (s._cur, s._mask))(GAME.state_from_text("44")))
    good = f"{c4.BOOK_HEADER}\n# a comment\n{key:x} 1\n\n"
    assert c4.parse_book(good) == {key: 1}
    for bad in ("", "# another file\n", f"{c4.BOOK_HEADER}\n{key:x}\n", f"{c4.BOOK_HEADER}\n{key:x} 2\n",
                f"{c4.BOOK_HEADER}\nzz 1\n", f"{c4.BOOK_HEADER}\n{key:x} 1 extra\n",
                f"{c4.BOOK_HEADER}\n{1 << 49:x} 1\n", f"{c4.BOOK_HEADER}\n7f 1\n"):
        with pytest.raises(ValueError):
            c4.parse_book(bad)


def test_a_missing_or_damaged_book_is_no_book(monkeypatch, tmp_path, capsys):
    s = GAME.state_from_text("44")
    for text in (None, "not a book", f"{c4.BOOK_HEADER}\n12 x\n"):
        path = tmp_path / "book.txt"
        if text is not None:
            path.write_text(text)
        monkeypatch.setattr(c4, "BOOK_PATH", path if text is not None else tmp_path / "missing.txt")
        monkeypatch.setattr(c4, "_book", None)
        assert c4.book_result(s._cur, s._mask) is None
        assert "no opening book" in capsys.readouterr().err


def test_a_position_and_its_mirror_share_one_key():
    for text in ("1", "12", "3521", "713366"):
        s = GAME.state_from_text(text)
        m = GAME.state_from_text("".join(str(8 - int(ch)) for ch in text))
        assert c4.book_key(s._cur, s._mask) == c4.book_key(m._cur, m._mask)
        assert c4.mirror_key(s._cur + s._mask) == m._cur + m._mask


def book_tool():
    import importlib.util
    from pathlib import Path
    spec = importlib.util.spec_from_file_location("connect4_book", Path(__file__).resolve().parents[1] / "tools" / "connect4_book.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    return tool


def test_the_shipped_book_has_every_position_of_its_plies_each_the_best_of_its_moves():
    """The book holds every position of its five plies, and each result above the last ply is
    the best its moves lead to by the book itself (a four at once wins)."""
    book = c4.parse_book(c4.BOOK_PATH.read_text(encoding="utf-8"))
    todo = book_tool().positions(5)
    assert {key for v in todo.values() for key, *_ in v} == set(book)
    for ply in range(1, 5):
        for key, cur, mask, moves in todo[ply]:
            s = GAME.state_from_text(moves)
            best = -1
            for a in s.legal_actions():
                c = s.apply(a)
                best = max(best, 1 if c.winner() is not None else -book[c4.book_key(c._cur, c._mask)])
            assert book[key] == best, moves


@needs_core
def test_the_shipped_book_agrees_with_the_solver_where_a_solve_is_quick():
    """Every sixteenth position of the book's last ply solved again where the solver needs at most
    a million positions: the book's result each time."""
    book = c4.parse_book(c4.BOOK_PATH.read_text(encoding="utf-8"))
    checked = 0
    with rules(core):
        for key, cur, mask, moves in book_tool().positions(5)[5][::16]:
            c4.clear_solved()
            found, _ = c4.solve_within(cur, mask, 1_000_000)
            if found is not None:
                assert found == book[key], moves
                checked += 1
    assert checked >= 8, checked


def test_the_shipped_book_agrees_with_pascal_pons_solved_positions():
    """An outside check, never an input: every position of Pons' benchmark sets (benchmarks/connect4)
    short enough to be in the book has the result his perfect solver's score says."""
    from pathlib import Path
    book = c4.parse_book(c4.BOOK_PATH.read_text(encoding="utf-8"))
    checked = 0
    for path in sorted((Path(__file__).resolve().parent.parent / "benchmarks" / "connect4").glob("*.labels")):
        for line in path.read_text().splitlines():
            moves, score = line.split()[:2]
            s = GAME.state_from_text(moves)
            key = c4.book_key(s._cur, s._mask)
            if len(moves) <= 5:
                assert book[key] == (int(score) > 0) - (int(score) < 0), moves
                checked += 1
    assert checked >= 50, checked   # 43 of four plies and 12 of five


def test_the_book_tool_finds_every_position_of_the_first_plies_once_with_its_mirror():
    """Its positions, each with its mirror image, are the distinct positions after 1-5 plies: 7, 49,
    238, 1,120 and 4,263 (OEIS A212693, counted again here by playing every move)."""
    todo = book_tool().positions(5)
    level = {(0, 0): GAME.initial_state()}
    for ply, published in zip(range(1, 6), (7, 49, 238, 1120, 4263)):
        level = {(c._cur, c._mask): c for s in level.values() for c in (s.apply(a) for a in s.legal_actions())}
        keys = {c4.book_key(cur, mask) for cur, mask in level}
        assert len(level) == published and keys == {key for key, *_ in todo[ply]}
        for key, cur, mask, moves in todo[ply][::50]:   # each line's moves reach its position
            s = GAME.state_from_text(moves)
            assert c4.book_key(s._cur, s._mask) == key == c4.book_key(cur, mask)
