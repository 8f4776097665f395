"""The Train scene: background training runs in its own process and reports progress; the
model choice is saved and handed to the AI."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame

from test_gui_support import click, make_app, press, run_until


def test_training_starts_reports_progress_and_stops(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    try:
        app.open_train()
        app.scene.pick("connect4")
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert tr.running and tr.game_id == "connect4"
        assert run_until(app, lambda: len(tr.points) >= 2 and tr.selfplay, 30)
        assert tr.status == "running"
        assert tr.points[-1]["elo"] > tr.points[0]["elo"]
        assert tr.models and any("generation 2" in text for text, _, _ in app.toasts)
        app.go_home()  # training goes on while the person does something else
        app.step()
        assert tr.running
        app.open_train()
        press(app, pygame.K_SPACE)
        assert run_until(app, lambda: not tr.running, 20)
        assert tr.status == "idle"
    finally:
        app.shutdown()


def test_the_model_choice_is_saved_and_passed_to_the_ai(tmp_path, monkeypatch):
    from engine.core.paths import user_model_path
    from games import get_game
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        game = get_game("tictactoe")
        app.open_train()
        app.scene.pick("tictactoe")
        app.scene.choose_model("trained")  # nothing trained yet: refused with a message
        assert app.settings.model_choice(game.key) == "shipped" and app.toasts
        user_model_path(game.key).write_bytes(b"a model")
        app.step()
        button = next(b for b in app.scene.buttons if b.label == "Newest trained")
        click(app, button.rect.center)
        assert app.settings.model_choice(game.key) == "trained"
        assert app.model_path_for(game) == str(user_model_path(game.key))
        from gui.settings import Settings
        assert Settings().model_choice(game.key) == "trained"
    finally:
        app.shutdown()
