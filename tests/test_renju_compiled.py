"""The compiled standard and renju rules (games/csrc/renju_rules.c, and the threat search of
games/csrc/gomoku_rules.c under each rule set) against their reference, the Python of games/renju.py
and games/gomoku.py.

Every comparison is exact: a disagreement on one position fails. Positions come from random games
under each rule (sizes 15, 9, 11 and 19, played to their end), from random boards rich in black
stones that no game need reach (where overlines, double fours and double threes crowd, and the
recursive three test goes deep), and from the hard forbidden-point cases of
tests/test_gomoku_rules.py. The tests skip when the compiled module is not built.
"""
from __future__ import annotations

import random
from collections import Counter

import pytest

from test_gomoku_compiled import PlanesEvaluator, core, needs_core, planes, play_in_step, random_games, rules

import games.gomoku as gm
from games import get_game, renju

RULED = ("standard", "renju")


def observe(state) -> tuple:
    """Everything the rules say about a position under its rule, through the state API."""
    terminal = state.is_terminal()
    return (state.key(), state._wins, state.legal_actions(), state.forbidden_actions(), terminal, state.winner(),
            state.returns() if terminal else None, planes(state.encode()), state.proven_value(),
            None if terminal else state.proven_plies(), state.tactical_priors(), state.vcf(),
            state.vcf(depth=3, budget=10), state.vct(budget=200), state.vct(threes=1, budget=40),
            state.defence_candidates())


@needs_core
@pytest.mark.parametrize("rule", RULED)
@pytest.mark.parametrize("size", (15, 9, 19))
def test_random_games_under_the_rule_agree_on_every_position(rule, size):
    count = {15: 10, 9: 24, 19: 6}[size]
    games = random_games(size, count, seed=100 + size, rule=rule)
    assert sum(play_in_step(size, m, rule, observe) for m in games) > 100
    finals = [get_game("gomoku", size=size, rule=rule).state_from_text(
        " ".join(get_game("gomoku", size=size).point_name(a) for a in m)) for m in games]
    assert {s.winner() for s in finals} >= {0, 1}   # both sides' fives, as the rule counts them


def black_heavy_board(rng: random.Random, size: int) -> tuple[int, int]:
    """Random stones in a central square, two to four black stones for each white one: overlines,
    fours and threes crowd, and so do the recursive three tests."""
    black = white = 0
    half = rng.choice((2, 3, 4, 5, 7))
    lo, hi = max(0, size // 2 - half), min(size, size // 2 + half + 1)
    b_density, w_share = rng.uniform(0.2, 0.5), rng.uniform(0.2, 0.35)
    for r in range(lo, hi):
        for c in range(lo, hi):
            x = rng.random()
            if x < b_density:
                black |= 1 << (r * size + c)
            elif x < b_density * (1 + w_share):
                white |= 1 << (r * size + c)
    return black, white


@needs_core
@pytest.mark.parametrize("size", (15, 9, 19, 26, 6))
def test_forbidden_points_agree_on_boards_rich_in_black_stones(size):
    """The candidates, the board-wide set and, at every empty point, the kind at full depth and at
    depths 0 to 2 (where the recursion is cut), and whether an open four is stable."""
    geo = renju.RuleGeometry(size)
    rng = random.Random(size)
    kinds, cut_decides = Counter(), 0
    for _ in range({6: 60, 9: 60, 15: 80, 19: 40, 26: 15}[size]):
        black, white = black_heavy_board(rng, size)
        empty = geo.full ^ (black | white)
        assert core.forbidden_candidates(size, black, empty) == renju.forbidden_candidates(black, empty, geo)
        assert core.forbidden_points(size, black, white) == renju.forbidden_points(black, white, geo)
        for p in range(geo.cells):
            if not empty >> p & 1 and rng.random() > 0.05:
                continue   # a few filled points too: the functions answer for any point
            want = renju.forbidden_kind(black, white, p, geo)
            assert core.forbidden_kind(size, black, white, p) == want, (size, black, white, p)
            kinds[want] += 1
            for depth in (0, 1, 2):
                shallow = renju.forbidden_kind(black, white, p, geo, depth)
                assert core.forbidden_kind(size, black, white, p, depth) == shallow, (size, black, white, p, depth)
                cut_decides += shallow != want
            assert core.stable_open_four(size, black, white, p) == renju.stable_open_four(black, white, p, geo)
    assert kinds["overline"] and kinds["double-three"] and kinds[None], kinds
    if size >= 9:
        assert kinds["double-four"] and cut_decides, (kinds, cut_decides)


@needs_core
@pytest.mark.parametrize("size", (15, 6, 9, 26))
def test_exact_five_functions_agree_on_dense_boards(size):
    """Exactly five through a point, the exact five points, the incremental update of a side's
    five points (from a true set and from an arbitrary one) and the five points a stone made."""
    geo = renju.RuleGeometry(size)
    rng = random.Random(size + 50)
    for i in range(25):
        black, white = black_heavy_board(rng, size)
        if i % 3 == 0:   # dense everywhere, runs of every length
            black = white = 0
            for p in range(geo.cells):
                x = rng.random()
                black |= (x < 0.55) << p
                white |= (0.55 <= x < 0.7) << p
        empty = geo.full ^ (black | white)
        near = rng.getrandbits(geo.cells)
        for stones in (black, white):
            assert core.exact_winning_points(size, stones, empty, near) == renju.exact_winning_points(
                stones, empty, geo, near)
            true_wins = renju.exact_winning_points(stones, empty, geo, geo.full)
            for p in rng.sample(range(geo.cells), min(geo.cells, 40)):
                assert core.exact_five_through(size, stones, p) == renju.exact_five_through(stones, geo.windows6[p])
                assert core.exact_new_wins(size, stones, empty, p) == renju.exact_new_wins(stones, empty, geo, p)
                placed, e2 = stones | 1 << p, empty & ~(1 << p)
                for wins in (true_wins, rng.getrandbits(geo.cells)):
                    want = (renju.exact_five_through(placed, geo.windows6[p]),
                            renju.update_exact_wins(wins, placed, e2, geo, p))
                    assert core.exact_place(size, placed, e2, wins, p) == want, (size, stones, p, wins)


# the hard cases of tests/test_gomoku_rules.py: (black, white, point, the kind the rules give)
HARD_CASES = [
    ("e11 i11 e10 h10 i10 e9 h9 i9 f8 g8 e7 i7 e6 i6", "a1 c1 e1 g1 k1 m1 o1 a3 c3 e3 g3 k3 m3 o3", "h8", None),
    ("e11 i11 e10 h10 i10 e9 h9 i9 f8 g8 e7 i7 e6 i6 h8", "a1 c1 e1 g1 k1 m1 o1 a3 c3 e3 g3 k3 m3 o3", "e8",
     "overline"),
    ("i11 h10 i10 h9 i9 f8 g8 e7 i7 e6 i6", "a1 c1 e1 g1 k1 m1 o1 a3 c3 e3 g3 k3 m3 o3", "h8", "double-three"),
    ("h10 h9 g8 j8 j7 k6", "g10 a1 c1 e1 g1 k1", "h8", None),
    ("h10 h9 g8 j8 j7 k6 h8", "g10 a1 c1 e1 g1 k1", "i8", "double-four"),
    ("h10 h9 g8 j8 k6", "g10 a1 c1 e1 g1 k1", "h8", "double-three"),
    ("e11 g11 g9 h9 g8 i8 g7", "a1 c1 e1 g1 k1 m1 o1", "f11", None),
    ("e11 g11 g9 h9 i8", "a1 c1 e1 g1 k1 m1 o1", "f11", "double-three"),
    ("f12 f11 d10 e10", "c7 d8 e9 g11", "f10", "double-three"),
]


@needs_core
def test_the_hard_forbidden_point_cases_agree():
    geo = renju.RuleGeometry(15)
    start = get_game("gomoku", rule="renju").initial_state()

    def bits(names: str) -> int:
        return sum(1 << start.parse_action(n) for n in names.split())
    for black, white, point, want in HARD_CASES:
        b, w, p = bits(black), bits(white), start.parse_action(point)
        assert renju.forbidden_kind(b, w, p, geo) == want, (black, point)
        assert core.forbidden_kind(15, b, w, p) == want, (black, point)
        assert core.forbidden_points(15, b, w) == renju.forbidden_points(b, w, geo)


def game_states(size: int, count: int, seed: int, rule: str) -> list:
    """Every position of ``count`` random games under ``rule`` (Python rules)."""
    game = get_game("gomoku", size=size, rule=rule)
    out = []
    with rules(None):
        for moves in random_games(size, count, seed, rule):
            s = game.initial_state()
            out.append(s)
            for a in moves:
                s = s.apply(a)
                out.append(s)
    return out


@needs_core
@pytest.mark.parametrize("rule", RULED)
def test_the_threat_searches_agree_under_the_rule(rule):
    """The same first move (or none) and the same budget left, for both sides attacking, fours only
    and with threes, budgets that run out in the middle included; on positions where the rule
    changes free-style's answer too."""
    found = Counter()
    for size, seed, count in ((15, 1, 3), (9, 3, 6), (11, 4, 4)):
        free = get_game("gomoku", size=size)
        for s in game_states(size, count, seed, rule):
            if s.is_terminal():
                continue
            me = len(s.moves) & 1
            for attacker in (me, 1 - me):
                for threes, budget in ((0, 48), (3, 600), (2, 37), (4, 1500)):
                    results = []
                    for module in (None, core):
                        with rules(module):
                            spent = [budget]
                            results.append((s._vct_for(attacker, threes, spent), spent[0]))
                    assert results[1] == results[0], (size, rule, s.to_text(), attacker, threes, budget)
                    found["vcf" if threes == 0 else "vct"] += results[0][0] is not None
                    found["cut"] += results[0][1] < 0
                    if threes == 3:
                        with rules(core):
                            spent = [budget]
                            blind = free.initial_state()
                            for a in s.moves:
                                blind = blind.apply(a)
                            if not blind.is_terminal():
                                found["rule matters"] += (blind._vct_for(attacker, threes, spent) is None) != (
                                    results[0][0] is None)
    assert min(found.values()) >= 5, found


@needs_core
def test_threat_defence_agrees_under_renju(monkeypatch):
    monkeypatch.setattr(gm, "DEFENCE_BUDGET", 300)
    monkeypatch.setattr(gm, "DEFENCE_TOTAL", 2000)
    answered = 0
    for s in game_states(15, 3, 8, "renju")[10::2]:
        with rules(None):
            want = s.threat_defence()
        with rules(core):
            got = s.threat_defence()
        assert got == want, s.to_text()
        answered += want is not None
    assert answered >= 3


@needs_core
@pytest.mark.parametrize("rule", RULED)
def test_searches_under_the_rule_give_the_same_visits(rule):
    """A whole search (tactics and proofs on) with a fixed evaluator reading the planes: the same
    visit counts and values on both paths."""
    from engine.core.mcts import MCTS, Tree

    compared = 0
    for size, seed in ((15, 21), (9, 22)):
        game = get_game("gomoku", size=size, rule=rule)
        for moves in random_games(size, 2, seed, rule):
            for cut in (len(moves) // 3, 2 * len(moves) // 3, len(moves) - 2):
                text = " ".join(game.point_name(a) for a in moves[:max(cut, 0)])
                results = []
                for module in (None, core):
                    with rules(module):
                        tree = Tree(game.state_from_text(text))
                        MCTS(PlanesEvaluator(game.cells), seed=3).search([tree], 200)
                        counts = tree.visit_counts()
                        results.append((counts[0].tolist(), counts[1].tolist(), float(tree.root_n),
                                        tree.root_value()))
                assert results[0] == results[1], (size, rule, text)
                compared += 1
    assert compared == 12


@needs_core
def test_perft_under_renju_agrees():
    from games.perft import perft
    game = get_game("gomoku", size=9, rule="renju")
    for moves in random_games(9, 3, 41, "renju"):
        for cut in (len(moves) // 2, len(moves) - 3):
            with rules(None):
                state = game.initial_state()
                for a in moves[:max(cut, 0)]:
                    state = state.apply(a)
                want = perft(state, 2)
            with rules(core):
                assert perft(state, 2) == want, moves[:cut]


@needs_core
def test_bad_input_to_the_rule_functions_is_an_error_that_names_it():
    cases = [
        (core.forbidden_kind, (15, 0, 0, 225), ValueError, "point"),
        (core.forbidden_kind, (15, -1, 0, 3), ValueError, "black"),
        (core.forbidden_kind, (15, 0, 1 << 300, 3), ValueError, "white"),
        (core.forbidden_kind, (15, 0, 0, 3, 65), ValueError, "depth"),
        (core.forbidden_points, (4, 0, 0), ValueError, "size"),
        (core.forbidden_candidates, (15, 0, "x"), TypeError, "empty"),
        (core.stable_open_four, (15, 0, 0, -1), ValueError, "point"),
        (core.exact_five_through, (27, 0, 0), ValueError, "size"),
        (core.exact_winning_points, (15, 0, 0, None), TypeError, "near"),
        (core.exact_new_wins, (15, 0, 0, 400), ValueError, "point"),
        (core.exact_place, (15, 0, 0, -3, 0), ValueError, "wins"),
        (core.vct, (15, 0, 0, 0, 0, 0, 1, 4, 10, 3, 0), ValueError, "rule"),
        (core.vct, (15, 0, 0, 0, 0, 0, 1, 4, 10, 2, 2), ValueError, "attacker"),
    ]
    for fn, args, error, word in cases:
        with pytest.raises(error, match=word):
            fn(*args)
    # the largest board's corners, full and empty
    full = (1 << 676) - 1
    assert core.forbidden_points(26, 0, 0) == 0 and core.forbidden_points(26, full, 0) == 0
    assert core.forbidden_kind(26, 0, 0, 675) is None and core.exact_five_through(26, full, 675) is False
