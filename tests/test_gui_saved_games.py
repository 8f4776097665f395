"""No click loses a game: opening a record over a game in progress asks first, every game
keeps its own autosave (the home screen offers each one), starting a game over a saved one
asks, and the single autosave file of earlier versions moves into its game's slot."""
from __future__ import annotations

import json
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import app, button_named, click, click_target, press  # app: the fixture


def test_loading_a_record_over_a_game_in_progress_asks_and_cancel_keeps_the_game(app, tmp_path):
    from games import get_game
    from gui import autosave
    from gui.records import save_record
    other = get_game("tictactoe").initial_state().apply(0).apply(8)
    path = save_record(other, {"you": "first"}, tmp_path)
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (1, 1))
    c = app.scene.c
    before = c.state
    app.scene._load_path(path)                          # a record picked in the file dialog
    assert app.scene.confirm is not None and c.state is before
    press(app, pygame.K_ESCAPE)
    assert c.state is before and autosave.load("tictactoe")["state"].key() == before.key()
    app.scene._load_path(path)
    press(app, pygame.K_RETURN)
    assert c.state.key() == other.key()


def test_a_record_of_another_game_opens_without_losing_the_game_in_progress(app, tmp_path):
    from games import get_game
    from gui import autosave
    from gui.records import save_record
    path = save_record(get_game("connect4").initial_state().apply(3), {"you": "second"}, tmp_path)
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (1, 1))
    app.scene._load_path(path)
    assert app.scene.c.game.id == "connect4"
    assert autosave.load("tictactoe")["moves"] == 1        # still there to resume


def test_unfinished_games_of_two_games_keep_their_own_autosaves(app):
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (1, 1))
    app.go_home()
    app.start_play("connect4", "first", "strong")
    click_target(app, 3)
    app.go_home()
    home = app.scene
    assert sorted(s["game"] for s in home.saved) == ["connect4", "tictactoe"]
    assert home.resume["game"] == "connect4"              # the newest first
    app.step()
    chip = button_named(app, "Tic-tac-toe · 1 moves")
    click(app, chip.rect.center)
    assert app.scene.c.game.id == "tictactoe" and app.scene.c.state.moves == (4,)


def test_starting_a_game_whose_unfinished_game_is_saved_asks_first(app):
    from gui import autosave
    from gui.scenes.home import HomeScene
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (1, 1))
    app.go_home()
    app.start_play("tictactoe", "first", "strong")
    assert isinstance(app.scene, HomeScene) and app.overlay is not None
    press(app, pygame.K_ESCAPE)                          # cancel: nothing changes
    assert isinstance(app.scene, HomeScene) and autosave.load("tictactoe") is not None
    app.start_play("tictactoe", "first", "strong")
    press(app, pygame.K_RETURN)                          # the first choice resumes it
    assert app.scene.c.state.moves == (4,)
    app.go_home()
    app.start_play("tictactoe", "first", "strong")
    app.step()
    app.step()
    click(app, next(b for b in app.overlay.dialog.buttons if b.label == "Discard it").rect.center)
    assert app.scene.c.state.moves == () and autosave.load("tictactoe") is None


def test_the_single_autosave_of_earlier_versions_moves_into_its_games_slot(app):
    from engine.core.paths import user_data_dir
    from gui import autosave
    legacy = user_data_dir() / "autosave.json"
    legacy.parent.mkdir(parents=True, exist_ok=True)
    legacy.write_text(json.dumps({"version": 1, "game": "tictactoe", "variant": {}, "position": "b2 a1",
                                  "human": 0, "level": "easy", "side_choice": "first", "moves": 2,
                                  "date": "2026-11-20 10:00:00"}))
    saved = autosave.load_all()
    assert [s["game"] for s in saved] == ["tictactoe"] and saved[0]["level"] == "easy"
    assert not legacy.exists() and autosave.path("tictactoe").exists()
    app.go_home()
    assert app.scene.resume["moves"] == 2


def test_an_old_autosave_never_replaces_a_newer_slot(app):
    from engine.core.paths import user_data_dir
    from gui import autosave
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (0, 0))
    app.go_home()
    legacy = user_data_dir() / "autosave.json"
    legacy.write_text(json.dumps({"version": 1, "game": "tictactoe", "variant": {}, "position": "b2 a1",
                                  "human": 0, "moves": 2}))
    assert autosave.load("tictactoe")["state"].moves == (0,)
    assert not legacy.exists()


def test_a_file_of_several_games_opens_the_first_and_says_so(app, tmp_path, monkeypatch):
    from games import get_game
    from games.records import write_record
    g = get_game("gomoku").initial_state().apply(112).apply(113)
    path = tmp_path / "two.sgf"
    path.write_text(write_record(g, "sgf") + write_record(g.apply(97), "sgf"), encoding="utf-8")
    app.start_play("tictactoe", "first", "strong")
    app.scene._load_path(path)
    assert app.scene.c.game.id == "gomoku" and app.scene.c.state.key() == g.key()
    assert any("first game of two.sgf" in text for text, *_ in app.toasts)


def test_a_record_opened_over_an_unfinished_game_of_its_game_keeps_its_clocks(app, tmp_path):
    """Loading a record of a game whose unfinished game is saved asks first (resume, discard,
    cancel); discarding opened the record without its clocks (they were taken before the
    question was answered) and said "Loaded" before anything was; cancelling says nothing."""
    from games import get_game
    from gui.records import save_record
    record = get_game("gomoku").initial_state().apply(112).apply(113)
    path = save_record(record, {"you": "first", "time_control": "600+5"}, tmp_path)
    app.start_play("gomoku", "first", "strong")
    click_target(app, (7, 7))                                # an unfinished gomoku game, saved
    app.go_home()
    app.start_play("tictactoe", "first", "strong")
    app.toasts.clear()
    app.scene._load_path(path)
    assert app.overlay is not None and app.scene.c.game.id == "tictactoe"
    assert not any("Loaded" in text for text, *_ in app.toasts)   # not yet
    press(app, pygame.K_ESCAPE)                              # cancel: nothing opened, nothing said
    assert app.scene.c.game.id == "tictactoe" and not app.toasts
    app.scene._load_path(path)
    app.step()
    click(app, next(b for b in app.overlay.dialog.buttons if b.label == "Discard it").rect.center)
    c = app.scene.c
    assert c.game.id == "gomoku" and c.state.key() == record.key()
    assert c.clock is not None and (c.clock.control.main, c.clock.control.increment) == (600, 5)
    assert any("Loaded" in text for text, *_ in app.toasts)
