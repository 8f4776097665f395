"""The threat searches (VCF, VCT) under gomoku's standard and renju rules: a four is a move that
leaves a point to make the rule's five, black's forbidden points (renju) are neither its threats
nor its blocks, and every line found is legal move by move and ends in a real five."""
from __future__ import annotations

import pytest

from games import NotationError, get_game
from games import renju
from conftest import win_in_one
from test_gomoku import _clustered_positions


def position(rule: str, black: list[tuple[int, int]], white: list[tuple[int, int]], to_move: int = 0,
             size: int = 15):
    """The position with these stones ((row, column), row 0 at the top) and ``to_move`` to move;
    the side short of stones gets spare ones three points apart along a far edge (row 0 for
    white, the bottom row for black), where they make no line."""
    g = get_game("gomoku", rule=rule, size=size)
    black, white = list(black), list(white)
    spare_w = [(0, c) for c in range(size - 1, -1, -3)]
    spare_b = [(size - 1, c) for c in range(0, size, 3)]
    while len(white) < len(black) - to_move:
        white.append(spare_w.pop(0))
    while len(black) < len(white) + to_move:
        black.append(spare_b.pop(0))
    assert len(black) == len(white) + to_move, "too many white stones for the side to move"
    s = g.initial_state()
    for i in range(len(black) + len(white)):
        r, c = (black if i % 2 == 0 else white)[i // 2]
        s = s.apply(r * size + c)
    assert s.current_player == to_move and not s.is_terminal()
    return s


def at(r: int, c: int, size: int = 15) -> int:
    return r * size + c


# --- positions where the rule changes the answer ----------------------------------------------

# black's fours on row 7 and column 6 meet at (7, 6): a double four, each four blocked at one end
DOUBLE_FOUR = dict(black=[(7, 3), (7, 4), (7, 5), (4, 6), (5, 6), (6, 6)],
                   white=[(7, 2), (3, 6), (2, 10), (4, 12), (11, 12)])
# one line, X . X * X . X: the starred stone makes two fours on the same line
LINE_DOUBLE_FOUR = dict(black=[(7, 2), (7, 4), (7, 6), (7, 8)], white=[(7, 1), (7, 9), (2, 12)])
# a four on row 7 (blocked at the left) and an open three on column 6 meet at (7, 6): four-three
FOUR_THREE = dict(black=[(7, 3), (7, 4), (7, 5), (5, 6), (6, 6)], white=[(7, 2), (2, 12), (4, 12), (11, 12)])




def test_renju_black_has_no_victory_by_fours_through_a_forbidden_double_four_and_white_has():
    for shape in (DOUBLE_FOUR, LINE_DOUBLE_FOUR):
        free = position("freestyle", **shape)
        ruled = position("renju", **shape)
        win = free.vcf()
        assert win is not None and free.proven_value() == 1.0
        assert renju.forbidden_kind(ruled._black, ruled._white, win, ruled.game.geometry) == "double-four"
        assert ruled.vcf() is None and ruled.proven_value() is None
        # white has no forbidden points: the same stones win for white under renju
        w = position("renju", black=shape["white"], white=shape["black"], to_move=1)
        assert w.vcf() is not None and w.proven_value() == 1.0
        _assert_vcf_line(w)


def test_renju_black_wins_by_a_legal_four_three():
    s = position("renju", **FOUR_THREE)
    assert s.current_player == 0
    move = s.vcf()
    assert move is not None and s.proven_value() == 1.0
    assert move in s.legal_actions()
    _assert_vcf_line(s)


def test_renju_white_wins_by_a_four_whose_block_is_forbidden_to_black():
    # white's three on row 10 (blocked by black at the left), black's stones around (10, 7) make
    # it a double three for black: white's four at (10, 6) cannot be stopped there
    black = [(10, 2), (11, 7), (12, 7), (11, 8), (12, 9)]
    white = [(10, 3), (10, 4), (10, 5), (2, 12)]
    free, ruled = position("freestyle", black, white, 1), position("renju", black, white, 1)
    four = at(10, 6)
    after = ruled.apply(four)
    assert renju.forbidden_kind(after._black, after._white, at(10, 7), ruled.game.geometry) == "double-three"
    assert free.vcf() is None and free.proven_value() is None   # black blocks at (10, 7) in free-style
    assert ruled.vcf() == four and ruled.proven_value() == 1.0
    _assert_vcf_line(ruled)


def test_standard_black_has_no_victory_by_fours_through_an_overline():
    # black X X X . X X on row 7: free-style's five at (7, 5) is an overline under standard
    black = [(7, 2), (7, 3), (7, 4), (7, 6), (7, 7), (4, 10)]
    white = [(7, 1), (7, 8), (1, 12), (3, 13), (12, 12)]
    free, std = position("freestyle", black, white), position("standard", black, white)
    assert free.proven_value() == 1.0
    assert std.proven_value() is None and std.vcf() is None
    # with a four-three at the bottom as well, black wins by fours there with exactly five
    std2 = position("standard", black + [(13, 3), (13, 4), (13, 5), (11, 6), (12, 6)], white + [(13, 2)])
    assert std2.vcf() is not None and std2.proven_value() == 1.0
    _assert_vcf_line(std2)


# --- every line found is legal and ends in a real five ------------------------------------------

def _assert_vcf_line(s, plies_left: int = 40) -> None:
    """``s.vcf()``'s move is legal under the rule (`games.renju`'s legality) and wins against every
    legal defence: each defender reply either leaves the attacker a five to make at once, or is
    the block, after which the attacker has a victory by fours again; the game ends in a five
    the rule counts (the state's own winner)."""
    assert plies_left > 0
    attacker = s.current_player
    move = s.vcf()
    assert move is not None, s.to_text()
    assert move in s.legal_actions(), (s.to_text(), s.action_to_text(move))
    t = s.play(move)   # play raises on a forbidden point
    if t.is_terminal():
        assert t.winner() == attacker, t.to_text()
        return
    replies = t.legal_actions()
    assert replies, t.to_text()   # black with only forbidden points left: a draw, not a win
    for reply in replies:
        u = t.apply(reply)
        assert not u.is_terminal(), (t.to_text(), "the defender made five or filled the board")
        if win_in_one(u):
            continue
        _assert_vcf_line(u, plies_left - 2)


@pytest.mark.parametrize("rule,size,seed", [("renju", 11, 1), ("renju", 9, 2), ("standard", 9, 3)])
def test_every_victory_by_fours_found_under_the_rule_is_legal_and_ends_in_a_five(rule, size, seed):
    checked = deeper = black = differs = 0
    free = get_game("gomoku", size=size)
    for s in _clustered_positions(size, 15 if size > 9 else 25, seed, rule=rule):
        found = s.vcf()
        try:   # the same stones under free-style (None where that game would be over)
            blind = free.state_from_text(s.to_text()).vcf()
        except NotationError:
            blind = found
        differs += (found is None) != (blind is None)
        if found is None or win_in_one(s):
            continue
        _assert_vcf_line(s)
        deeper += s.apply(s.vcf()).proven_value() != -1.0   # more than one four to the win
        black += s.current_player == 0
        checked += 1
    # the rule decides some of them: free-style's answer differs there
    assert checked >= 100 and black >= 40 and deeper >= 20 and differs >= 10, (checked, black, deeper, differs)
