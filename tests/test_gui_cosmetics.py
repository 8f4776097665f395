"""Small things a player sees: nothing drawn outside the rounded xiangqi and gomoku boards,
win-rate labels that never run into each other, and a pasted Connect Four string that switches
game from tic-tac-toe."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import make_app, press


@pytest.fixture
def app(tmp_path, monkeypatch):
    a = make_app(tmp_path, monkeypatch, ai_enabled=False)
    yield a
    a.shutdown()


@pytest.mark.parametrize("game_id", ["xiangqi", "gomoku"])
def test_the_boards_texture_stays_inside_its_rounded_corners(app, game_id):
    app.start_play(game_id, "first", "strong")
    app.step()
    r = app.scene.view.renderer
    surf = r._board_surface(app.palette) if game_id == "xiangqi" else r._board_surface(app.scene.c.state, app.palette)
    w, h = surf.get_size()
    for x, y in ((0, 0), (2, 0), (0, 2), (w - 1, 0), (w - 3, 0), (w - 1, 2), (0, h - 1), (w - 1, h - 1), (w - 3, h - 1)):
        assert surf.get_at((x, y)).a == 0, (x, y, surf.get_at((x, y)))


def test_pasting_a_column_string_in_tictactoe_switches_to_connect_four(app):
    app.start_play("tictactoe", "first", "strong")
    pygame.scrap.put_text("4453")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.c.game.id == "connect4" and len(app.scene.c.state.moves) == 4
