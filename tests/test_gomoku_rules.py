"""Gomoku's rule sets: standard (exactly five) and renju (black's forbidden points), after the
Renju International Federation's definitions (docs/rules.md). Diagrams: ``X`` black, ``O``
white, ``.`` empty, ``*`` the point under test (empty); the top row is row 15 unless a diagram
is shorter, in which case it sits at the top-left corner of the 15x15 board."""
from __future__ import annotations

import random

import pytest

from games import NotationError, game_from_key, get_game
from games import renju


def board(diagram: str, rule: str = "renju"):
    """(state with black to move, the starred points as actions) from a diagram; white stones
    beyond black's count are not allowed (black moves first), missing white stones are put
    along the bottom row's right end, far from the shapes."""
    g = get_game("gomoku", rule=rule)
    black, white, stars = [], [], []
    for r, row in enumerate(l.split() for l in diagram.strip().splitlines()):
        for c, cell in enumerate(row):
            a = r * 15 + c
            {"X": black, "O": white, "*": stars, ".": []}[cell].append(a)
    spare = [224 - 2 * k for k in range(16)]
    while len(white) < len(black):
        white.append(spare.pop(0))
    assert len(white) == len(black), "a diagram with black to move has as many white stones as black"
    moves = tuple(a for pair in zip(black, white) for a in pair)
    state = g.initial_state()
    for a in moves:
        state = state.apply(a)
    return state, stars


def kind(state, point):
    return renju.forbidden_kind(state._black, state._white, point, state.game.geometry)


# --- the shapes forbidden to black -----------------------------------------------------------

def test_a_double_three_is_forbidden():
    # the star makes two open threes: * with the two stones to its left (a row) and with the
    # two above it (a column); each can become a straight four at a free point
    s, (p,) = board("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . X X * . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    assert kind(s, p) == "double-three"
    assert p not in s.legal_actions() and p in s.forbidden_actions()


def test_a_split_three_counts_as_a_three():
    # row: X . X * -> X X X X needs the gap; column: * with two stones below
    s, (p,) = board("""
        . . . . . . . . .
        . . X . X * . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    assert kind(s, p) == "double-three"


def test_a_three_blocked_at_one_end_is_not_a_three():
    # the row's three has white at its left end: it can become a four but never a straight four,
    # so the star makes one three (the column) and is allowed
    s, (p,) = board("""
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . O X X * . . .
        . . . . . . . . .
        . . . . . . . . .
    """)
    assert kind(s, p) is None and p in s.legal_actions()


#: black's double four across two lines: the row (O X X * X .) is a four, the column (X X X * .) a
#: straight four
DOUBLE_FOUR_ACROSS_TWO_LINES = """
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . X . . .
        . . O X X * X . .
        . . . . . . . . .
        . . . . . O . . .
    """


def test_a_double_four_across_two_lines_is_forbidden():
    s, (p,) = board(DOUBLE_FOUR_ACROSS_TWO_LINES)
    assert kind(s, p) == "double-four"


def test_two_fours_on_one_line_are_a_double_four():
    # X . X * X . X: the star makes fours through both gaps, on one line
    s, (p,) = board("""
        . . . . . . . . . . .
        . . . . . . . . . . .
        . X . X * X . X . . .
        . . . . . . . . . . .
    """)
    assert kind(s, p) == "double-four"


def test_an_overline_is_forbidden_to_black_only():
    s, (p,) = board("""
        . . . . . . . . . .
        . X X X * X X . . .
        . . . . . . . . . .
    """)
    assert kind(s, p) == "overline" and p not in s.legal_actions()
    with pytest.raises(NotationError, match="forbidden for black under renju \\(overline\\)"):
        s.parse_action(s.action_to_text(p))
    # the same shape in white's stones: white may play it, and six wins for white
    g = get_game("gomoku", rule="renju")
    w = g.state_from_text("a1 b14 a3 c14 a5 d14 a7 f14 a9 g14 a11")
    assert w.current_player == 1 and not w.is_terminal()
    assert w.apply(w.parse_action("e14")).winner() == 1


def test_five_takes_precedence_over_a_forbidden_shape():
    # the star makes exactly five on the row and an overline in the column at once: black wins
    s, (p,) = board("""
        . . . . X . . . .
        . . . . X . . . .
        . . . . X . . . .
        X X X X * . . . .
        . . . . X . . . .
        . . . . X . . . .
        . . . . . . . . .
    """)
    assert kind(s, p) is None and p in s.legal_actions()
    assert s.proven_value() == 1.0
    assert s.apply(p).winner() == 0


def test_a_four_three_is_allowed():
    s, (p,) = board("""
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . X X * . . .
        . . . . . . . . .
        . . . . . O . . .
    """)
    # the column is a four, the row an open three: a four-three, black's winning shape, allowed
    assert kind(s, p) is None


def test_a_four_and_two_threes_is_forbidden():
    # the column is a four; the row and the diagonal are open threes
    s, (p,) = board("""
        . . . . . . . . . .
        . . . . . X . . . .
        . . . . . X . X . .
        . . . . . X X . . .
        . . . X X * . . . .
        . . . . . . . . . .
        . . . . . O . . . .
        . . . . . . . . . .
    """)
    assert kind(s, p) == "double-three"


GEO = get_game("gomoku", rule="renju").geometry


def stones(names: str) -> int:
    start = get_game("gomoku", rule="renju").initial_state()
    out = 0
    for name in names.split():
        out |= 1 << start.parse_action(name)
    return out


def point(name: str) -> int:
    return get_game("gomoku", rule="renju").initial_state().parse_action(name)


def test_a_three_whose_straight_four_points_are_both_overlines_is_not_a_three():
    # RIF's false double three. The star h8 makes two threes: the column (h9 h10 above it) and
    # the row f8 g8 *. The row's straight fours need e8 or i8, and with the star placed each of
    # those makes an overline in its own column (e6 e7 . e9 e10 e11 and i6 i7 . i9 i10 i11):
    # the row three can never become a straight four at an allowed point, so only one three is
    # real and the star is allowed.
    #
    #  11  . . . . X . . . X
    #  10  . . . . X . . X X
    #   9  . . . . X . . X X
    #   8  . . . . . X X * .
    #   7  . . . . X . . . X
    #   6  . . . . X . . . X
    #       a b c d e f g h i
    b = stones("e11 i11 e10 h10 i10 e9 h9 i9 f8 g8 e7 i7 e6 i6")
    w = stones("a1 c1 e1 g1 k1 m1 o1 a3 c3 e3 g3 k3 m3 o3")
    star, e8, i8 = point("h8"), point("e8"), point("i8")
    assert renju.forbidden_kind(b | 1 << star, w, e8, GEO) == "overline"
    assert renju.forbidden_kind(b | 1 << star, w, i8, GEO) == "overline"
    assert renju.forbidden_kind(b, w, star, GEO) is None
    # without e9 e10 e11, e8 is a four-three (row four, column three e6 e7 e8): allowed, so the
    # row three is real and the star is a double three
    assert renju.forbidden_kind(b & ~stones("e9 e10 e11"), w, star, GEO) == "double-three"


def test_a_three_completed_only_through_a_double_four_point_is_not_a_three():
    # The star h8 makes the column three h8 h9 h10 (real: h7 and h11 are free) and the row
    # three g8 * . j8, whose only straight-four point is i8. With the star placed, i8 makes the
    # row's straight four g8 h8 i8 j8 and a second four on its anti-diagonal (h9 i8 j7 k6, white
    # at g10, l5 free): a double four, forbidden, so the row three is not real.
    #
    #  10  . . . . . . O X . .
    #   9  . . . . . . . X . .
    #   8  . . . . . . X * . X
    #   7  . . . . . . . . . X
    #   6  . . . . . . . . . . X
    #       a b c d e f g h i j k
    b = stones("h10 h9 g8 j8 j7 k6")
    w = stones("g10 a1 c1 e1 g1 k1")
    star, i8 = point("h8"), point("i8")
    assert renju.forbidden_kind(b | 1 << star, w, i8, GEO) == "double-four"
    assert renju.forbidden_kind(b, w, star, GEO) is None
    # without j7, i8 makes one four only: the row three is real and the star a double three
    assert renju.forbidden_kind(b & ~stones("j7"), w, star, GEO) == "double-three"


def test_white_has_no_forbidden_points_and_freestyle_none_at_all():
    diagram = """
        . . . . . . . . .
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . X X * . . .
        . . . . . . . . .
    """
    s, (p,) = board(diagram, rule="freestyle")
    assert p in s.legal_actions() and not hasattr(s, "forbidden_actions")
    s, (p,) = board(diagram, rule="standard")
    assert p in s.legal_actions() and s.forbidden_actions() == []
    s, (p,) = board(diagram)
    assert p not in s.legal_actions()
    after = s.apply(s.legal_actions()[0])   # white to move: nothing is forbidden
    assert after.forbidden_actions() == [] and len(after.legal_actions()) == 225 - len(after.moves)


# --- exactly five -------------------------------------------------------------------------

@pytest.mark.parametrize("rule, black_wins", [("freestyle", True), ("standard", False)])
def test_standard_an_overline_does_not_win(rule, black_wins):
    g = get_game("gomoku", rule=rule)
    s = g.state_from_text("a1 a15 b1 c15 c1 e15 d1 g15 f1 i15")
    after = s.apply(s.parse_action("e1"))   # a1..f1: six
    assert (after.winner() == 0) == black_wins
    assert after.is_terminal() == black_wins


def test_standard_an_overline_does_not_win_for_white_either_but_five_does():
    g = get_game("gomoku", rule="standard")
    s = g.state_from_text("a15 a1 c15 b1 e15 c1 g15 d1 i15 f1 k15")
    assert s.apply(s.parse_action("e1")).winner() is None
    s = g.state_from_text("a15 a1 c15 b1 e15 c1 g15 d1 i15")
    assert s.apply(s.parse_action("e1")).winner() == 1


def test_exact_rules_forget_a_winning_point_that_became_an_overline():
    # black's a1 b1 c1 d1 make e1 a winning point; f1 turns e1 into a six: no longer a win
    g = get_game("gomoku", rule="standard")
    s = g.state_from_text("a1 a15 b1 c15 c1 e15 d1 g15")
    e1 = s.parse_action("e1")
    assert s._wins[0] >> e1 & 1 and s.proven_value() == 1.0
    s = s.apply(s.parse_action("f1")).apply(s.parse_action("i15"))
    assert not s._wins[0] >> e1 & 1 and s.proven_value() is None


# --- variants, keys and the search's proofs ------------------------------------------------

def test_rule_variants_have_their_own_keys_and_play_the_freestyle_network():
    r = get_game("gomoku", rule="renju")
    assert r.key == "gomoku-renju" and game_from_key("gomoku-renju") is r
    assert r.network_key == "gomoku" and get_game("gomoku").network_key == "gomoku"
    s9 = get_game("gomoku", rule="standard", size=9)
    assert s9.key == "gomoku-standard-9" and game_from_key("gomoku-standard-9") is s9 and s9.network_key == "gomoku-9"
    assert get_game("gomoku", rule="freestyle").key == "gomoku"
    import pickle   # worker processes get games by key
    assert pickle.loads(pickle.dumps(r)) is r and pickle.loads(pickle.dumps(s9)) is s9
    with pytest.raises(ValueError, match="unknown gomoku rule"):
        get_game("gomoku", rule="caro")
    with pytest.raises(ValueError):
        game_from_key("gomoku-caro")


def test_gomocup_rule_numbers():
    assert [renju.rule_from_gomocup(v) for v in ("0", "1", "4", "5", "2", "3")] == \
        ["freestyle", "standard", "renju", "renju", "freestyle", "standard"]
    for bad in ("x", "-1", ""):
        with pytest.raises(ValueError):
            renju.rule_from_gomocup(bad)


def test_threat_proofs_follow_renju_and_standard():
    for rule in ("standard", "renju"):
        g = get_game("gomoku", rule=rule)
        # black has an open three on row 8 and white nothing: a victory by threats for black
        s = g.state_from_text("g8 a1 h8 a3 i8 a5")
        assert s.vct() is not None and s.winning_action() == s.vct() and s.deep_proven_value() == 1.0
        assert s.vcf() is not None and s.proven_value() == 1.0   # the open four it makes
        assert "VCF" not in g.proofs and "continuous fours" in g.proofs


def test_tactical_priors_leave_out_forbidden_points():
    s, (p,) = board(DOUBLE_FOUR_ACROSS_TWO_LINES)
    assert p not in [a for a, _ in s.tactical_priors()]
    free, (q,) = board("""
        . . . . . . . . .
        . . . . . X . . .
        . . . . . X . . .
        . . . . . X . . .
        . . O X X * X . .
        . . . . . . . . .
        . . . . . O . . .
    """, rule="freestyle")
    assert q in [a for a, _ in free.tactical_priors()]


# --- the board-wide set against the point-by-point definition ---------------------------------

def test_forbidden_set_equals_the_definition_at_every_empty_point():
    """`forbidden_candidates` may only drop points the full test would clear."""
    g = get_game("gomoku", rule="renju")
    rng = random.Random(7)
    checked = found = 0
    for _ in range(60):
        s = g.initial_state()
        for _ in range(rng.randrange(10, 60)):
            acts = [a for a in s.legal_actions() if 3 <= a // 15 <= 11 and 3 <= a % 15 <= 11] or s.legal_actions()
            s = s.apply(rng.choice(acts))
            if s.is_terminal():
                break
        if s.is_terminal() or s.current_player != 0:
            continue
        empty = g.full ^ (s._black | s._white)
        slow = {a for a in range(225) if empty >> a & 1 and kind(s, a) is not None}
        assert set(s.forbidden_actions()) == slow
        checked += 1
        found += len(slow)
    assert checked > 10 and found > 0


def test_renju_games_play_to_the_end_without_forbidden_moves():
    g = get_game("gomoku", rule="renju")
    rng = random.Random(3)
    for _ in range(5):
        s = g.initial_state()
        while not s.is_terminal():
            acts = s.legal_actions()
            assert acts
            a = rng.choice([x for x in acts if 4 <= x // 15 <= 10 and 4 <= x % 15 <= 10] or acts)
            if s.current_player == 0:
                assert kind(s, a) is None
            s = s.apply(a)


# --- records carry the rule -----------------------------------------------------------------

DOUBLE_THREE_GAME = "f12 a1 f11 a3 d10 a5 e10 a7"   # f10 is then a double three for black


@pytest.mark.parametrize("fmt", ["sgf", "psq", "zeroboard"])
@pytest.mark.parametrize("rule", ["standard", "renju"])
def test_records_keep_the_rule(fmt, rule):
    from games.records import read_record, write_record
    g = get_game("gomoku", rule=rule)
    s = g.state_from_text("h8 i9 h9 i10 j8")
    text = write_record(s, fmt)
    back = read_record(text, name=f"game.{fmt}")
    assert back.state.game is g and back.state.moves == s.moves
    # free-style records are written as before, without a rule
    free = write_record(get_game("gomoku").state_from_text("h8 i9"), fmt)
    assert "RU[" not in free and "rule" not in free.lower().replace("# variant: {}", "")
    assert read_record(free, name=f"game.{fmt}").state.game.key == "gomoku"


def test_sgf_rule_names_and_gomocup_numbers_are_read_and_unknown_ones_ignored():
    from games.records import read_record
    body = "SZ[15];B[hh];W[ii])"
    for ru, key in (("RU[renju]", "gomoku-renju"), ("RU[Renju]", "gomoku-renju"), ("RU[4]", "gomoku-renju"),
                    ("RU[1]", "gomoku-standard"), ("RU[standard]", "gomoku-standard"), ("RU[Japanese]", "gomoku"),
                    ("", "gomoku")):
        assert read_record(f"(;GM[4]FF[4]{ru}{body}").state.game.key == key, ru
    # no RU: the game the reader was asked for decides
    assert read_record(f"(;GM[4]FF[4]{body}", get_game("gomoku", rule="renju")).state.game.key == "gomoku-renju"


def test_a_record_with_a_forbidden_black_move_is_refused_with_the_reason():
    from games.records import RecordFormatError, read_record, write_record
    free = get_game("gomoku").state_from_text(DOUBLE_THREE_GAME + " f10")
    text = write_record(free, "sgf").replace("SZ[15]", "SZ[15]RU[renju]")
    with pytest.raises(RecordFormatError, match="forbidden for black under renju \\(double three\\)"):
        read_record(text)
    psq = write_record(free, "psq") + "rule: renju\n"
    with pytest.raises(RecordFormatError, match="forbidden"):
        read_record(psq, name="g.psq")
    with pytest.raises(RecordFormatError, match="unknown gomoku rule"):
        read_record(write_record(free, "psq") + "rule: caro\n", name="g.psq")
    # Gomocup's caro bit is refused as the name is (it read as free-style, without a word)
    for number in ("8", "9", "12"):
        with pytest.raises(RecordFormatError, match="caro"):
            read_record(write_record(free, "psq") + f"rule: {number}\n", name="g.psq")


# --- the command line -----------------------------------------------------------------------

FOUR_FOUR = "f9 a1 f10 a3 f11 f12 c8 b8 d8 a5 e8 a7"   # f8: two closed fours for black


def test_analyse_never_offers_a_forbidden_point_under_renju(capsys):
    import json
    from engine.commands.cli import analyse_main
    results = {}
    for rule in ("freestyle", "renju"):
        assert analyse_main(["--game", "gomoku", "--rule", rule, "--position", FOUR_FOUR, "--sims", "40",
                             "--top", "40"]) == 0
        results[rule] = json.loads(capsys.readouterr().out.splitlines()[0])
    assert results["freestyle"]["move"] == "f8"   # two fours: a win in free-style
    assert results["renju"]["move"] != "f8"
    assert "f8" not in [m["move"] for m in results["renju"]["top"]]


def test_rule_is_refused_for_other_games(capsys):
    from engine.commands.cli import analyse_main
    assert analyse_main(["--game", "connect4", "--rule", "renju", "--sims", "5"]) == 2
    assert "--rule is for gomoku" in capsys.readouterr().err


def test_black_is_lost_when_the_only_block_of_whites_four_is_forbidden():
    # white's c7 d8 e9 . g11 makes five at f10, and f10 is a double three for black (the row
    # d10 e10 f10, the column f10 f11 f12): black cannot block, white wins next move
    moves = "f12 c7 f11 d8 d10 e9 e10 g11"
    s = get_game("gomoku", rule="renju").state_from_text(moves)
    f10 = (15 - 10) * 15 + 5
    assert s.action_to_text(f10) == "f10"
    assert s.current_player == 0 and s.forbidden_actions() == [f10]
    assert s._wins[1] == 1 << f10
    assert s.proven_value() == -1.0 and s.proven_plies() == 2
    # the same stones under the standard rule: black blocks at f10, nothing is proven
    assert get_game("gomoku", rule="standard").state_from_text(moves).proven_value() is None


def test_a_three_completed_only_by_a_move_that_makes_five_is_not_a_three():
    # The star f11 makes the row three e11 * g11 (real) and the anti-diagonal f11 . h9 i8, whose
    # only straight-four point g10 would also make five in the g column (g7 g8 g9 . g11): that
    # move is a five, not a straight four, so the anti-diagonal is not a three and the star is
    # allowed (the referees' reading: Piskvork's ForbiddenPointFinder, Rapfi; the literal RIF
    # text would count it). Found by the differential check against Rapfi.
    #
    #  11  . . . . X * X . .
    #  10  . . . . . . . . .
    #   9  . . . . . . X X .
    #   8  . . . . . . X . X
    #   7  . . . . . . X . .
    #       a b c d e f g h i
    b = stones("e11 g11 g9 h9 g8 i8 g7")
    w = stones("a1 c1 e1 g1 k1 m1 o1")
    star = point("f11")
    assert renju.forbidden_kind(b, w, star, GEO) is None
    # without g7 and g8, g10 is a four-three, not a five: the anti-diagonal three is real
    assert renju.forbidden_kind(b & ~stones("g7 g8"), w, star, GEO) == "double-three"


def test_self_play_under_renju_never_plays_a_forbidden_point():
    from engine.core.config import SelfPlaySettings
    from engine.core.evaluators import UniformEvaluator
    from engine.core.selfplay import play_games
    g = get_game("gomoku", size=9, rule="renju")
    settings = SelfPlaySettings(sims=8, games_per_generation=4, parallel_games=4, leaf_batch=1, max_plies=81,
                                temperature_moves=81, resign_threshold=0)
    records, _ = play_games(g, UniformEvaluator(), settings, 4, seed=5)
    forbidden_seen = 0
    for r in records:
        s = g.initial_state()
        for a in r.moves:
            if s.current_player == 0:
                forbidden_seen += len(s.forbidden_actions())
                assert renju.forbidden_kind(s._black, s._white, a, g.geometry) is None
            s = s.apply(a)
        assert s.is_terminal() or len(r.moves) == 81
    assert len(records) == 4 and forbidden_seen > 0   # the games did meet forbidden points
