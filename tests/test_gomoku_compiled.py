"""The compiled gomoku core (games/_gomoku_c.c) against its reference, the Python in games/gomoku.py.

Every comparison is exact: a disagreement on one position fails. The positions come from random
games on several board sizes (5x5 to 26x26, one word and several words of bitboard), played until
they end (five in a row, or a full board on the small sizes), with moves drawn near the centre or
next to the stones so that fours, threes and threat sequences occur. The tests that need the
compiled module skip when it is not built; the fallback tests run everywhere.
"""
from __future__ import annotations

import random
from contextlib import contextmanager

import numpy as np
import pytest

from native_support import check_forced_python, check_silent, check_stale_refused, check_unbuilt

import games.gomoku as gm
from engine.core.evaluators import BatchNetEvaluator
from games import get_game

try:
    from games import _gomoku_c as core
except ImportError:
    core = None

needs_core = pytest.mark.skipif(core is None, reason="the compiled gomoku core is not built here (no C compiler "
                                                     "when the project was installed): only the Python rules run")
SIZES = (5, 6, 8, 9, 11, 15, 19, 26)


@contextmanager
def rules(module):
    """games.gomoku's states use ``module`` (the compiled core, or None: the Python) inside."""
    saved = gm._core
    gm._core = module
    try:
        yield
    finally:
        gm._core = saved


def pick(state, rng: random.Random, size: int) -> int:
    """A random move: most often next to a stone already played or near the centre, so that
    shapes and threats form; sometimes anywhere."""
    acts = state.legal_actions()
    if rng.random() < 0.15 or not state.moves:
        return rng.choice(acts)
    near = []
    for a in acts:
        r, c = divmod(a, size)
        if any(abs(r - m // size) <= 1 and abs(c - m % size) <= 1 for m in state.moves[-6:]):
            near.append(a)
    return rng.choice(near or acts)


def random_games(size: int, count: int, seed: int, rule: str = "freestyle") -> list[list[int]]:
    """The move lists of ``count`` random games played to their end (Python rules)."""
    game = get_game("gomoku", size=size, rule=rule)
    rng, out = random.Random(seed), []
    with rules(None):
        for _ in range(count):
            s, moves = game.initial_state(), []
            while not s.is_terminal():
                a = pick(s, rng, size)
                moves.append(a)
                s = s.apply(a)
            out.append(moves)
    return out


def observe(state, vct_budget: int = 300) -> tuple:
    """Everything the rules say about a position, through the state API."""
    return (state.key(), state._wins, state.moves, state.legal_actions(), state.is_terminal(), state.winner(),
            state.returns() if state.is_terminal() else None, planes(state.encode()), state.proven_value(),
            state.proven_plies() if not state.is_terminal() else None, state.tactical_priors(), state.vcf(),
            state.vcf(depth=3, budget=10), state.vct(budget=vct_budget), state.vct(threes=1, budget=40),
            state.defence_candidates(), state.board_array().tolist())


def planes(x: np.ndarray) -> tuple:
    return x.dtype.str, x.shape, x.flags.writeable, x.tobytes()


def play_in_step(size: int, moves: list[int], rule: str = "freestyle", look=observe) -> int:
    """Plays ``moves`` on both paths at once, comparing every position; the positions compared."""
    game = get_game("gomoku", size=size, rule=rule)
    with rules(None):
        ref = game.initial_state()
    with rules(core):
        fast = game.initial_state()
    for i, a in enumerate(moves + [None]):
        with rules(None):
            want = look(ref)
        with rules(core):
            got = look(fast)
        assert got == want, (size, rule, moves[:i])
        if a is None:
            break
        with rules(None):
            ref = ref.apply(a)
        with rules(core):
            fast = fast.apply(a)
    return len(moves) + 1


@needs_core
@pytest.mark.parametrize("size", SIZES)
def test_random_games_agree_on_every_position(size):
    count = {5: 60, 6: 60, 8: 40, 9: 30, 11: 16, 15: 12, 19: 6, 26: 3}[size]
    games = random_games(size, count, seed=size)
    seen = sum(play_in_step(size, m) for m in games)
    assert seen > 300
    # the games reach both ends: five in a row (either side) and, on the small boards, a full board
    finals = [get_game("gomoku", size=size).state_from_text(
        " ".join(get_game("gomoku", size=size).point_name(a) for a in m)) for m in games]
    winners = {s.winner() for s in finals}
    assert {0, 1} <= winners
    if size <= 6:
        assert None in winners


@needs_core
def test_the_threat_searches_are_exercised_and_agree():
    """Positions where the proofs find something: a VCF, a VCT and the opponent's threat found by
    the defence search, on both paths alike (budgets cut off in the middle included)."""
    found = {"vcf": 0, "vct": 0, "proven": 0, "cut": 0}
    for size, seed in ((15, 1), (9, 3), (19, 4)):
        for moves in random_games(size, 4, seed):
            game = get_game("gomoku", size=size)
            with rules(None):
                states = [game.initial_state()]
                for a in moves:
                    states.append(states[-1].apply(a))
            for s in states:
                if s.is_terminal():
                    continue
                me = len(s.moves) & 1
                for attacker in (me, 1 - me):
                    for threes, budget in ((0, 48), (3, 600), (2, 37), (4, 1500)):
                        with rules(None):
                            spent = [budget]
                            want = (s._vct_for(attacker, threes, spent), spent[0])
                        with rules(core):
                            spent = [budget]
                            got = (s._vct_for(attacker, threes, spent), spent[0])
                        assert got == want, (size, s.to_text(), attacker, threes, budget)
                        found["vcf" if threes == 0 else "vct"] += want[0] is not None
                        found["cut"] += want[1] < 0
                with rules(None):
                    found["proven"] += s.proven_value() is not None
    assert min(found.values()) >= 5, found


@needs_core
def test_threat_defence_agrees(monkeypatch):
    monkeypatch.setattr(gm, "DEFENCE_BUDGET", 400)
    monkeypatch.setattr(gm, "DEFENCE_TOTAL", 3000)
    answered = 0
    for moves in random_games(15, 6, seed=7):
        game = get_game("gomoku")
        with rules(None):
            states = [game.initial_state()]
            for a in moves:
                states.append(states[-1].apply(a))
        for s in states[8:]:
            with rules(None):
                want = s.threat_defence()
            with rules(core):
                got = s.threat_defence()
            assert got == want, s.to_text()
            answered += want is not None
    assert answered >= 3


@needs_core
@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_the_other_rule_sets_agree_where_they_use_the_core(rule):
    """Standard and renju states through the state API (tests/test_renju_compiled.py goes further)."""
    def look(state):
        return (state.key(), state._wins, state.legal_actions(), state.is_terminal(), state.winner(),
                planes(state.encode()), state.proven_value(), state.tactical_priors(), state.defence_candidates())
    seen = sum(play_in_step(size, m, rule, look) for size in (7, 15) for m in random_games(size, 6, seed=11, rule=rule))
    assert seen > 150


@needs_core
def test_perft_agrees_where_games_end_inside_it():
    from games.perft import perft
    checked = 0
    for size, depth, count in ((5, 4, 3), (6, 3, 4), (15, 2, 3)):
        game = get_game("gomoku", size=size)
        for moves in random_games(size, count, seed=31):
            for cut in (len(moves) // 2, len(moves) - 3):
                with rules(None):
                    state = game.initial_state()
                    for a in moves[:max(cut, 0)]:
                        state = state.apply(a)
                    want = perft(state, depth)
                with rules(core):
                    got = perft(state, depth)
                assert got == want, (size, moves[:cut])
                checked += 1
    assert checked == 20


def random_board(rng: random.Random, cells: int, density: float) -> tuple[int, int]:
    black = white = 0
    for p in range(cells):
        x = rng.random()
        if x < density / 2:
            black |= 1 << p
        elif x < density:
            white |= 1 << p
    return black, white


@needs_core
@pytest.mark.parametrize("size", SIZES)
def test_the_functions_agree_on_boards_no_game_reaches(size):
    """Dense random boards (fives for both sides, overlines): segment counts, fives, winning points."""
    game = get_game("gomoku", size=size)
    rng = random.Random(size)
    full = game.full
    for i in range(60):
        black, white = random_board(rng, game.cells, (0.1, 0.4, 0.7, 0.95)[i % 4])
        empty = full ^ (black | white)
        for mine, theirs in ((black, white), (white, black)):
            for count in (2, 3):
                with rules(None):
                    want = game._segment_points(mine, theirs, empty, count)
                assert core.segment_points(size, mine, theirs, empty, count) == want
            for p in rng.sample(range(game.cells), min(game.cells, 30)):
                assert core.five_through(size, mine, p) == gm.five_through(mine, game.windows[p])
                assert core.winning_points(size, mine, empty, p) == gm.winning_points(mine, empty, game.windows[p])
                five, new = core.place(size, mine, empty, p)
                assert five == gm.five_through(mine, game.windows[p])
                assert new == (0 if five else gm.winning_points(mine, empty, game.windows[p]))
        assert core.empty_points(size, black | white) == [p for p in range(game.cells) if empty >> p & 1]


class PlanesEvaluator(BatchNetEvaluator):
    """Logits and values from fixed random weights on a gomoku board's input planes (``cells``
    points): a deterministic evaluator that reads the encoding, for comparing whole searches."""

    def __init__(self, cells):
        super().__init__()
        weights = np.random.default_rng(5)
        self.w = weights.standard_normal((gm.NUM_PLANES * cells, cells)).astype(np.float32) * 0.2
        self.v = weights.standard_normal(gm.NUM_PLANES * cells).astype(np.float32) * 0.05

    def infer(self, planes):
        flat = planes.reshape(len(planes), -1)
        return flat @ self.w, np.tanh(flat @ self.v)


@needs_core
def test_searches_with_the_same_seed_give_the_same_visits():
    """The search (tactics, proofs and threat-space defence on) with a fixed evaluator that reads
    the planes: the same visit counts and values on both paths, from positions of random games."""
    from engine.core.mcts import MCTS, Tree

    compared = 0
    for size, seed in ((15, 21), (9, 22)):
        game = get_game("gomoku", size=size)
        for moves in random_games(size, 3, seed):
            for cut in (len(moves) // 3, 2 * len(moves) // 3, len(moves) - 2):
                text = " ".join(game.point_name(a) for a in moves[:max(cut, 0)])
                results = []
                for module in (None, core):
                    with rules(module):
                        tree = Tree(game.state_from_text(text))
                        MCTS(PlanesEvaluator(game.cells), seed=3).search([tree], 300)
                        counts = tree.visit_counts()
                        results.append((counts[0].tolist(), counts[1].tolist(), float(tree.root_n),
                                        tree.root_value()))
                assert results[0] == results[1], (size, text)
                compared += 1
    assert compared == 18


@needs_core
def test_bad_input_is_an_error_that_names_it_never_a_crash():
    cases = [
        (core.segment_points, (4, 0, 0, 0, 3), ValueError, "size"),
        (core.segment_points, (27, 0, 0, 0, 3), ValueError, "size"),
        (core.segment_points, (15, -1, 0, 0, 3), ValueError, "mine"),
        (core.segment_points, (15, 0, 1 << 225, 0, 3), ValueError, "theirs"),
        (core.segment_points, (15, 0, 0, 1 << 400, 3), ValueError, "empty"),
        (core.segment_points, (15, 0, 0, 0, 4), ValueError, "count"),
        (core.segment_points, (15, 0.5, 0, 0, 3), TypeError, "mine"),
        (core.five_through, (15, 0, 225), ValueError, "point"),
        (core.winning_points, (15, 0, 0, -1), ValueError, "point"),
        (core.place, (15, "x", 0, 3), TypeError, "stones"),
        (core.empty_points, (15, None), TypeError, "occupied"),
        (core.vct, (15, 0, 0, 0, 0, 0, 65, 4, 10), ValueError, "threes"),
        (core.vct, (15, 0, 0, 0, 0, -5, 1, 4, 10), ValueError, "empty"),
        (core.encode, (15, 0, 0, 0, 0, 225, True), ValueError, "last"),
        (core.encode, (15, 1, 0, 0, 0, 0, True, 3), TypeError, "arguments"),
    ]
    for fn, args, error, word in cases:
        with pytest.raises(error, match=word):
            fn(*args)
    # the largest board's last point and a bitboard of every point are fine
    full = (1 << 676) - 1
    assert core.empty_points(26, full) == [] and core.empty_points(26, 0) == list(range(676))
    assert core.segment_points(26, 0, 0, full, 2) == 0 and core.five_through(26, full, 675)


# --- which path runs, and the fallback -------------------------------------------------------
PLAY = ("import games.gomoku as g; from games import get_game; "
        "s = get_game('gomoku').state_from_text('h8 a1 i8 a2 j8 a3'); "
        "print(g._core is None, s.vcf(), s.tactical_priors()[:2], s.encode().sum())")
PLAYED = "111 [(110, 0.06666666666666667), (111, 0.06666666666666667)] 238.0"


def test_the_switch_forces_the_python_rules_and_says_so_in_one_line():
    check_forced_python(PLAY, PLAYED)


def test_without_the_compiled_module_the_python_rules_run_and_say_so():
    check_unbuilt("games._gomoku_c", PLAY, PLAYED, "gomoku")


@needs_core
def test_the_compiled_core_runs_silently_when_built():
    check_silent(PLAY, PLAYED)


def test_a_gomoku_build_from_other_sources_is_refused(monkeypatch, capsys):
    check_stale_refused("games._gomoku_c", "gomoku", monkeypatch, capsys)
