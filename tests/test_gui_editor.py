"""The board editor driven like a person would: opened from the play screen with E, pieces
placed and removed by clicks, the side to move chosen, the rules' verdict shown, then the
position played against the AI and its record saved and loaded back."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import numpy as np
import pygame
import pytest

from test_gui_support import app_factory, button_named, click, press, run_until


def open_editor(app, game_id):
    app.start_play(game_id, "first", "beginner")
    app.step()
    play = app.scene
    press(app, pygame.K_e)
    from gui.scenes.editor import EditorScene
    assert isinstance(app.scene, EditorScene) and app.scene.back_scene is play
    app.step()
    return app.scene


def click_cell(app, cell):
    r = app.scene.view.renderer
    if app.scene.game_id == "connect4":
        click(app, r.cell_center(*cell))
    else:
        click(app, r.target_center(cell))


def test_e_opens_the_editor_from_the_play_screen_and_help_lists_it(app_factory):
    from gui.scenes.help import SHORTCUTS
    assert ("E  ·  A", "keys.study") in SHORTCUTS
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, "tictactoe")
    press(app, pygame.K_ESCAPE)
    assert app.scene is ed.back_scene


def test_tictactoe_setup_by_clicks_is_played_against_the_ai(app_factory):
    app = app_factory()
    ed = open_editor(app, "tictactoe")
    click_cell(app, (1, 1))          # X on b2
    assert ed.board[1, 1] == 1 and [p.code for p in ed.problems] == ["count_first"]
    assert not button_named(app, ed_label("editor.play")).enabled
    press(app, pygame.K_2)           # the O pen
    click_cell(app, (0, 0))          # O on a1
    assert ed.problems == []
    click_cell(app, (0, 0))          # the same piece again takes it off
    assert ed.board[0, 0] == 0
    click(app, app.scene.view.renderer.target_center((0, 2)), button=3)   # right-click on an empty cell: nothing
    click_cell(app, (2, 2))
    button_named(app, ed_label("editor.play")).action()
    c = app.scene.c
    assert c.history[0].board_array().tolist() == [[0, 0, 0], [0, 1, 0], [0, 0, -1]]
    assert c.setup_plies == 2 and len(c.history) == 1 and c.human == 0
    assert run_until(app, lambda: c.human_to_move or c.over or c.error)


def test_a_floating_connect4_disc_is_refused_in_plain_words(app_factory):
    from gui.i18n import set_language
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, "connect4")
    click_cell(app, (2, 3))          # high up in column 4, nothing below
    assert [p.code for p in ed.problems] == ["floating", "count_second"] or "floating" in [p.code for p in ed.problems]
    from gui.scenes.editor import problem_text
    assert "column 4" in problem_text("connect4", ed.problems[0])
    set_language("zh")
    try:
        assert "第 4 列" in problem_text("connect4", ed.problems[0])
    finally:
        set_language("en")
    press(app, pygame.K_RETURN)      # refused: the editor stays
    assert app.scene is ed


def test_xiangqi_palette_places_both_colours_and_the_side_to_move_counts(app_factory):
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, "xiangqi")
    press(app, pygame.K_c)           # clear
    assert not ed.board.any()
    assert {p.code for p in ed.problems} == {"no_general"}
    ed.pen = 1
    click_cell(app, (9, 4))          # the red general on e0
    ed.pen = -1
    click_cell(app, (0, 4))          # the black general on e9: they face each other
    assert [p.code for p in ed.problems] == ["generals_face"]
    ed.pen = -7
    click_cell(app, (1, 4))          # a black soldier in between, behind its start
    assert [p.code for p in ed.problems] == ["soldier_behind"]
    ed.pen = 5
    click_cell(app, (1, 4))          # a red chariot there instead: it checks Black
    assert ed.problems and ed.problems[0].code == "not_to_move_in_check"
    press(app, pygame.K_TAB)         # Black to move
    assert ed.to_move == 1 and ed.problems == []
    press(app, pygame.K_a)           # analyse: play it with hints on, the person on the side to move
    c = app.scene.c
    assert c.hints_on and c.human == 1 and c.history[0].to_text().startswith("4k4/4R4/")


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
def test_xiangqi_palette_gives_each_colour_its_own_row(app_factory, size):
    """Under Xvfb the black general sat at the end of the red pieces' row."""
    app = app_factory(ai_enabled=False, size=size)
    ed = open_editor(app, "xiangqi")
    rows = {code: rect.y for rect, code in ed.swatches}
    assert {rows[c] for c in range(1, 8)} == {rows[1]}
    assert {rows[-c] for c in range(1, 8)} == {rows[-1]} and rows[-1] > rows[1]
    assert [rect.x for rect, code in ed.swatches if code > 0] == [rect.x for rect, code in ed.swatches if code < 0]


def test_a_game_from_a_gomoku_setup_saves_and_loads_back_as_the_setup(app_factory, tmp_path):
    from gui.records import load_record
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, "gomoku")
    for cell, pen in (((7, 7), 1), ((7, 8), -1), ((8, 8), 1)):
        ed.pen = pen
        click_cell(app, cell)
    assert ed.to_move == 0 and [p.code for p in ed.problems] == ["count_first"]
    press(app, pygame.K_TAB)
    press(app, pygame.K_RETURN)
    c = app.scene.c
    assert c.setup_plies == 3 and c.human == 1
    c.play(c.state.legal_actions()[0])
    path = app.save_game(c, tmp_path)
    state, meta = load_record(path)
    assert state == c.state and meta["setup"] == "3"
    app.play_record(state, meta, app.scene)
    assert app.scene.c.setup_plies == 3 and len(app.scene.c.history) == 2


def test_play_from_here_over_a_game_in_progress_asks_first(app_factory):
    app = app_factory(ai_enabled=False)
    app.start_play("othello", "first", "beginner")
    c = app.scene.c
    c.play(c.state.legal_actions()[0])
    c.history.append(c.state.apply(c.state.legal_actions()[0]))   # the AI's answer
    c.evals.append(None)
    c.grades.append(None)
    assert c.in_progress
    press(app, pygame.K_e)
    ed = app.scene
    assert ed.problems == []
    press(app, pygame.K_RETURN)
    assert app.overlay is not None and app.scene is ed and len(c.history) == 3   # asked, nothing lost yet
    press(app, pygame.K_RETURN)      # the first choice: play from the edited position
    assert app.scene.c is c and len(c.history) == 1 and c.history[0].start is not None


def test_othello_setup_with_white_to_move_autosaves_and_resumes(app_factory):
    from gui import autosave
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, "othello")
    press(app, pygame.K_TAB)          # the start position with White to move: a setup of its own
    assert ed.problems == []
    press(app, pygame.K_RETURN)
    c = app.scene.c
    assert c.human == 1 and c.state.current_player == 1
    c.play(c.state.legal_actions()[0])
    autosave.save(c)
    saved = autosave.load(c.game.key)
    assert saved["state"] == c.state


def ed_label(key):
    from gui.i18n import t
    return t(key)


def test_m_numbers_gomoku_stones_from_the_first_move_after_a_setup(app_factory, monkeypatch):
    from games import get_game
    from gui import theme
    app = app_factory(ai_enabled=False)
    app.start_play("gomoku", "first", "beginner")
    c = app.scene.c
    game = get_game("gomoku")
    state = game.state_from_text("h8 i9 h9 i10")
    c.load(state, setup=3)                      # three stones set up, then one move
    app.step()
    r = app.scene.view.renderer
    drawn = []
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda s, text, pos, *a, **k: drawn.append((text, pos)) or real(s, text, pos,
                                                                                                    *a, **k))

    def numbers():
        drawn.clear()
        app.invalidate()
        app.step()
        points = {tuple(r.grid.point(*r.action_cell(a))): a for a in state.moves}
        return {points[tuple(pos)]: text for text, pos in drawn if tuple(pos) in points}
    assert numbers() == {}                      # off by default
    press(app, pygame.K_m)
    assert numbers() == {state.moves[3]: "1"}   # the set-up stones stay plain
    press(app, pygame.K_m)
    assert numbers() == {}


@pytest.mark.parametrize("game_id", ["tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi"])
def test_copy_and_paste_of_a_set_up_position_keeps_the_setup(app_factory, game_id):
    """Copying a position played from the editor and pasting it back gives the same position
    with the same setup: its stones stay the setup, not moves (the move list, undo, rating)."""
    app = app_factory(ai_enabled=False)
    ed = open_editor(app, game_id)
    state = ed.game.initial_state()
    for _ in range(2 if game_id in ("tictactoe", "connect2") else 4):   # a position some play reaches
        state = state.apply(state.legal_actions()[0])
    ed.board = np.array(state.board_array(), dtype=np.int8)
    ed.set_side(state.current_player)
    assert ed.problems == []
    press(app, pygame.K_RETURN)
    c = app.scene.c
    c.play(c.state.legal_actions()[0])   # a move of the game after the setup
    setup, history = c.setup_plies, [s.key() for s in c.history]
    assert len(history) == 2
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    press(app, pygame.K_RETURN)   # a game in progress: asked first
    assert app.scene.c is c and c.setup_plies == setup and [s.key() for s in c.history] == history
