"""Small things a player sees: nothing drawn outside the rounded xiangqi and gomoku boards,
win-rate labels that never run into each other, and a pasted Connect Four string that switches
game from tic-tac-toe."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import app, make_app, press  # app: the fixture


@pytest.mark.parametrize("game_id", ["xiangqi", "gomoku"])
def test_the_boards_texture_stays_inside_its_rounded_corners(app, game_id):
    app.start_play(game_id, "first", "strong")
    app.step()
    r = app.scene.view.renderer
    surf = r._board_surface(app.palette) if game_id == "xiangqi" else r._board_surface(app.scene.c.state, app.palette)
    w, h = surf.get_size()
    corners = ((0, 0), (2, 0), (0, 2), (w - 1, 0), (w - 3, 0), (w - 1, 2), (0, h - 1), (w - 1, h - 1), (w - 3, h - 1))
    for x, y in corners:
        assert surf.get_at((x, y)).a == 0, (x, y, surf.get_at((x, y)))


def test_pasting_a_column_string_in_tictactoe_switches_to_connect_four(app):
    app.start_play("tictactoe", "first", "strong")
    pygame.scrap.put_text("4453")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.c.game.id == "connect4" and len(app.scene.c.state.moves) == 4


@pytest.mark.parametrize("p0", [0.03, 0.5, 0.97])
@pytest.mark.parametrize("width", [90, 140, 300])
def test_the_win_rate_bars_labels_never_run_into_each_other(monkeypatch, p0, width):
    from gui import theme
    from gui.widgets import winrate_bar
    pygame.font.init()
    surface = pygame.Surface((400, 40))
    drawn = {}
    real = theme.text

    def spy(s, text, *a, **k):
        rect = real(s, text, *a, **k)
        drawn[text] = rect
        return rect
    monkeypatch.setattr(theme, "text", spy)
    winrate_bar(surface, theme.palette(False), pygame.Rect(0, 0, width, 22), p0, None, ("Black", "White"))
    rects = list(drawn.values())
    assert rects and all(r.right <= width and r.x >= 0 for r in rects)
    assert len(rects) == 1 or not rects[0].inflate(8, 0).colliderect(rects[1]), drawn


def test_a_message_leaves_the_panels_title_visible(app, monkeypatch):
    from gui import theme
    app.start_play("tictactoe", "first", "strong")
    app.toast("Not a legal move")
    drawn = {}
    real_rect = theme.rounded_rect

    def spy(surface, color, rect, *a, **k):
        drawn.setdefault(tuple(pygame.Rect(rect)), color)
        return real_rect(surface, color, rect, *a, **k)
    monkeypatch.setattr(theme, "rounded_rect", spy)
    app.step()
    panel = app.scene.panel_rect
    toast = [pygame.Rect(r) for r in drawn if r[1] > 0 and r[2] < panel.width and r[3] in (40, 60, 80)
             and abs(pygame.Rect(r).centerx - panel.centerx) <= 1]
    title_bottom = panel.y + 18 + 52
    assert toast and all(r.y >= title_bottom for r in toast), (toast, title_bottom)


def test_help_lists_save_as():
    from gui.scenes.help import SHORTCUTS
    assert any("Ctrl+Shift+S" in keys for keys, _ in SHORTCUTS)


def test_the_chinese_xiangqi_rules_say_how_each_piece_moves():
    import json
    import re
    from pathlib import Path
    rules = json.loads((Path(__file__).parent.parent / "gui" / "i18n" / "zh.json").read_text(encoding="utf-8"))[
        "rules.xiangqi"]
    sentences = re.split(r"[。；]", rules)
    for piece in "帅仕相马车炮兵":
        assert any(s.startswith(piece) and "走" in s for s in sentences), piece   # a sentence on its moves
    assert "田" in rules and "日" in rules and "隔" in rules and "九宫" in rules and "过河" in rules


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(800, 560), (1024, 640)])
def test_the_resign_confirmation_and_the_keys_sheet_are_not_cut(tmp_path, monkeypatch, lang, size):
    from gui import theme
    from gui.i18n import t
    a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        a.set_language(lang)
        a.start_play("othello", "first", "strong")
        a.step()
        a.scene.resign()   # the question, with the draw offer beside it
        a.step()
        buttons = a.scene.confirm.buttons
        assert [b.label for b in buttons] == [t("play.resign"), t("draw.offer"), t("common.cancel")]
        for b in buttons:
            assert theme.FONTS.size(b.label, b.size)[0] <= b.rect.width - 16
        a.scene.confirm.choices[-1][1]()
        a.open_help("othello")
        a.overlay.set_tab("keys")
        drawn = []
        real = theme.text
        monkeypatch.setattr(theme, "text", lambda s, text, *x, **k: drawn.append(text) or real(s, text, *x, **k))
        a.step()
        monkeypatch.setattr(theme, "text", real)
        assert t("keys.help") in drawn                        # the sheet was drawn to its end
        assert not [d for d in drawn if d.endswith("…")], drawn
    finally:
        a.shutdown()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(800, 560), (1024, 640), (1280, 800)])
def test_the_way_back_to_the_game_is_whole_while_looking_back(tmp_path, monkeypatch, lang, size):
    """"Back to the game" beside "Play from here": its key is shown only where it fits beside
    the words (at 1024×640 the two were cut to "Back to the g…")."""
    from gui import theme
    from gui.i18n import t
    a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        a.set_language(lang)
        a.start_play("connect4", "first", "beginner")
        c = a.scene.c
        a.step()
        c.play(3)
        c._push(3, by_ai=True)
        c.play(2)
        c._push(2, by_ai=True)
        c.go_to(1)
        a.step()
        b = next(b for b in a.scene.buttons if b.label == t("play.back_to_game"))
        hint = theme.FONTS.size("   " + b.hint, 13)[0] if b.hint else 0
        assert theme.FONTS.size(b.label, 13)[0] + hint + 16 <= b.rect.width
        if lang == "en":
            assert bool(b.hint) == (size == (1280, 800))
    finally:
        a.shutdown()


def test_chinese_text_is_spaced_where_han_meets_latin_letters_or_digits():
    """The catalogue's spacing, everywhere: a space where a Han character meets a Latin letter or
    a digit, in the template's words and where a field meets them, never inside a field (a
    xiangqi move in Chinese stays whole), and none beside Chinese punctuation."""
    from gui.i18n import set_language, spaced, t
    assert spaced("对Rapfi 3步") == "对 Rapfi 3 步" and spaced("（14局后）") == "（14 局后）"
    set_language("zh")
    try:
        assert t("home.note.score", opponent="Rapfi", pct="54%") == "对 Rapfi 54%"
        assert t("level.rated", level="中等", scale="Rapfi", rating=1540) == "中等——相当于 Rapfi 标度的 1540 分左右"
        assert t("rating.you", rating=1390, pm=120, n=14) == "你：1390 ± 120（14 局后）"
        assert "应走马2进3 " in t("review.better_short", played="炮8平5", played_win="40%", best="马2进3",
                                best_win="55%", loss="15%")
        assert t("review.better_short", played="炮8平5", played_win="", best="", best_win="", loss="").startswith("炮8平5")
        assert t("clock.sudden", min=10) == "10 分"
    finally:
        set_language("en")
