"""Positions set up by hand (the board editor): each game's legality checks, the state made
from a setup, and its records read back."""
import numpy as np
import pytest

from games import get_game
from games.base import SetupError
from games.records import read_record, write_record


def codes(game, board, to_move):
    return [p.code for p in game.validate_position(board, to_move)]


def board_of(game, text):
    return game.state_from_text(text).board_array()


# --- tic-tac-toe --------------------------------------------------------------------------
def test_tictactoe_counts_must_fit_the_side_to_move():
    g = get_game("tictactoe")
    b = board_of(g, "b2 a1 a2 c2")
    assert codes(g, b, 0) == []
    assert codes(g, b, 1) == ["count_second"]
    one_x = board_of(g, "b2")
    assert codes(g, one_x, 0) == ["count_first"]


def test_tictactoe_a_won_board_is_refused():
    g = get_game("tictactoe")
    won = board_of(g, "a1 b1 a2 b2 a3")
    assert codes(g, won, 1) == ["already_won"]
    both = np.array([[1, 1, 1], [-1, -1, -1], [0, 0, 0]], np.int8)
    assert "both_won" in codes(g, both, 0)


def test_tictactoe_setup_state_has_the_board_and_side():
    g = get_game("tictactoe")
    b = board_of(g, "b2 a1 a2")
    s = g.from_setup(b, 1)
    assert s.board_array().tolist() == b.tolist() and s.current_player == 1 and not s.is_terminal()
    with pytest.raises(SetupError):
        g.from_setup(b, 0)


# --- Connect Four ---------------------------------------------------------------------------
def test_connect4_floating_disc():
    g = get_game("connect4")
    b = np.zeros((6, 7), np.int8)
    b[0][3] = 1   # the top row of column 4 with nothing below
    assert codes(g, b, 1) == ["floating"]
    assert g.validate_position(b, 1)[0].fields == {"column": 4}


def test_connect4_a_finished_board_is_refused():
    g = get_game("connect4")
    assert codes(g, board_of(g, "1212121"), 1) == ["already_won"]
    rows = (1, 1, -1, -1, 1, 1)   # a full board without four in a row: columns alternate, rows in pairs
    full = np.array([[rows[r] * (1 if c % 2 == 0 else -1) for c in range(7)] for r in range(6)], np.int8)
    full[0][6] = -1   # 21 discs each
    assert int(full.sum()) == 0
    assert codes(g, full, 0) == ["board_full"]


def test_connect4_stacks_no_order_of_drops_makes():
    g = get_game("connect4")
    b = np.zeros((6, 7), np.int8)
    b[5][0] = b[5][1] = -1   # Yellow at the bottom of both columns, Red above: Red has nowhere to start
    b[4][0] = b[4][1] = 1
    assert codes(g, b, 0) == ["unreachable"]


def test_connect4_setup_matches_the_board():
    g = get_game("connect4")
    s = g.state_from_text("44536")
    t = g.from_setup(s.board_array(), 1)
    assert t.board_array().tolist() == s.board_array().tolist() and t.current_player == 1


# --- connect2 ----------------------------------------------------------------------------------
def test_connect2_rules():
    g = get_game("connect2")
    assert codes(g, np.array([[1, 1, -1, 0]], np.int8), 0) == ["count_first", "already_won"]
    assert codes(g, np.array([[1, -1, 0, 0]], np.int8), 0) == []
    assert g.from_setup(np.array([[1, -1, 0, 0]], np.int8), 0).board_array().tolist() == [[1, -1, 0, 0]]


# --- othello ---------------------------------------------------------------------------------------
def test_othello_centre_never_empty():
    g = get_game("othello")
    b = g.initial_state().board_array()
    b[3][3] = 0
    assert codes(g, b, 0) == ["centre_empty"]


def test_othello_disc_out_of_touch():
    g = get_game("othello")
    b = g.initial_state().board_array()
    b[0][0] = 1
    assert codes(g, b, 0) == ["apart"]


def test_othello_game_over_is_refused():
    g = get_game("othello")
    b = np.zeros((8, 8), np.int8)
    b[3][3] = b[3][4] = b[4][3] = b[4][4] = 1   # only black: nobody can move
    assert codes(g, b, 0) == ["no_moves"]


def test_othello_setup_with_white_to_move_plays_and_reads_back():
    g = get_game("othello")
    b = g.state_from_text("f5d6c3d3c4").board_array()
    s = g.from_setup(b, 1)
    assert s.current_player == 1 and s.moves == ()
    s = s.apply(s.legal_actions()[0])
    for fmt in ("sgf", "zeroboard", "moves"):
        back = read_record(write_record(s, fmt, {})).state
        assert back == s and back.to_text() == s.to_text(), fmt


def test_othello_sgf_with_a_bad_setup_is_refused():
    from games.records import RecordFormatError
    with pytest.raises(RecordFormatError, match="setup"):
        read_record("(;GM[2]FF[4]SZ[8]AB[a1][d5][e4]AW[d4][e5]PL[B];B[f5])")


# --- gomoku ------------------------------------------------------------------------------------
def test_gomoku_rules():
    g = get_game("gomoku")
    assert codes(g, board_of(g, "h8 i9 h9 i10 h10 i11 h11 i12 h12"), 1) == ["already_won"]
    assert codes(g, board_of(g, "h8 i9 h9"), 0) == ["count_first"]
    assert codes(g, board_of(g, "h8 i9 h9"), 1) == []


def test_gomoku_setup_stones_read_back_as_setup():
    g = get_game("gomoku")
    s = g.from_setup(board_of(g, "h8 i9 h9"), 1)
    s = s.apply(s.legal_actions()[0])
    for fmt in ("sgf", "zeroboard"):
        record = read_record(write_record(s, fmt, {"setup": "3"}))
        assert record.state == s and record.meta.get("setup") == "3", fmt


# --- xiangqi -------------------------------------------------------------------------------
def xq(pieces):
    """A xiangqi board from {(file letter + rank): code}."""
    b = np.zeros((10, 9), np.int8)
    for square, code in pieces.items():
        b[9 - int(square[1])][ord(square[0]) - 97] = code
    return b


def test_xiangqi_generals_facing():
    g = get_game("xiangqi")
    assert codes(g, xq({"e0": 1, "e9": -1}), 0) == ["generals_face"]
    assert codes(g, xq({"e0": 1, "e9": -1, "e5": 7}), 0) == []


def test_xiangqi_pieces_where_they_can_never_be():
    g = get_game("xiangqi")
    assert codes(g, xq({"d0": 1, "e9": -1, "a7": 1}), 0) == ["too_many", "general_palace"]
    assert codes(g, xq({"d0": 1, "e9": -1, "e2": 7}), 0) == ["soldier_behind"]
    assert codes(g, xq({"d0": 1, "e9": -1, "a0": 2}), 0) == ["advisor_square"]
    assert codes(g, xq({"d0": 1, "e9": -1, "e7": 3}), 0) == ["elephant_square"]
    assert codes(g, xq({"a0": 1, "e9": -1}), 0) == ["general_palace"]


def test_xiangqi_too_many_and_missing():
    g = get_game("xiangqi")
    three = {"d0": 1, "e9": -1, "a3": 5, "b3": 5, "c3": 5}
    assert codes(g, xq(three), 0) == ["too_many"]
    assert codes(g, xq({"e9": -1}), 0) == ["no_general"]


def test_xiangqi_the_side_not_to_move_in_check():
    g = get_game("xiangqi")
    b = xq({"d0": 1, "e9": -1, "e5": 5})   # a red chariot checks the black general
    assert codes(g, b, 1) == []
    assert codes(g, b, 0) == ["not_to_move_in_check"]


def test_xiangqi_checkmated_side_to_move():
    g = get_game("xiangqi")
    b = xq({"d0": 1, "e9": -1, "a9": 5, "e5": 5})   # checked along the rank, e8 covered: no escape
    assert codes(g, b, 1) == ["checkmated"]


def test_xiangqi_setup_is_a_fen_start_and_reads_back():
    g = get_game("xiangqi")
    s = g.from_setup(xq({"d0": 1, "e9": -1, "e5": 7, "a3": 5}), 1)
    assert s.to_text().startswith("3k4/") is False and " b " in s.to_text()
    s = s.apply(s.legal_actions()[0])
    for fmt in ("pgn", "zeroboard", "moves"):
        assert read_record(write_record(s, fmt, {})).state == s, fmt
