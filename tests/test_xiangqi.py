"""Xiangqi rules, end-of-game rules, notation, network layout and perft.

Squares are written in ICCS: files a..i from Red's left, ranks 0..9 from Red's side.
FEN ranks run from rank 9 (Black's back rank) down to rank 0.
"""
from __future__ import annotations

import random

import numpy as np
import pytest

from games import NotationError, get_game
from games.perft import perft
from games.xiangqi import (ADVISOR, CANNON, CHARIOT, ELEPHANT, GENERAL, HORSE, NO_CAPTURE_LIMIT, SOLDIER,
                           START_FEN)

GAME = get_game("xiangqi")


def position(text: str):
    return GAME.state_from_text(text)


def destinations(state, sq: str) -> set[str]:
    """ICCS names of the squares the piece on ``sq`` may legally move to."""
    f, r = "abcdefghi".index(sq[0]), int(sq[1])
    return {"abcdefghi"[tf] + str(tr) for tf, tr in state.moves_from(f, r)}


def play(state, *moves: str):
    for m in moves:
        state = state.play(state.parse_action(m))
    return state


def mirrored_fen(fen: str) -> str:
    placement, rest = fen.split(" ", 1)
    return "/".join(row[::-1] for row in placement.split("/")) + " " + rest


def random_positions(seed: int, count: int, lo: int, hi: int):
    """``count`` positions, each after lo..hi-1 random legal moves from the start (fewer where
    the game ends first; the finished ones included)."""
    rng = random.Random(seed)
    for _ in range(count):
        s = GAME.initial_state()
        for _ in range(rng.randrange(lo, hi)):
            if s.is_terminal():
                break
            s = s.apply(rng.choice(s.legal_actions()))
        yield s


# --- the pieces -------------------------------------------------------------
def test_start_position_has_44_moves_and_red_to_move():
    s = GAME.initial_state()
    assert s.current_player == 0
    assert len(s.legal_actions()) == 44
    assert not s.is_check() and not s.is_terminal()


def test_horse_is_blocked_by_its_leg():
    free = position("3k5/9/9/9/9/9/4N4/9/9/4K4 w")
    assert destinations(free, "e3") == {"d5", "f5", "g4", "g2", "f1", "d1", "c2", "c4"}
    blocked = position("3k5/9/9/9/9/9/4N4/4B4/9/4K4 w")  # the elephant on e2 blocks the jumps to d1 and f1
    assert destinations(blocked, "e3") == {"d5", "f5", "g4", "g2", "c2", "c4"}


def test_horse_leg_is_the_orthogonal_neighbour_towards_the_long_side():
    s = position("3k5/9/9/9/9/9/3pN4/9/9/4K4 w")  # black soldier on d3 blocks c4 and c2 only
    assert destinations(s, "e3") == {"d5", "f5", "g4", "g2", "f1", "d1"}


def test_elephant_is_blocked_by_its_eye():
    s = position("3k5/9/9/9/9/9/9/9/3n5/2B1K4 w")  # the horse on d1 occupies the c0-e2 eye
    assert destinations(s, "c0") == {"a2"}


def test_elephant_never_crosses_the_river():
    s = position("3k5/9/9/9/9/2B6/9/9/9/4K4 w")
    assert destinations(s, "c4") == {"a2", "e2"}
    black = position("3k5/9/9/9/2b6/9/9/9/9/4K4 b")
    assert destinations(black, "c5") == {"a7", "e7"}


def test_advisor_stays_on_the_palace_diagonals():
    s = position("5k3/9/9/9/9/9/9/9/4A4/3K5 w")
    assert destinations(s, "e1") == {"d2", "f2", "f0"}  # d0 holds the general
    corner = position("5k3/9/9/9/9/9/9/5A3/9/3K5 w")
    assert destinations(corner, "f2") == {"e1"}


def test_general_steps_orthogonally_inside_the_palace():
    s = position("5k3/9/9/9/9/9/9/3K5/9/9 w")
    assert destinations(s, "d2") == {"e2", "d1"}  # d3 and c2 lie outside the palace
    centre = position("3k5/9/9/9/9/9/9/9/4K4/9 w")
    assert destinations(centre, "e1") == {"e0", "e2", "f1"}  # d1 would face the black general on d9


def test_chariot_slides_until_blocked_and_captures_the_first_enemy():
    s = position("3k5/9/9/9/p8/9/9/R8/9/4K4 w")
    assert destinations(s, "a2") == {"a0", "a1", "a3", "a4", "a5"} | {f + "2" for f in "bcdefghi"}


def test_cannon_moves_like_a_chariot_but_captures_over_exactly_one_screen():
    s = position("3k5/9/9/n8/9/9/P8/C8/9/4K4 w")
    # a3 is the screen: the cannon cannot move through it but captures the horse on a6
    assert destinations(s, "a2") == {"a0", "a1", "a6"} | {f + "2" for f in "bcdefghi"}
    two_screens = position("3k5/9/9/n8/9/p8/P8/C8/9/4K4 w")
    assert destinations(two_screens, "a2") >= {"a4"} and "a6" not in destinations(two_screens, "a2")


def test_cannon_cannot_capture_without_a_screen():
    s = position("3k5/9/9/n8/9/9/9/C8/9/4K4 w")
    assert "a6" not in destinations(s, "a2") and "a5" in destinations(s, "a2")


def test_soldier_moves_forward_only_before_the_river():
    s = position("3k5/9/9/9/9/9/2P6/9/9/4K4 w")
    assert destinations(s, "c3") == {"c4"}
    black = position("3k5/9/9/2p6/9/9/9/9/9/4K4 b")
    assert destinations(black, "c6") == {"c5"}


def test_soldier_moves_sideways_after_the_river_but_never_back():
    s = position("3k5/9/9/9/2P6/9/9/9/9/4K4 w")
    assert destinations(s, "c5") == {"c6", "b5", "d5"}
    black = position("3k5/9/9/9/9/2p6/9/9/9/4K4 b")
    assert destinations(black, "c4") == {"c3", "b4", "d4"}
    last_rank = position("1P1k5/9/9/9/9/9/9/9/9/4K4 w")
    assert destinations(last_rank, "b9") == {"a9", "c9"}


# --- generals, pins and checks ------------------------------------------------
def test_general_may_not_step_onto_an_open_file_facing_the_other_general():
    s = position("4k4/9/9/9/9/9/9/9/9/3K5 w")
    assert destinations(s, "d0") == {"d1"}


def test_a_lone_piece_between_the_generals_may_not_leave_the_file():
    s = position("4k4/9/9/9/4N4/9/9/9/9/4K4 w")
    assert destinations(s, "e5") == set()
    with pytest.raises(NotationError, match="general in check or facing"):
        s.parse_action("e5d7")


def test_piece_pinned_against_a_chariot_cannot_move():
    s = position("5k3/9/9/9/4r4/9/9/9/4N4/4K4 w")
    assert destinations(s, "e1") == set()
    assert destinations(s, "e0") == {"d0"}  # f0 would face the black general on f9


def test_a_move_that_becomes_a_cannon_screen_is_illegal():
    s = position("5k3/9/4c4/9/9/9/3R5/9/9/4K4 w")
    assert "e3" not in destinations(s, "d3") and "f3" in destinations(s, "d3")


def test_a_move_that_removes_one_of_two_cannon_screens_is_illegal():
    s = position("5k3/9/4c4/9/4P4/9/9/4N4/9/4K4 w")
    assert destinations(s, "e5") == {"e6"}
    assert destinations(s, "e2") == set()


def test_in_check_only_evasions_are_legal():
    s = position("5k3/9/9/9/4r4/9/9/R8/9/4KA3 w")
    assert s.is_check()
    # step aside, block with the chariot, block with the advisor
    assert {s.action_to_text(a) for a in s.legal_actions()} == {"e0d0", "a2e2", "f0e1"}


def test_checkmate_loses():
    s = position("3k5/9/9/9/3R5/9/9/9/9/4K4 b")
    assert s.is_check() and s.is_terminal() and s.legal_actions() == []
    assert s.winner() == 0 and s.end_reason() == "checkmate"
    assert s.terminal_value() == -1.0


def test_stalemate_loses_too():
    s = position("3k5/R8/9/9/9/9/9/9/9/4K4 b")
    assert not s.is_check() and s.is_terminal()
    assert s.winner() == 0 and s.end_reason() == "stalemate"
    red = position("4k4/9/9/9/9/9/9/9/r8/3K5 w")
    assert red.winner() == 1 and red.end_reason() == "stalemate"


def test_delivering_mate_by_a_move_ends_the_game():
    s = play(position("3k5/9/9/9/R8/9/9/9/9/4K4 w"), "a5d5")
    assert s.winner() == 0 and s.end_reason() == "checkmate"


# --- repetition and the 120-ply rule ---------------------------------------------
SHUFFLE = ("h0g2", "h9g7", "g2h0", "g7h9")


def test_threefold_repetition_without_checks_is_a_draw():
    s = GAME.initial_state()
    s = play(s, *SHUFFLE)
    assert s.repetitions() == 2 and not s.is_terminal()
    assert s.encode()[15].all()
    s = play(s, *SHUFFLE[:3])
    assert not s.is_terminal()
    s = play(s, SHUFFLE[3])
    assert s.is_terminal() and s.legal_actions() == []
    assert s.winner() is None and s.end_reason() == "repetition"


PERPETUAL = ("f9f8", "a9a8", "f8f9", "a8a9")  # the chariot checks on rank 9, then 8, then 9...


def test_perpetual_check_loses_for_the_checking_side():
    s = play(position("5k3/9/R8/9/9/9/9/9/9/3K5 w"), "a7a9", *PERPETUAL, *PERPETUAL[:3])
    assert not s.is_terminal()
    s = play(s, PERPETUAL[3])  # the position after a7a9 occurs for the third time
    assert s.is_terminal() and s.winner() == 1 and s.end_reason() == "perpetual check"


def test_perpetual_check_by_black_loses_for_black():
    cycle = ("f0f1", "a0a1", "f1f0", "a1a0")
    s = play(position("3k5/9/9/9/9/9/9/r8/9/5K3 b"), "a2a0", *cycle, *cycle)
    assert s.winner() == 0 and s.end_reason() == "perpetual check"


def test_repetition_where_both_sides_always_check_is_a_draw():
    cycle = ("f3g1", "f1g3", "g1f3", "g3f1")  # each move parries a check and discovers a cannon check
    s = position("1r7/5k3/9/9/9/9/5N3/9/3K1n2c/5C3 w")
    assert s.is_check()
    for m in cycle + cycle:
        s = play(s, m)
        assert s.is_check()
    assert s.is_terminal() and s.winner() is None and s.end_reason() == "repetition"


def test_a_capture_clears_the_repetition_history():
    s = play(GAME.initial_state(), *SHUFFLE, *SHUFFLE[:2])
    assert s.repetitions() == 2 and s.no_capture_plies == 6
    s = play(s, "b2b9")  # the cannon takes the horse
    assert s.repetitions() == 1 and s.no_capture_plies == 0


def test_120_plies_without_capture_draw():
    s = position("3k5/9/9/9/9/9/9/9/9/4K4 w - - 118 70")
    s = play(s, "e0f0")
    assert not s.is_terminal() and s.no_capture_plies == NO_CAPTURE_LIMIT - 1
    s = play(s, "d9d8")
    assert s.is_terminal() and s.winner() is None and s.end_reason() == "no capture in 120 plies"


def test_a_capture_resets_the_no_capture_count():
    s = play(position("3k5/9/9/9/9/9/9/9/4p4/4K4 w - - 119 70"), "e0e1")
    assert s.no_capture_plies == 0 and not s.is_terminal()


def test_mate_on_the_120th_ply_still_wins():
    s = play(position("3k5/9/9/9/R8/9/9/9/9/4K4 w - - 119 70"), "a5d5")
    assert s.winner() == 0 and s.end_reason() == "checkmate"


# --- positions as text ------------------------------------------------------------
def test_start_text_is_the_start_fen_and_reads_back():
    s = GAME.initial_state()
    assert s.to_text() == START_FEN
    assert GAME.state_from_text(START_FEN) == s
    assert GAME.state_from_text("startpos") == s
    assert GAME.state_from_text("") == s


def test_text_with_moves_round_trips():
    s = play(GAME.initial_state(), "h2e2", "h9g7", "h0g2")
    assert s.to_text() == START_FEN + " moves h2e2 h9g7 h0g2"
    back = GAME.state_from_text(s.to_text())
    assert back == s and back.moves == s.moves
    assert GAME.state_from_text("startpos moves h2e2 h9g7 h0g2") == s
    assert GAME.state_from_text("fen " + START_FEN + " moves h2e2 h9g7 h0g2") == s
    assert GAME.state_from_text("startpos moves h2e2, h9g7, h0g2") == s


def test_fen_of_the_current_position_counts_plies_and_moves():
    s = play(GAME.initial_state(), "h2e2", "h9g7")
    assert s.fen() == "rnbakab1r/9/1c4nc1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR w - - 2 2"
    assert GAME.state_from_text(s.fen()).board == s.board


def test_red_side_may_be_written_r_and_trailing_fields_are_optional():
    placement = START_FEN.split()[0]
    assert GAME.state_from_text(placement + " r") == GAME.initial_state()
    assert GAME.state_from_text(placement + " w - -") == GAME.initial_state()
    assert GAME.state_from_text(placement + " b").current_player == 1


def test_black_to_move_text_round_trips():
    s = play(position("3k5/9/9/9/9/9/9/r8/9/5K3 b - - 7 31"), "a2a0")
    assert s.to_text() == "3k5/9/9/9/9/9/9/r8/9/5K3 b - - 7 31 moves a2a0"
    assert s.fen() == "3k5/9/9/9/9/9/9/9/9/r4K3 w - - 8 32"
    assert GAME.state_from_text(s.to_text()) == s


@pytest.mark.parametrize("fen, message", [
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "9 ranks"),
    ("rnbakabnrr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "rank 1 .* 10 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C/9/RNBAKABNR w", "rank 8 .* 8 files"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNX w", "unknown piece letter 'X'"),
    ("rnba1abnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w", "no black general"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/4K4/RNBAKABNR w", "2 red generals"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x", "side to move 'x'"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR", "no side-to-move"),
    ("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - x 1", "plies-since-capture"),
    ("3k5/9/9/9/9/9/9/9/9/K8 w", "red general cannot stand on a0"),
    ("3k5/9/9/9/9/9/9/9/P8/4K4 w", "red soldier cannot stand on a1"),
    ("4k4/9/9/9/9/9/9/9/9/4K4 w", "not to move .* is in check"),
])
def test_bad_fen_is_rejected_with_the_reason(fen, message):
    with pytest.raises(NotationError, match=message):
        GAME.state_from_text(fen)


# --- moves as text ----------------------------------------------------------------
def test_iccs_round_trips_for_every_legal_move_of_random_positions():
    rng = random.Random(7)
    s = GAME.initial_state()
    for _ in range(60):
        if s.is_terminal():
            break
        for a in s.legal_actions():
            text = s.action_to_text(a)
            assert s.parse_action(text) == a
            assert s.parse_action(text.upper()[:2] + "-" + text.upper()[2:]) == a
        s = s.apply(rng.choice(s.legal_actions()))


@pytest.mark.parametrize("before, iccs, wxf, chinese", [
    ((), "h2e2", "C2.5", "炮二平五"),
    (("h2e2",), "h9g7", "H8+7", "马８进７"),
    ((), "b0c2", "H8+7", "马八进七"),
    ((), "a0a1", "R9+1", "车九进一"),
    (("a0a1",), "a9a8", "R1+1", "车１进１"),
    ((), "h2h1", "C2-1", "炮二退一"),
    ((), "f0e1", "A4+5", "仕四进五"),
    ((), "g0e2", "E3+5", "相三进五"),
    ((), "e0e1", "K5+1", "帅五进一"),
    ((), "c3c4", "P7+1", "兵七进一"),
    (("h2e2",), "b7e7", "C2.5", "炮２平５"),
])
def test_wxf_and_chinese_names_of_known_moves(before, iccs, wxf, chinese):
    s = play(GAME.initial_state(), *before)
    a = s.parse_action(iccs)
    assert s.action_to_display(a, "en") == wxf
    assert s.action_to_display(a, "zh") == chinese
    assert s.parse_action(wxf) == a and s.parse_action(chinese) == a


@pytest.mark.parametrize("fen, iccs, wxf, chinese", [
    ("3k5/9/9/9/9/8R/9/9/9/4K3R w", "i4h4", "R+.2", "前车平二"),
    ("3k5/9/9/9/9/8R/9/9/9/4K3R w", "i0h0", "R-.2", "后车平二"),
    ("1c1k5/9/1c7/9/9/9/9/9/9/4K4 b", "b7b4", "C++3", "前炮进３"),
    ("1c1k5/9/1c7/9/9/9/9/9/9/4K4 b", "b9b8", "C-+1", "后炮进１"),
    ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c7b7", "P+.8", "前兵平八"),
    ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c6d6", "P7.6", "中兵平六"),
    ("3k5/9/2P6/2P6/2P6/9/9/9/9/4K4 w", "c5b5", "P-.8", "后兵平八"),
    ("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w", "c6b6", "7+.8", "前七平八"),
    ("3k5/9/9/2P3P2/2P3P2/9/9/9/9/4K4 w", "g5f5", "3-.4", "后三平四"),
    ("5k3/9/9/9/9/9/9/3A5/9/3AK4 w", "d2e1", "A6-5", "仕六退五"),
    ("5k3/9/9/9/9/9/9/3A5/9/3AK4 w", "d0e1", "A6+5", "仕六进五"),
])
def test_tandem_pieces_are_named_front_middle_and_rear(fen, iccs, wxf, chinese):
    s = position(fen)
    a = s.parse_action(iccs)
    assert (s.action_to_display(a, "en"), s.action_to_display(a, "zh")) == (wxf, chinese)
    assert s.parse_action(wxf) == a and s.parse_action(chinese) == a


def test_move_names_accept_common_variant_spellings():
    s = GAME.initial_state()
    a = s.parse_action("h2e2")
    for text in ("c2=5", "C25", "c2.5", "砲二平五", "炮2平5", " H2-E2 "):
        assert s.parse_action(text) == a
    black = play(s, "h2e2")
    assert black.parse_action("马8进7") == black.parse_action("馬８進７") == black.parse_action("h9g7")


def test_every_legal_move_has_a_unique_wxf_and_chinese_name():
    rng = random.Random(3)
    s = GAME.initial_state()
    for _ in range(80):
        if s.is_terminal():
            break
        legal = s.legal_actions()
        for lang in ("en", "zh"):
            names = [s.action_to_display(a, lang) for a in legal]
            assert len(set(names)) == len(names)
        s = s.apply(rng.choice(legal))


@pytest.mark.parametrize("text, message", [
    ("zz", "cannot read move"),
    ("", "cannot read move"),
    ("j2e2", "'j2' .* off the board"),
    ("h2h10", "'h10' .* off the board"),
    ("e5e6", "no piece on e5"),
    ("h7h0", "Black's but Red is to move"),
    ("h2h8", "red cannon on h2 cannot move to h8"),
    ("C3.5", "no legal move"),
    ("炮三平五", "no legal move"),
])
def test_bad_moves_are_rejected_with_the_reason(text, message):
    with pytest.raises(NotationError, match=message):
        GAME.initial_state().parse_action(text)


def test_a_bad_move_in_a_position_text_names_its_index():
    with pytest.raises(NotationError, match=r"move 3 \('h2e2'\)"):
        GAME.state_from_text("startpos moves h2e2 h9g7 h2e2")


def test_no_move_can_be_read_once_the_game_is_over():
    with pytest.raises(NotationError, match="game is over"):
        position("3k5/9/9/9/3R5/9/9/9/9/4K4 b").parse_action("d9e9")


def test_garbage_text_raises_notation_errors_only():
    rng = random.Random(11)
    alphabet = "abcdefghijkrnpKRNBAPC0123456789/-.+= 炮马进退平前后wb"
    s = GAME.initial_state()
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14)))
        for parse in (s.parse_action, GAME.state_from_text):
            try:
                parse(text)
            except NotationError:
                pass


# --- network layout ---------------------------------------------------------------
def test_actions_are_relative_to_the_mover():
    s = GAME.initial_state()
    # h2e2: plane "left, 3" = 3*9 + 2, from-cell row 7 (rank 2 seen from Red), column 7
    assert s.parse_action("h2e2") == (3 * 9 + 2) * 90 + 7 * 9 + 7
    black = play(s, "h2e2")
    # Black's h9g7 is the same move in Black's frame as Red's b0c2
    assert black.parse_action("h9g7") == s.parse_action("b0c2")


def test_the_start_looks_the_same_to_both_sides():
    red = GAME.initial_state()
    black = position(START_FEN.replace(" w ", " b "))
    assert np.array_equal(red.encode(), black.encode())
    assert red.legal_actions() == black.legal_actions()


def test_encode_planes_hold_the_mover_first_and_the_counters_last():
    s = play(GAME.initial_state(), "h2e2")  # Black to move
    planes = s.encode()
    assert planes.shape == (GAME.num_planes, 10, 9)
    assert planes[GENERAL - 1, 9, 4] == 1  # Black's own general at the bottom of its view
    assert planes[7 + CANNON - 1, 2, 4] == 1  # Red's cannon on e2, seen from Black: row 2, column 4
    assert planes[7 + CANNON - 1, 2, 7] == 1  # Red's cannon on b2 is on Black's right (column 7)
    assert planes[14].max() == pytest.approx(1 / NO_CAPTURE_LIMIT)


def test_attack_planes_count_attackers_and_mark_pieces_that_can_be_won():
    # Red: general f0, cannon a0, horse c5 (attacked by Black's chariot and soldier, defended by
    # the soldier c4); Black: general e9, chariot a5 (which also attacks the cannon), soldier c6.
    s = position("4k4/9/9/2p6/r1N6/2P6/9/9/9/C4K3 w - - 0 1")
    planes = s.encode()
    assert planes.shape == (20, 10, 9)

    def at(plane, file, rank):   # Red's frame: row 0 is rank 9
        return planes[plane, 9 - rank, file]
    assert at(16, 2, 5) == pytest.approx(1 / 3) and at(17, 2, 5) == pytest.approx(2 / 3)
    assert at(18, 2, 5) == 1   # a horse attacked by a soldier is lost whatever defends it
    assert at(18, 0, 0) == 1   # the cannon is open to the chariot down the a-file, and undefended
    assert planes[18].sum() == 2 and planes[19].sum() == 0   # nothing of Black's hangs
    # on the a-file the cannon strikes past its screen (the chariot on a5) and only there; the
    # horse reaches a4 and a6
    third = pytest.approx(1 / 3)
    assert [at(16, 0, r) for r in range(1, 10)] == [0, 0, 0, third, 0, pytest.approx(2 / 3), third, third, third]
    black = position("4k4/9/9/2p6/r1N6/2P6/9/9/9/C4K3 b - - 0 1")   # the same board, Black to move
    flipped = black.encode()
    assert np.array_equal(flipped[16], planes[17][::-1, ::-1]) and np.array_equal(flipped[18], planes[19][::-1, ::-1])
    assert np.array_equal(flipped[19], planes[18][::-1, ::-1])
    assert np.array_equal(s.encode_planes(16), planes[:16]) and s.encode_planes(16).shape == (16, 10, 9)


def test_advisors_and_soldiers_do_not_capture_like_elephants():
    # an advisor on d2 and a soldier on g3, Black horses an elephant's move away from each (b4,
    # i1) with the eyes open: neither piece moves so, and the capture search must not think it does
    from games.xiangqi_moves import capture_gain, pseudo_captures
    s = position("4k4/9/9/9/9/1n7/6P2/3A5/8n/3K5 w - - 0 1")
    assert pseudo_captures(list(s.board), 0) == []
    assert capture_gain(list(s.board), 0) == (0, None)


def test_attack_map_agrees_with_the_capture_generator_on_every_square():
    """Each square, for each side: put an enemy soldier there and count the side's captures of
    it; the attack map's count and cheapest attacker must agree (own pieces: defended)."""
    from games.xiangqi_moves import CAPTURE_VALUES, SIGN, attack_map, pseudo_captures
    for s in random_positions(11, 6, 10, 70):
        counts, cheapest = attack_map(s.board)
        for p in (0, 1):
            for t in range(90):
                if abs(s.board[t]) == GENERAL:
                    continue
                b = list(s.board)
                b[t] = -SIGN[p] * SOLDIER
                hits = [abs(b[f]) for _, f, to in pseudo_captures(b, p) if to == t]
                assert counts[p][t] == len(hits), (s.fen(), p, t)
                assert cheapest[p][t] == (min(CAPTURE_VALUES[k] for k in hits) if hits else 0)


def test_board_array_is_absolute_with_red_at_the_bottom():
    board = play(GAME.initial_state(), "h2e2").board_array()
    assert board.dtype == np.int8 and board.shape == (10, 9)
    assert board[9, 4] == GENERAL and board[0, 4] == -GENERAL
    assert board[7, 4] == CANNON and board[0, 0] == -CHARIOT and board[3, 0] == -SOLDIER
    assert board[9, 2] == ELEPHANT and board[9, 3] == ADVISOR and board[9, 1] == HORSE and board[6, 8] == SOLDIER


def test_mirror_symmetry_maps_the_legal_mask_and_the_planes():
    cells, actions = GAME.symmetries()[1]
    rng = random.Random(5)
    s = GAME.initial_state()
    for _ in range(40):
        if s.is_terminal():
            break
        original = position(s.fen())
        mirror = position(mirrored_fen(s.fen()))
        mask = np.zeros(GAME.action_size)
        mask[original.legal_actions()] = 1
        mirror_mask = np.zeros(GAME.action_size)
        mirror_mask[mirror.legal_actions()] = 1
        planes, policy = GAME.augment(original.encode(), mask)[1]
        assert np.array_equal(policy, mirror_mask)
        assert np.array_equal(planes, mirror.encode())
        s = s.apply(rng.choice(s.legal_actions()))


# --- helpers for players and the GUI ----------------------------------------------------
def test_gui_helpers_describe_pieces_moves_and_captures():
    s = GAME.initial_state()
    assert s.piece_at(4, 0) == GENERAL and s.piece_at(7, 7) == -CANNON and s.piece_at(4, 4) == 0
    assert set(s.moves_from(7, 2)) == {(7, 1), (7, 3), (7, 4), (7, 5), (7, 6), (7, 9)} | \
        {(f, 2) for f in (2, 3, 4, 5, 6, 8)}
    take = s.moves_from(7, 2)[(7, 9)]
    assert s.captured(take) == -HORSE and s.captured(s.parse_action("h2e2")) == 0
    assert s.action_squares(take) == ((7, 2), (7, 9))
    assert s.moves_from(4, 4) == {} and s.moves_from(7, 7) == {}  # empty square; Black's piece
    assert SOLDIER == 7


# --- perft --------------------------------------------------------------------------
def test_perft_from_the_start_matches_the_published_counts():
    assert GAME.initial_state().perft_counts(3) == [44, 1920, 79666]


def test_fast_perft_agrees_with_the_state_api():
    s = GAME.state_from_text("startpos moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7")
    assert perft(s, 3) == perft(s, 3, use_fast=False)


def test_perft_depth_4_from_the_start():
    assert GAME.initial_state().perft_counts(4)[-1] == 3290240


# --- proven results for the search --------------------------------------------

def test_a_mate_in_one_is_proven_and_a_move_that_spoils_it_is_not():
    g = get_game("xiangqi")
    # red chariots on a1 and b8: a1a9 (and b8f8, a1f1) mate the lone black general
    s = g.state_from_text("4k4/1R7/9/9/9/9/9/9/R8/3K5 w - - 0 1")
    assert s.proven_value() == 1.0
    assert s.apply(s.parse_action("a1a9")).end_reason() == "checkmate"
    quiet = s.apply(s.parse_action("b8b7"))   # black to move, with nothing to mate with
    assert quiet.proven_value() is None
    # the chariot that covered rank 8 is gone: the check on a9 now has an answer (e9e8)
    assert quiet.apply(quiet.parse_action("e9f9")).proven_value() is None


def test_may_give_check_lets_every_checking_move_through():
    from games.xiangqi_moves import GENERAL, SIGN, may_give_check
    checks = passed = total = 0
    for s in random_positions(11, 300, 0, 120):
        if s.is_terminal():
            continue
        b = list(s.board)
        target = b.index(-GENERAL * SIGN[s.current_player])
        for a in s.legal_actions():
            (ff, fr), (tf, tr) = s.action_squares(a)
            f, t = fr * 9 + ff, tr * 9 + tf
            gives = s.apply(a).is_check()
            may = may_give_check(b, f, t, target)
            assert may or not gives, (s.to_text(), s.action_to_text(a))
            checks += gives
            passed += may
            total += 1
    # checks were met, and the filter passes over most moves (what makes it worth having)
    assert checks > 200 and passed < 0.6 * total, (checks, passed, total)


def test_proven_value_agrees_with_trying_every_move():
    mates = checked = 0
    for s in random_positions(5, 400, 20, 160):
        if s.is_terminal():
            continue
        fresh = GAME.state_from_text(s.to_text())   # nothing cached
        brute = any(s.apply(a).end_reason() == "checkmate" for a in s.legal_actions())
        assert (fresh.proven_value() == 1.0) == brute, s.to_text()
        mates += brute
        checked += 1
    assert checked > 300 and mates >= 3, (checked, mates)


def test_has_legal_move_agrees_with_counting_them():
    from games.xiangqi_moves import count_legal, has_legal_move
    seen = {True: 0, False: 0}
    for s in random_positions(3, 300, 20, 200):
        b = list(s.board)
        for player in (0, 1):   # the side not to move too: its general may stand attacked
            has = has_legal_move(b, player)
            assert has == (count_legal(b, player) > 0) and b == list(s.board), s.fen()
            seen[has] += 1
    assert seen[False] >= 3 and seen[True] > 300, seen


def test_capture_gain_equals_a_full_width_capture_search():
    """The capture search's cut-offs (alpha-beta, "no victim left worth more than alpha") change
    nothing: without its node budget it finds what trying every capture sequence finds."""
    from games.xiangqi_moves import CAPTURE_VALUES, SIGN, capture_gain, pseudo_captures

    def full(b, side, ply):   # every capture, every reply, standing pat allowed at each ply
        if ply >= 6:
            return 0
        best = 0
        for _, f, t in pseudo_captures(b, side):
            q = b[t]
            gain = CAPTURE_VALUES[-q * SIGN[side]]
            if gain >= 10000:
                return gain
            b[t], b[f] = b[f], 0
            best = max(best, gain - full(b, 1 - side, ply + 1))
            b[f], b[t] = b[t], q
        return best

    winning = 0
    for s in random_positions(7, 120, 10, 90):
        if s.is_terminal():
            continue
        b = list(s.board)
        gain, first = capture_gain(b, s.current_player, budget=10 ** 9)
        assert gain == full(b, s.current_player, 0) and b == list(s.board), s.fen()
        assert (first is None) == (gain == 0)
        winning += gain > 0
    assert winning > 20, winning
