"""What the window says back: a xiangqi click that plays nothing explains itself (a point the
picked-up piece cannot reach keeps the piece picked up; a click with no piece picked up
asks for one), and the demo's "Play this game" on a finished game."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from test_gui_support import app, click_target, make_app  # app: the fixture


def last_toast(app):
    return app.toasts[-1][0] if app.toasts else None


def test_a_xiangqi_point_the_picked_up_piece_cannot_reach_says_so_and_keeps_the_piece(app):
    app.start_play("xiangqi", "first", "strong")
    c = app.scene.c
    app.step()
    click_target(app, (7, 7))                           # Red's cannon on h2
    click_target(app, (5, 0))                           # a point it cannot reach
    assert c.selection == (7, 7) and c.state.moves == ()
    assert last_toast(app) == "That piece cannot go there"
    click_target(app, (7, 4))                           # and it still plays from there
    assert c.history[0].action_to_text(c.state.moves[0]) == "h2e2"


def test_a_xiangqi_click_with_no_piece_picked_up_asks_for_one(app):
    app.start_play("xiangqi", "first", "strong")
    app.step()
    click_target(app, (5, 4))                           # an empty point
    assert last_toast(app) == "Click one of your pieces first, then where it goes"
    click_target(app, (9, 3))                           # an advisor on d0: it can move
    assert app.scene.c.selection == (9, 3)
    click_target(app, (9, 3))                           # put back: nothing to say
    assert app.scene.c.selection is None and last_toast(app) != "Not a legal move"


def test_an_occupied_tictactoe_cell_is_still_not_a_legal_move(app):
    app.start_play("tictactoe", "first", "strong")
    app.scene.c.load(app.scene.c.state.apply(4).apply(0))
    app.step()
    click_target(app, (1, 1))
    assert last_toast(app) == "Not a legal move"


def test_play_this_game_on_a_finished_demo_opens_that_game_not_a_blank_setup(tmp_path, monkeypatch):
    from gui.records import history_of
    from gui.scenes.play import PlayScene
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        app.start_demo("tictactoe", ("beginner", "beginner"))
        demo = app.scene.c
        finished = demo.game.state_from_text("a1 b1 a2 b2 a3")   # X wins down the a-file
        demo._reset_history(history_of(finished))
        app.scene.play_this()
        assert isinstance(app.scene, PlayScene)
        c = app.scene.c
        assert c.state.key() == finished.key() and c.over and len(c.history) == 6
        c.go_to(2)                                               # and it can be played on from earlier
        assert c.can_play_here
    finally:
        app.shutdown()


def test_enter_in_the_file_dialog_opens_the_row_under_the_mouse(app, tmp_path):
    import pygame

    from games import get_game
    from gui.records import games_dir, save_record
    from test_gui_support import press
    older = save_record(get_game("connect4").initial_state().apply(3), {"you": "first"}, games_dir())
    newer = save_record(get_game("connect4").initial_state().apply(2), {"you": "first"}, games_dir())
    os.utime(older, (1, 1))
    app.start_play("tictactoe", "first", "strong")
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    dialog = app.scene.dialog
    assert [r.path for r in dialog.records] == [newer, older]
    app.step()
    lr = dialog.list_rect
    pos = (lr.x + 40, lr.y + 4 + dialog.ROW + dialog.ROW // 2)      # the second row
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))])
    press(app, pygame.K_RETURN)
    assert app.scene.c.game.id == "connect4" and app.scene.c.state.moves == (3,)


def test_save_as_takes_a_typed_file_name_and_never_replaces_a_file(app):
    import pygame

    from gui.records import games_dir, name_hint
    from test_gui_support import press
    app.start_play("gomoku", "first", "easy")
    c = app.scene.c
    c.play(c.state.parse_action("h8"))
    press(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    dialog = app.scene.dialog
    assert name_hint(dialog.name + ".sgf").key == "gomoku"        # the default names the game
    for _ in range(len(dialog.name)):
        press(app, pygame.K_BACKSPACE)
    assert dialog.name == "" and dialog.folder == games_dir()     # Backspace edits the name here
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="my game/1")])
    assert dialog.name == "my game1"                              # no folder separators in a name
    press(app, pygame.K_RETURN)
    assert (games_dir() / "my game1.sgf").is_file()
    press(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    dialog = app.scene.dialog
    dialog.name = "my game1"
    press(app, pygame.K_RETURN)
    assert (games_dir() / "my game1-2.sgf").is_file()             # the first one is kept


def _othello_pass_position():
    """An othello position (reached by a fixed random game) where the side to move has only a pass."""
    import random
    from games import get_game
    game = get_game("othello")
    rng = random.Random(3)
    for _ in range(200):
        s = game.initial_state()
        while not s.is_terminal():
            legal = s.legal_actions()
            if len(legal) == 1 and legal[0] == game.action_size - 1:
                return s
            s = s.apply(rng.choice(legal))
    raise AssertionError("no pass found")


def test_what_was_said_about_a_game_goes_with_it_when_the_next_game_starts(app):
    # defect: "Black has no move and passes" from a finished othello game showed over the next
    # game's board (a xiangqi game, which has no passes); other messages stay their time
    app.start_play("othello", "first", "strong")
    c = app.scene.c
    state = _othello_pass_position()
    c.events.append({"type": "move", "before": state, "after": state.apply(state.legal_actions()[0]),
                     "action": state.legal_actions()[0], "player": state.current_player})
    app.step()
    assert any("has no move and passes" in text for text, _, _ in app.toasts)
    app.toast("Game saved")
    app.start_play("xiangqi", "first", "strong")
    app.step()
    said = [text for text, _, _ in app.toasts]
    assert not any("passes" in text for text in said) and "Game saved" in said
