"""connect2, the 1x4 teaching game: rules, notation and perft."""
from __future__ import annotations

import numpy as np
import pytest

from games import NotationError, get_game
from games.perft import perft


@pytest.fixture(scope="module")
def game():
    return get_game("connect2")


def test_start_offers_all_four_cells(game):
    s = game.initial_state()
    assert s.legal_actions() == [0, 1, 2, 3] and s.current_player == 0


def test_two_adjacent_cells_win(game):
    s = game.state_from_text("1 4 2")
    assert s.winner() == 0 and s.is_terminal() and s.legal_actions() == []
    assert game.state_from_text("1 2 4 3").winner() == 1


def test_full_strip_without_a_pair_is_a_draw(game):
    s = game.state_from_text("1 2 3 4")
    assert s.is_terminal() and s.winner() is None and s.returns() == (0.0, 0.0)


def test_notation_and_errors(game):
    s = game.state_from_text("13")
    assert s.to_text() == "1 3" and s.moves == (0, 2)
    with pytest.raises(NotationError, match="bad cell"):
        s.parse_action("5")
    with pytest.raises(NotationError, match="already taken"):
        s.parse_action("3")
    with pytest.raises(NotationError, match=r"move 2 \('1'\)"):
        game.state_from_text("1 1")


def test_encode_and_mirror_symmetry(game):
    s = game.state_from_text("1")
    planes = s.encode()
    assert planes.shape == (2, 1, 4) and planes.dtype == np.float32
    assert planes[1, 0].tolist() == [1, 0, 0, 0] and planes[0].sum() == 0
    (_, a0), (_, a1) = game.symmetries()
    assert a0.tolist() == [0, 1, 2, 3] and a1.tolist() == [3, 2, 1, 0]


def test_perft(game):
    # ply 3 ends the lines where player 0's two stones touch; the 12 others fill the strip
    assert perft(game.initial_state(), 4) == [4, 12, 24, 12]
