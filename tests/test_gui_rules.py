"""The new-game dialog offers gomoku's rule sets, says in a line what each means, and the
game starts under the chosen rule."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from test_gui_layout import MIN_SIZE, drawn_texts
from test_gui_support import make_app


@pytest.fixture
def small_app(tmp_path, monkeypatch):
    a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=MIN_SIZE)
    yield a
    a.shutdown()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_gomoku_setup_offers_the_rule_sets_and_explains_the_chosen_one(small_app, monkeypatch, lang):
    from gui.i18n import t
    small_app.set_language(lang)
    small_app.open_setup("gomoku", "play")
    scene = small_app.scene
    small_app.step((), 0.02, draw=True)
    labels = {b.label for b in scene.buttons if hasattr(b, "label")}
    assert {t("rule.freestyle"), t("rule.standard"), t("rule.renju")} <= labels
    scene.rule = "renju"
    small_app.step((), 0.02, draw=True)
    texts = [(s, r) for s, r in drawn_texts(small_app, monkeypatch) if s.strip() and r.width and r.height]
    joined = "".join(s for s, _ in texts).replace(" ", "")
    assert t("rule.renju.note").replace(" ", "")[:12] in joined
    for i, (s, r) in enumerate(texts):
        for s2, r2 in texts[i + 1:]:
            inner = r.clip(r2)
            assert inner.width < 3 or inner.height <= 4, (s, r, s2, r2)
    scene.rule = "standard"   # no network is trained for it: the freestyle one plays
    small_app.step((), 0.02, draw=True)
    joined = "".join(s for s, _ in drawn_texts(small_app, monkeypatch)).replace(" ", "")
    assert t("model.shipped_base").replace(" ", "") in joined
    scene.rule = "renju"
    assert scene.variant() == {"rule": "renju"}
    scene.start()
    assert small_app.scene.c.game.key == "gomoku-renju"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_a_network_trained_for_the_rule_says_how_it_does_under_it(small_app, monkeypatch, tmp_path, lang):
    """With models/gomoku-renju.pt shipped, the dialog says the AI was trained for renju and
    how it did against Rapfi under renju (its report's largest engine match)."""
    import json
    import shutil

    import engine.core.paths as paths
    from gui.i18n import t
    from gui.scenes import home
    models = tmp_path / "models"
    models.mkdir()
    for name in ("gomoku.pt", "gomoku.json"):
        shutil.copy(paths.models_dir() / name, models / name)
    shutil.copy(paths.models_dir() / "gomoku.pt", models / "gomoku-renju.pt")
    (models / "gomoku-renju.json").write_text(json.dumps({"game": "gomoku-renju", "suite": "matches", "results": {
        "matches": [{"spec": "gomocup:pbrain-rapfi@nodes100", "wins": 3, "draws": 0, "games": 10},
                    {"spec": "gomocup:pbrain-rapfi@nodes1000", "wins": 117, "draws": 0, "games": 200}]}}))
    monkeypatch.setattr(paths, "models_dir", lambda: models)
    monkeypatch.setattr(home, "models_dir", lambda: models)
    monkeypatch.setattr(home, "_reports", {})
    small_app.set_language(lang)
    small_app.open_setup("gomoku", "play")
    small_app.scene.rule = "renju"
    small_app.step((), 0.02, draw=True)
    joined = "".join(s for s, _ in drawn_texts(small_app, monkeypatch)).replace(" ", "")
    said = t("model.shipped_rule", rule=t("rule.renju"), wins=117, games=200).replace(" ", "")
    assert said in joined
    small_app.scene.rule = "standard"
    small_app.step((), 0.02, draw=True)
    joined = "".join(s for s, _ in drawn_texts(small_app, monkeypatch)).replace(" ", "")
    assert t("model.shipped_base").replace(" ", "") in joined and said not in joined


def test_other_games_offer_no_rule(small_app):
    from gui.i18n import t
    small_app.open_setup("othello", "play")
    small_app.scene.rule = "renju"   # left over from gomoku: ignored
    small_app.step((), 0.02, draw=True)
    assert "rule" not in small_app.scene.variant()
    assert t("rule.renju") not in {b.label for b in small_app.scene.buttons if hasattr(b, "label")}


def test_the_board_marks_blacks_forbidden_points_where_the_person_may_move():
    import pygame
    from games import get_game
    from gui.boards import renderer_class
    from gui.boards.base import Overlays
    g = get_game("gomoku", rule="renju")
    s = g.state_from_text("f12 a1 f11 a3 d10 a5 e10 a7")   # f10: a double three for black
    f10 = (15 - 10) * 15 + 5
    assert s.forbidden_actions() == [f10]
    view = renderer_class("gomoku")(g, animations=False)
    red = (214, 58, 48)

    def pixel(show_legal):
        surface = pygame.Surface((600, 600))
        view.draw(surface, pygame.Rect(0, 0, 600, 600), s, Overlays(show_legal=show_legal))
        x, y = view.grid.point(*view.action_cell(f10))
        return tuple(surface.get_at((int(x), int(y))))[:3]
    assert pixel(True) == red and pixel(False) != red
