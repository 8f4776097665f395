"""Settings files, string catalogues and the bundled font."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import json
import re
from pathlib import Path

import pygame
import pytest

from gui import i18n
from gui.settings import DEFAULTS, Settings, load, save

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    return tmp_path


def test_a_missing_file_gives_the_defaults(home):
    assert Settings().data == DEFAULTS


def test_a_corrupt_file_is_moved_aside_and_the_defaults_used(home):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("{ this is not json", encoding="utf-8")
    s = Settings()
    assert s.data == DEFAULTS
    backups = list(path.parent.glob("settings.json.bak-*"))
    assert len(backups) == 1 and backups[0].read_text() == "{ this is not json"
    assert not path.exists()


def test_unknown_keys_are_ignored_and_wrong_types_replaced(home):
    path = home / "settings.json"
    path.write_text(json.dumps({"version": 99, "sound": "yes", "language": "zh", "colorblind": True,
                                "window": "123x4", "future_option": [1, 2], "models": {"connect4": "bogus"}}))
    data = load(path)
    assert data["sound"] is True  # the default, since "yes" is not a bool
    assert data["language"] == "zh" and data["colorblind"] is True
    assert data["window"] == DEFAULTS["window"]
    assert data["models"] == {}
    assert "future_option" not in data and data["version"] == DEFAULTS["version"]


def test_changes_are_saved_atomically_and_read_back(home):
    s = Settings()
    s.set("language", "zh")
    s.set_model_choice("connect4", "trained")
    folder = home / "config"
    assert [p.name for p in folder.iterdir()] == ["settings.json"]  # no temporary file left behind
    again = Settings()
    assert again["language"] == "zh" and again.model_choice("connect4") == "trained"
    s.set("language", "klingon")  # invalid values are refused
    assert Settings()["language"] == "zh"


def test_save_never_raises_on_an_unwritable_folder(tmp_path):
    save(DEFAULTS, tmp_path / "missing" / "dir" / "settings.json")


def test_the_catalogues_have_the_same_keys():
    en = json.loads((ROOT / "gui" / "i18n" / "en.json").read_text(encoding="utf-8"))
    zh = json.loads((ROOT / "gui" / "i18n" / "zh.json").read_text(encoding="utf-8"))
    assert set(en) == set(zh)


def test_every_string_key_used_in_the_code_is_in_the_english_catalogue():
    en = json.loads((ROOT / "gui" / "i18n" / "en.json").read_text(encoding="utf-8"))
    used = set()
    for path in (ROOT / "gui").rglob("*.py"):
        used |= set(re.findall(r"\bt\(\"([a-z0-9_.]+)\"", path.read_text(encoding="utf-8")))
    assert used and used <= set(en), sorted(used - set(en))


def test_a_missing_key_falls_back_to_english(monkeypatch):
    monkeypatch.setitem(i18n._catalogues, "zh", {"play.undo": "悔棋"})
    i18n.set_language("zh")
    try:
        assert i18n.t("play.undo") == "悔棋"
        assert i18n.t("play.redo_everything") == "play.redo_everything"
        assert i18n.t("play.resign") == "Resign"  # not in this Chinese catalogue
    finally:
        i18n.set_language("en")


def test_the_bundled_font_has_every_character_the_app_shows():
    from gui.theme import FONTS
    pygame.font.init()
    chars = set()
    for name in ("en.json", "zh.json"):
        for value in json.loads((ROOT / "gui" / "i18n" / name).read_text(encoding="utf-8")).values():
            chars |= set(value)
    chars |= set("帥仕相傌俥炮兵將士象馬車砲卒楚河漢界一二三四五六七八九进退平前后马车帅将１２３４５６７８９")
    font = FONTS.get(20)
    assert "ZeroBoard" in (font.name or "")

    def pixels(c):
        return pygame.image.tobytes(font.render(c, False, (255, 255, 255), (0, 0, 0)), "RGB")

    tofu = pixels("\ue000")  # a private-use character: drawn as the missing-glyph box
    missing = [c for c in sorted(chars) if c.strip() and pixels(c) == tofu]
    assert pixels("↵") == tofu  # the check can see a missing glyph
    assert not missing, "".join(missing)


UNUSABLE_SETTINGS = {
    "binary": bytes(range(256)) * 4,
    "utf-16": json.dumps({"language": "zh"}).encode("utf-16"),
    "latin-1": '{"last_game": "caf\xe9"}'.encode("latin-1"),
    "nested 100,000 deep": b"[" * 100_000 + b"]" * 100_000,
    "nested objects": b'{"a":' * 100_000 + b"1" + b"}" * 100_000,
    "a huge number": b'{"version": 1' + b"0" * 5000 + b"}",
    "far too large": b'{"x": "' + b"a" * (2 << 20) + b'"}',
    "empty": b"",
}


@pytest.mark.parametrize("kind", list(UNUSABLE_SETTINGS))
def test_an_unusable_settings_file_is_set_aside_and_the_defaults_used(home, kind):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(UNUSABLE_SETTINGS[kind])
    s = Settings()
    assert s.data == DEFAULTS
    backups = list(path.parent.glob("settings.json.bak-*"))
    assert len(backups) == 1 and backups[0].read_bytes() == UNUSABLE_SETTINGS[kind], "nothing is lost"
    assert s.problem == backups[0].name
    assert not path.exists()
    s.set("language", "zh")  # and the app saves good settings again
    assert Settings().data["language"] == "zh" and Settings().problem is None


def test_a_settings_file_with_a_byte_order_mark_is_read(home):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"language": "zh"}).encode())
    s = Settings()
    assert s.data["language"] == "zh" and s.problem is None


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_settings_path_that_is_not_a_file_never_blocks_or_stops_the_app(home, kind):
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    if kind == "folder":
        path.mkdir()
    else:
        if not hasattr(os, "mkfifo"):
            pytest.skip("no FIFOs here")
        os.mkfifo(path)  # opening it for reading would wait for a writer forever
    s = Settings()
    assert s.data == DEFAULTS and s.problem


def test_the_app_says_once_that_its_settings_were_reset(home, tmp_path):
    from gui.app import App
    path = tmp_path / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes("{\"language\": \"zh\"}".encode("utf-16"))
    for start in range(2):
        app = App((1024, 640), headless=True, ai_enabled=False)
        try:
            app.step()
            said = [text for text, error, _ in app.toasts if "settings" in text]
            if start == 0:
                assert len(said) == 1 and "settings.json.bak-" in said[0]
            else:
                assert not said
        finally:
            app.shutdown()


def test_a_damaged_training_cores_value_is_ignored_and_too_many_used_as_every_core(home):
    """Training's CPU cores: 0 (automatic) by default; a wrong type or range in the file is the
    default, and a count above this machine's cores (a file from a larger one) is all of them."""
    from engine.core.parallel import usable_cores
    from gui.training import default_workers, workers_for
    assert DEFAULTS["train_workers"] == 0
    path = home / "config" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    for bad in (-1, 257, 2.0, "2", True, None, [2], {"n": 2}):
        path.write_text(json.dumps({"train_workers": bad, "language": "zh"}), encoding="utf-8")
        s = Settings()
        assert s["train_workers"] == 0 and s["language"] == "zh" and s.problem is None, bad
        assert workers_for(s["train_workers"]) == default_workers()
    path.write_text(json.dumps({"train_workers": 256}), encoding="utf-8")
    assert workers_for(Settings()["train_workers"]) == usable_cores()
    s = Settings()
    s.set("train_workers", "lots")
    assert Settings()["train_workers"] == 256


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_settings_offer_trainings_cores_beside_the_ais(tmp_path, monkeypatch, language):
    from gui.scenes.settings import SettingsScene
    from gui.training import default_workers, workers_for
    from test_gui_support import click, make_app, press, run_until
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        app.set_language(language)
        app.goto(SettingsScene(app))
        app.step()
        scene = app.scene
        labels = [label for label, _ in scene.rows]
        ai = labels.index(i18n.t("settings.ai_threads"))
        assert labels[ai + 1] == i18n.t("settings.train_workers")
        row = dict(scene.rows)[i18n.t("settings.train_workers")]
        assert scene.card.contains(row) and scene.card.bottom <= app.screen.get_height()
        choices = [b for b in scene.buttons if b.rect.colliderect(row)]
        assert choices[0].label == i18n.t("settings.threads_auto", n=default_workers()) and choices[0].selected
        click(app, next(b for b in choices if b.label == "1").rect.center)
        assert app.settings["train_workers"] == 1 and not app.toasts
        app.open_train()   # a training in progress keeps its workers, and the person is told so
        press(app, pygame.K_SPACE)
        assert app.trainer.running and app.trainer.workers == 1
        app.goto(SettingsScene(app))
        app.step()
        app.scene.set_train_workers(2)
        assert app.settings["train_workers"] == 2 and app.trainer.workers == 1
        told = [i18n.t("settings.train_workers_next", n=1, next=2)] if workers_for(2) == 2 else []   # 1 core: no change
        assert [text for text, _, _ in app.toasts] == told
        app.trainer.stop()
        assert run_until(app, lambda: not app.trainer.running, 20)
    finally:
        i18n.set_language("en")
        app.shutdown()
