"""Tic-tac-toe rules, notation and encoding."""
from __future__ import annotations

import numpy as np
import pytest

from games import NotationError, get_game
from games.perft import perft


@pytest.fixture(scope="module")
def game():
    return get_game("tictactoe")


def test_start_position_is_empty_with_nine_moves_for_player_0(game):
    s = game.initial_state()
    assert s.current_player == 0
    assert s.legal_actions() == list(range(9))
    assert not s.is_terminal() and s.winner() is None
    assert s.to_text() == ""


def test_cells_are_named_by_column_letter_and_row_from_the_top(game):
    s = game.initial_state()
    assert [s.action_to_text(a) for a in (0, 2, 4, 6, 8)] == ["a1", "c1", "b2", "a3", "c3"]
    assert s.parse_action("c1") == 2
    assert s.parse_action(" A3 ") == 6


@pytest.mark.parametrize("moves, line", [
    ("a1 a2 b1 b2 c1", "top row"),
    ("a3 a1 b3 b1 c3", "bottom row"),
    ("b1 a1 b2 a2 b3", "middle column"),
    ("a1 b1 b2 c1 c3", "main diagonal"),
    ("c1 a1 b2 a2 a3", "anti-diagonal"),
])
def test_three_in_a_row_wins_for_player_0(game, moves, line):
    s = game.state_from_text(moves)
    assert s.winner() == 0, line
    assert s.is_terminal() and s.legal_actions() == []
    assert s.returns() == (1.0, -1.0)
    assert s.terminal_value() == -1.0  # player 1 is to move and has lost


def test_three_in_a_row_wins_for_player_1(game):
    s = game.state_from_text("a1 c1 a2 c2 b3 c3")
    assert s.winner() == 1 and s.is_terminal()


def test_full_board_without_a_line_is_a_draw(game):
    s = game.state_from_text("b2 a1 c1 a3 a2 c2 b1 b3 c3")
    assert s.is_terminal() and s.winner() is None
    assert s.legal_actions() == [] and s.returns() == (0.0, 0.0)


def test_completing_a_line_with_the_last_cell_is_a_win_not_a_draw(game):
    s = game.state_from_text("a2 b2 b1 c1 c3 b3 a1 c2 a3")
    assert len(s.moves) == 9 and s.winner() == 0


def test_bad_cells_are_rejected_with_the_reason(game):
    s = game.state_from_text("b2")
    with pytest.raises(NotationError, match="bad cell"):
        s.parse_action("b")
    with pytest.raises(NotationError, match="off the 3x3 board"):
        s.parse_action("d1")
    with pytest.raises(NotationError, match="off the 3x3 board"):
        s.parse_action("a4")
    with pytest.raises(NotationError, match="already taken"):
        s.parse_action("b2")
    over = game.state_from_text("a1 a2 b1 b2 c1")
    with pytest.raises(NotationError, match="already over"):
        over.parse_action("c3")


def test_bad_position_text_names_the_move(game):
    with pytest.raises(NotationError, match=r"move 3 \('a1'\).*already taken"):
        game.state_from_text("a1 b2 a1")
    with pytest.raises(NotationError, match="move 6"):
        game.state_from_text("a1 a2 b1 b2 c1 c3")


def test_position_text_round_trips(game):
    s = game.state_from_text("b2, a1 c3")
    assert s.to_text() == "b2 a1 c3"
    assert game.state_from_text(s.to_text()) == s


def test_transpositions_compare_equal(game):
    assert game.state_from_text("a1 b2 c3") == game.state_from_text("c3 b2 a1")
    assert game.state_from_text("a1 b2 c3") != game.state_from_text("a1 c3 b2")


def test_encode_is_from_the_point_of_view_of_the_player_to_move(game):
    s = game.state_from_text("b2 a1 c3")  # player 1 to move
    planes = s.encode()
    assert planes.shape == (2, 3, 3) and planes.dtype == np.float32
    assert planes[0, 0, 0] == 1  # a1: player 1's own stone
    assert planes[1, 1, 1] == 1 and planes[1, 2, 2] == 1  # b2, c3: the opponent's
    assert planes.sum() == 3


def test_board_array_and_render_show_the_board_as_seen(game):
    s = game.state_from_text("b2 a1 c3")
    assert s.board_array().tolist() == [[-1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert s.render().splitlines() == ["  a b c", "1 O . .", "2 . X .", "3 . . X"]


def test_perft_matches_the_published_counts_to_the_end_of_the_game(game):
    expected = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]
    assert perft(game.initial_state(), 9) == expected
    assert perft(game.initial_state(), 5, use_fast=False) == expected[:5]


def test_eight_dihedral_symmetries(game):
    syms = game.symmetries()
    assert len(syms) == 8
    assert len({tuple(cells) for cells, _ in syms}) == 8
