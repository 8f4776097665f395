"""Hints speak one unit: the board's badges show the win rate the side panel lists for the
same moves; the hint list stays at the 1024x640 window size; a hovered line is drawn instead
of the badges (not over them), and in xiangqi it shows which piece moves."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import make_app, texts_drawn


@pytest.fixture
def app_at(tmp_path, monkeypatch):
    apps = []

    def make(size=(1280, 800)):
        a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
        apps.append(a)
        return a
    yield make
    for a in apps:
        a.shutdown()


def with_hints(app, game_id, top):
    app.start_play(game_id, "first", "strong")
    c = app.scene.c
    c.hints_on = True
    c.hint_for = c.state
    c.hint.top = top
    c.analysis_on = False
    app.step()
    return c


def test_the_boards_badge_shows_the_win_rate_the_panel_lists(app_at, monkeypatch):
    app = app_at()
    top = [{"action": 4, "visits": 0, "q": -0.5, "prior": 0.5}, {"action": 0, "visits": 30, "q": -0.5, "prior": 0.2}]
    c = with_hints(app, "tictactoe", top)
    drawn = texts_drawn(app, monkeypatch, mouse=(-1, -1))
    assert "25%" in drawn and "0%" not in drawn           # the win rate, not the visit share
    assert "–" in drawn                                    # a move never tried has no win rate
    assert any("25%" in t_ and "·" in t_ for t_ in drawn)  # the panel's row, same number
    assert c.hint_moves()[1]["share"] == 1.0               # (its visit share would have read 100%)


def test_the_hint_list_stays_at_1024_by_640(app_at):
    app = app_at((1024, 640))
    with_hints(app, "gomoku", [{"action": a, "visits": 50 - a, "q": 0.1, "prior": 0.1} for a in (112, 113, 97)])
    app.step()
    assert len(app.scene.hint_rows) == 3


def test_a_hovered_line_replaces_the_badges_and_shows_the_moving_xiangqi_piece(app_at, monkeypatch):
    from games import get_game
    app = app_at()
    state = get_game("xiangqi").initial_state()
    cannon = state.parse_action("h2e2")
    c = with_hints(app, "xiangqi", [{"action": cannon, "visits": 80, "q": 0.2, "prior": 0.4}])
    c.hint_pv = {cannon: [state.apply(cannon).parse_action("h9g7")]}
    r = app.scene.view.renderer
    assert r.move_origin(state, cannon) == r.grid.point(7, 7)     # the cannon's point, h2
    badge = r.anchor(state, cannon)
    drawn = texts_drawn(app, monkeypatch, mouse=(int(badge[0]), int(badge[1])))
    assert app.scene.hovered_hint == cannon
    assert "60%" not in drawn and "1" in drawn and "2" in drawn   # the line's numbers, no badge under them
    drawn = texts_drawn(app, monkeypatch, mouse=(5, 5))
    assert "60%" in drawn                                          # the badge is back
