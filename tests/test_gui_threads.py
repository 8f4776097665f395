"""The app's AI threads setting: stored and checked like every setting, offered in the
settings scene (English and Chinese), sent with each search and used by the AI process."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import queue
import types

import pytest

from engine.core.parallel import default_threads, usable_cores
from games import get_game
from gui.settings import DEFAULTS, Settings, sanitize


class ReportsThreads:
    """A test double for the AI process: answers the first legal move and reports, as its
    ``sims``, the threads its search was given."""

    def __init__(self, game, level="strong", model_path=None):
        self.mcts = types.SimpleNamespace(threads=None)

    def reset(self):
        pass

    def choose(self, state, on_progress=None, should_stop=None):
        return types.SimpleNamespace(action=state.legal_actions()[0], value=0.0, top=[], sims=self.mcts.threads,
                                     seconds=0.0, proven=None)


def make_threads_reporter(game, level="strong", model_path=None):
    return ReportsThreads(game, level, model_path)


def test_default_threads_is_every_core_but_one():
    assert default_threads() == max(1, usable_cores() - 1)


def test_the_setting_defaults_to_automatic_and_refuses_bad_values():
    assert DEFAULTS["ai_threads"] == 0
    assert sanitize({"ai_threads": 3})["ai_threads"] == 3
    for bad in (-1, 257, 2.0, "2", True, None, [2]):
        assert sanitize({"ai_threads": bad})["ai_threads"] == 0, bad
    s = Settings.in_memory()
    s.set("ai_threads", "lots")
    assert s["ai_threads"] == 0


def test_thread_options_offer_automatic_then_a_few_counts():
    from gui.i18n import set_language
    from gui.scenes.settings import thread_options
    set_language("en")
    assert thread_options(2, 1, 0) == [("Auto (1)", 0), ("1", 1), ("2", 2)]
    assert [v for _, v in thread_options(16, 15, 0)] == [0, 1, 2, 4, 8, 16]
    assert [v for _, v in thread_options(64, 63, 0)] == [0, 1, 8, 16, 32, 64]
    assert [v for _, v in thread_options(2, 1, 3)] == [0, 1, 2, 3]   # a number a settings file asked for
    assert thread_options(1, 1, 0) == [("Auto (1)", 0), ("1", 1)]
    set_language("zh")
    try:
        assert thread_options(4, 3, 0)[0] == ("自动（3）", 0)
    finally:
        set_language("en")


def test_both_catalogues_name_the_setting():
    from pathlib import Path
    folder = Path(__file__).resolve().parent.parent / "gui" / "i18n"
    for lang in ("en", "zh"):
        strings = json.loads((folder / f"{lang}.json").read_text(encoding="utf-8"))
        assert strings["settings.ai_threads"] and "{n}" in strings["settings.threads_auto"]


def test_the_worker_reads_the_requested_threads():
    from gui.ai_worker import _search_threads
    assert _search_threads(None) == _search_threads(0) == default_threads()
    assert _search_threads(2) == 2
    for bad in (-3, "x", True, 10 ** 6, 1.5):
        assert _search_threads(bad) == default_threads(), bad


def test_the_client_sends_its_threads_with_every_search():
    from gui.ai_client import AIClient
    client = AIClient()
    client._process = types.SimpleNamespace(is_alive=lambda: True)
    client._requests = queue.Queue()
    assert client.threads == 0
    client.threads = 3
    client.search(get_game("tictactoe").initial_state(), "strong", None, "s", lambda msg: None)
    assert client._requests.get_nowait()["threads"] == 3


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_settings_scene_offers_the_threads_and_a_click_sets_them(tmp_path, monkeypatch, language):
    from test_gui_support import click, make_app
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        app.set_language(language)
        from gui.scenes.settings import SettingsScene
        app.goto(SettingsScene(app))
        app.step()
        scene = app.scene
        labels = [label for label, _ in scene.rows]
        from gui.i18n import t
        assert t("settings.ai_threads") in labels
        row = dict(scene.rows)[t("settings.ai_threads")]
        one = next(b for b in scene.buttons if b.rect.colliderect(row) and b.label == "1")
        assert scene.card.contains(row) and row.bottom < app.screen.get_height()
        click(app, one.rect.center)
        assert app.settings["ai_threads"] == 1 and app.ai.threads == 1
    finally:
        app.shutdown()


def test_the_setting_reaches_the_ai_process(tmp_path, monkeypatch):
    from gui.app import App
    from test_gui_support import run_until
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    app = App((1024, 640), headless=True, ai_factory="test_gui_threads:make_threads_reporter",
              trainer_factory="test_gui_support:FakeTrainer", strict=True)
    try:
        replies = []
        state = get_game("tictactoe").initial_state()
        app.set_ai_threads(2)
        app.ai.search(state, "strong", None, "s", replies.append)
        assert run_until(app, lambda: any(r["type"] == "result" for r in replies))
        app.set_ai_threads(0)
        app.ai.search(state, "strong", None, "s", replies.append)
        assert run_until(app, lambda: sum(r["type"] == "result" for r in replies) == 2)
        assert [r["sims"] for r in replies if r["type"] == "result"] == [2, default_threads()]
    finally:
        app.shutdown()
