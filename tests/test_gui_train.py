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


def test_a_trainer_ended_by_the_stop_request_is_not_an_error():
    """Defect: stopping sometimes showed "the trainer process ended with code -15"."""
    from gui.training import TrainController
    tr = TrainController()
    tr.status = "stopping"
    tr._take({"type": "error", "message": "the trainer process ended with code -15"})
    assert tr.status == "stopping" and tr.message == ""
    tr.status = "running"
    tr._take({"type": "error", "message": "the trainer process ended with code 1"})
    assert tr.status == "error"


def test_the_trainers_messages_are_shown_in_the_interface_language():
    from gui import i18n
    from gui.training import translated
    i18n.set_language("zh")
    try:
        assert translated("generation 7 vs the model in use: 12-3-5") == "第 7 代对现用模型：12 胜 3 和 5 负"
        assert translated("error: the trainer process ended with code 2") == "训练进程已停止（2）"
        assert translated("something new") == "something new"   # unknown text is kept, not lost
    finally:
        i18n.set_language("en")


def test_the_charts_come_back_from_the_runs_metrics_after_a_restart(tmp_path, monkeypatch):
    import json
    from engine.core.paths import user_data_dir
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        run = user_data_dir() / "runs" / "connect4"
        run.mkdir(parents=True)
        lines = [{"generation": g, "games": 40 * g, "positions": 900 * g, "loss": 2.0 / g, "elo": 10.0 * g,
                  "wall_seconds": 60.0 * g} for g in (1, 2, 3)]
        (run / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines) + "{broken\n")
        app.open_train()
        app.scene.pick("connect4")
        app.step()
        assert [p["generation"] for p in app.trainer.points] == [1, 2, 3]
        assert app.trainer.latest()["elo"] == 30.0
    finally:
        app.shutdown()


def test_another_game_picked_does_not_show_the_last_games_log_or_error(tmp_path, monkeypatch):
    """Defect: after training one game, picking another showed the first game's log (its
    generations and matches) and its error ("Training stopped: …") as the new game's."""
    from test_gui_support import texts_drawn
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        app.open_train()
        app.scene.pick("tictactoe")
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert run_until(app, lambda: len(tr.points) >= 2 and tr.log, 30)
        press(app, pygame.K_SPACE)
        assert run_until(app, lambda: not tr.running, 20)
        tr.status, tr.message = "error", "the trainer process ended with code 1"   # as a failed run leaves it
        app.scene.pick("connect2")
        drawn = texts_drawn(app, monkeypatch)
        assert not tr.log and not any("generation" in text.lower() and "done" in text.lower() for text in drawn)
        assert not any(text.startswith("Training stopped") for text in drawn) and "Not training" in drawn
        app.scene.pick("tictactoe")   # the game's own error is not brought back either: it was seen
        assert tr.status == "idle"
    finally:
        app.shutdown()
