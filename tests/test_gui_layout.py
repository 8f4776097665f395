"""Layout at the minimum window size and what the panels say, found by looking at a real
window under Xvfb (issue 23's check): text cut without saying so or hidden under a button,
the win-rate graph and the training charts dropped in a small window, a demo's result
without its score or reason, a near-invisible graph area for a black side."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import random

import pygame
import pytest

from test_gui_support import make_app

MIN_SIZE = (800, 560)


@pytest.fixture
def small_app(tmp_path, monkeypatch):
    a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=MIN_SIZE)
    yield a
    a.shutdown()


def drawn_texts(app, monkeypatch) -> list[tuple[str, pygame.Rect]]:
    """Every text one frame draws, with where it went."""
    import gui.theme as theme_module
    real = theme_module.text
    out = []

    def spy(surface, s, pos, size, color, bold=False, anchor="topleft"):
        rect = real(surface, s, pos, size, color, bold, anchor)
        if surface is app.screen:  # not the pictures drawn on their own surfaces (thumbnails)
            out.append((s, rect))
        return rect
    monkeypatch.setattr(theme_module, "text", spy)
    app.step((), 0.02, draw=True)
    monkeypatch.setattr(theme_module, "text", real)
    return out


def finished_othello(rng_seed=1):
    from games import get_game
    g = get_game("othello", size=6)
    rng = random.Random(rng_seed)
    s = g.initial_state()
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    return s


# --- text that does not fit -------------------------------------------------------------

def test_wrapped_text_that_does_not_fit_ends_in_an_ellipsis():
    from gui import theme
    pygame.init()
    text = "Scores 100% vs random moves, 92.5% vs a greedy one-ply player, 5% vs fairy-stockfish (20 games each)"
    lines = theme.wrap_box(text, 12, [200, 200])
    assert len(lines) == 2 and lines[-1].endswith("…")
    assert all(theme.FONTS.size(line, 12)[0] <= 200 for line in lines)
    assert theme.wrap_box("short note", 12, [200, 200]) == ["short note"]      # fits: unchanged
    cjk = "已解局面出错率：残局・易 0.0%，中局・易 0.0%，开局・易 0.4%，中局・中 2.4%"
    lines = theme.wrap_box(cjk, 12, [150, 90])
    assert lines[-1].endswith("…") and theme.FONTS.size(lines[1], 12)[0] <= 90   # a shorter last line


def test_chinese_text_never_breaks_before_a_closing_mark_or_after_an_opening_one():
    """A message wrapped with its closing quote alone at the start of a line (the Train
    screen's "first model saved", 2026-12-02)."""
    from gui import theme
    pygame.init()
    text = "还没有和自带模型比较；在训练中选择“最新训练”来试试。书名号《象棋》与括号（Rapfi）也一样。"
    for width in range(40, 400, 7):
        lines = theme.wrap_text(text, 14, width)
        assert "".join(lines) == text
        assert not any(line[0] in theme._CLOSING for line in lines[1:]), (width, lines)
        assert not any(line[-1] in theme._OPENING for line in lines), (width, lines)
    words = "the network’s “first” choice"
    assert "".join(theme.wrap_text(words, 14, 60)).replace(" ", "") == words.replace(" ", "")
    assert not any(line.startswith(("’", "”")) for line in theme.wrap_text(words, 14, 60))


def test_a_chinese_paragraph_never_ends_in_one_character_alone():
    """The xiangqi card's rating wrapped as "…标度的 2250 分左" / "右" at 1024×640 (a visual audit
    in Chinese, 2026-12-05): the character before a lone last one goes down with it."""
    from gui import theme
    from gui.i18n import t, set_language, language
    pygame.init()
    before = language()
    try:
        set_language("zh")
        text = t("level.rated", level=t("level.strong"), scale=t("scale.xiangqi"), rating=2250)
        widths = set()
        for width in range(60, 420, 3):
            lines = theme.wrap_text(text, 13, width)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            if len(lines) > 1:
                widths.add(width)
                assert len(lines[-1]) > 1, (width, lines)
        assert widths                                  # some widths wrap it
        for width in range(150, 420, 3):               # and the cards' boxes, a shorter line beside a button
            lines = theme.wrap_box(text, 12, [width, width, max(20, width - 92)] + [width] * 5)
            assert "".join(lines).replace(" ", "") == text.replace(" ", "")
            assert len(lines) == 1 or len(lines[-1]) > 1, (width, lines)
    finally:
        set_language(before)


def test_a_rating_is_never_broken_inside_nor_before_an_opening_bracket_left_at_a_line_end():
    """The home card's rating line wrapped as "你：1606 ± 447（" / "2局后）" and "you: 2238" /
    "± 572 after 2 games" (a visual audit at 1280×800, 2026-12-02)."""
    from gui import theme
    from gui.i18n import t, set_language, language
    pygame.init()
    before = language()
    try:
        for lang in ("zh", "en"):
            set_language(lang)
            text = (t("level.rated", level=t("level.hard"), scale=t("scale.connect4"), rating=1600) + "; "
                    + t("rating.you", rating=1606, pm=447, n=2))
            for width in range(60, 520, 5):
                lines = theme.wrap_text(text, 13, width)
                assert "".join(lines).replace(" ", "") == text.replace(" ", "")
                assert not any(line[-1] in theme._OPENING for line in lines), (width, lines)
                assert any("1606 ± 447" in line for line in lines), (width, lines)
    finally:
        set_language(before)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_home_card_notes_stay_clear_of_the_watch_buttons_in_a_small_window(small_app, monkeypatch, lang):
    """At 800×560 the third line of a note ran under the Watch button and was cut mid-word."""
    from gui.i18n import t
    small_app.set_language(lang)
    small_app.go_home()
    small_app.step((), 0.02, draw=True)                 # builds the scene at this size
    texts = drawn_texts(small_app, monkeypatch)
    watch = [b.rect for b in small_app.scene.buttons if b.label == t("home.watch")]
    assert len(watch) == 6
    for s, rect in texts:
        if s != t("home.watch"):
            assert not any(rect.colliderect(w) for w in watch), (s, rect)
    from gui.scenes.home import game_name, model_note, rating_words
    for card, gid in small_app.scene.cards:
        game = small_app.scene._game(gid)
        note = model_note(game).replace(" ", "")
        rated = (rating_words(small_app, game) + model_note(game)).replace(" ", "")  # a rated game's level line first
        short = (rating_words(small_app, game) + model_note(game, True)).replace(" ", "")   # ... with a shorter note
        alone = rating_words(small_app, game).replace(" ", "")   # ... or alone, where no note fits beside it
        lines = [s for s, r in texts if card.contains(r) and s not in (game_name(gid), t("home.watch"))]
        shown = "".join(lines).replace(" ", "")          # (a break between CJK characters has no space)
        assert shown in (note, rated, short) or (alone and shown == alone) or lines[-1].endswith("…"), (gid, lines)


# --- the play and train panels at the minimum size -----------------------------------------

def test_the_win_rate_graph_is_shown_at_the_minimum_window_size(small_app):
    small_app.start_play("connect4", "first", "beginner")
    small_app.step((), 0.02, draw=True)
    assert small_app.scene.graph_rect.height >= 20


def test_the_training_charts_and_status_are_shown_at_the_minimum_window_size(small_app, monkeypatch):
    import gui.scenes.train as train_scene
    from gui.i18n import t
    charts = []
    real = train_scene.line_chart
    monkeypatch.setattr(train_scene, "line_chart", lambda *a, **k: charts.append(a[2]) or real(*a, **k))
    small_app.open_train()
    texts = [s for s, _ in drawn_texts(small_app, monkeypatch)]
    assert len(charts) == 3
    assert t("train.idle") in texts                     # it was cut to nothing beside the model choice


# --- what a finished demo says ----------------------------------------------------------------

def test_a_finished_demo_says_the_score_and_why(small_app, monkeypatch):
    from gui.scenes.sidepanel import final_score
    small_app.start_demo("othello", ("beginner", "beginner"), {"size": 6})
    c = small_app.scene.c
    c._reset_history([finished_othello()])
    texts = " ".join(s for s, _ in drawn_texts(small_app, monkeypatch))
    assert final_score(c) and final_score(c) in texts
    assert ("the board is full" if c.state.end_reason() == "full board" else "neither side can move") in texts


def test_a_paused_demo_analyses_the_position_no_search_has_seen():
    """Paused, the bar read "–" for the position on the board; the analysis now fills it in."""
    from games import get_game
    from gui.controller import DemoController
    from test_gui_review import ScriptedAI
    ai = ScriptedAI()
    c = DemoController(ai, get_game("tictactoe"), ("beginner", "beginner"))
    c.next_move_at = 0.0
    c.update()
    [(rid, (state, level, _))] = ai.open()
    assert level == "beginner"                          # running: the AI's own move, no analysis
    ai.answer(rid, action=4, value=0.0)
    c.pending_move = (4, 0.0)
    c.toggle_pause()
    c.update()
    assert c.state.moves == (4,) and c.evals[-1] is None
    [(rid, (state, level, _))] = ai.open()
    assert level == c.ANALYSIS_LEVEL and state is c.state
    ai.answer(rid, value=0.3)
    assert c.value0 == pytest.approx(-0.3)              # O to move: +0.3 for O
    c.toggle_pause()
    c.next_move_at = 0.0
    c.update()
    assert [r[1] for _, r in ai.open()] == ["beginner"]  # running again: moves, not analysis


def test_a_black_sides_area_on_the_graph_stands_out_from_the_background():
    from gui.theme import DEFAULT_PALETTE as pal
    from gui.widgets import graph_fill

    def luma(c):
        return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]
    black = graph_fill(pal.bg2, (22, 22, 24))
    assert luma(pal.bg2) - luma(black) >= 18
    red = graph_fill(pal.bg2, (220, 60, 60))
    assert red != black


# --- the result banner keeps the final position in view ------------------------------------------

GAMES = ["tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi"]


def finish(controller, seed=3):
    """End the controller's game: random moves to the end (a winning line, a full board), or
    a resignation in xiangqi, whose random games run long."""
    if controller.game.id == "xiangqi":
        controller.resign()
        return
    rng = random.Random(seed)
    s = controller.state
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    controller._reset_history([s])


@pytest.mark.parametrize("size", [MIN_SIZE, (1280, 800)])
@pytest.mark.parametrize("game", GAMES)
def test_the_result_banner_covers_none_of_the_boards_cells(tmp_path, monkeypatch, game, size):
    """It lay low on the board and hid tic-tac-toe's and othello's bottom rows, winning line
    included; now it lies over the side panel's top."""
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.start_play(game, "first", "beginner")
        scene = app.scene
        finish(scene.c)
        app.step((), 0.02, draw=True)
        assert scene.c.over and scene.result_shown()
        banner = scene.overlay_rect()
        cells = scene.view.renderer.grid.rect  # the cells (or points and their margin) of this layout
        assert cells.width > 100 and scene.board_rect.contains(cells)
        assert not banner.colliderect(cells), (banner, cells)
        assert scene.panel_rect.contains(banner)
        new_game = [b for b in scene.buttons if banner.contains(b.rect)]
        assert len(new_game) == 1                      # its New game button goes with it
        assert not scene.toast_area().colliderect(banner)
    finally:
        app.shutdown()


@pytest.mark.parametrize("size", [MIN_SIZE, (1280, 800)])
@pytest.mark.parametrize("game", GAMES)
def test_a_finished_demos_result_covers_none_of_the_boards_cells(tmp_path, monkeypatch, game, size):
    """Its banner lay low on the board too."""
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.start_demo(game, ("beginner", "beginner"))
        scene = app.scene
        rng = random.Random(3)
        s = scene.c.state
        while not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        scene.c._reset_history([s])
        assert scene.c.over
        assert scene.result_text() in [text for text, _ in drawn_texts(app, monkeypatch)]
        banner = scene.result_rect()
        cells = scene.view.renderer.grid.rect
        assert not banner.colliderect(cells), (banner, cells)
        assert scene.panel_rect.contains(banner)
        assert not any(banner.colliderect(b.rect) for b in scene.buttons)  # the level buttons stay usable
    finally:
        app.shutdown()


def test_a_click_on_the_banner_puts_it_away_and_the_panel_says_the_result(small_app, monkeypatch):
    from test_gui_support import click
    small_app.start_play("othello", "first", "beginner", {"size": 6})
    scene = small_app.scene
    scene.c._reset_history([finished_othello()])
    small_app.step((), 0.02, draw=True)
    text, _ = scene.result_text()
    banner = scene.overlay_rect()
    click(small_app, (banner.x + 10, banner.bottom - 10))
    assert not scene.result_shown() and scene.c.over
    texts = " ".join(s for s, _ in drawn_texts(small_app, monkeypatch))
    assert text in texts                               # the panel's status line, no longer hidden


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_panels_own_lines_fit_the_narrowest_panel_whole(small_app, monkeypatch, lang):
    """Found under Xvfb at 1024×640: "Press N for a new game, U to take moves ba…" and "Best
    moves: win rate · visits (hover: the li…" were cut."""
    from gui import theme
    from gui.i18n import t
    from gui.scenes.boardview import panel_width
    from test_gui_support import click
    small_app.set_language(lang)
    width = panel_width(MIN_SIZE[0]) - 36
    for key in ("play.press_new", "play.hint_table", "play.hint_table_margin"):
        assert theme.FONTS.size(t(key), 13)[0] <= width, t(key)
    small_app.start_play("othello", "first", "beginner", {"size": 6})
    small_app.scene.c._reset_history([finished_othello()])
    small_app.step((), 0.02, draw=True)
    banner = small_app.scene.overlay_rect()
    click(small_app, (banner.x + 10, banner.bottom - 10))
    assert t("play.press_new") in [s for s, _ in drawn_texts(small_app, monkeypatch)]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("scene", ["home", "train", "play", "play_over", "demo", "demo_over", "help"])
def test_no_two_texts_overlap_at_the_minimum_window_size(small_app, monkeypatch, lang, scene):
    """Found under Xvfb at 800×560: the Elo chart's title ran into its value, the training
    status was cut to nothing beside the model choice."""
    small_app.set_language(lang)
    {"home": small_app.go_home, "train": small_app.open_train,
     "play": lambda: small_app.start_play("xiangqi", "first", "beginner"),
     "play_over": lambda: (small_app.start_play("othello", "first", "beginner", {"size": 6}),
                           small_app.scene.c._reset_history([finished_othello()])),
     "demo": lambda: small_app.start_demo("othello", ("beginner", "beginner")),
     "demo_over": lambda: (small_app.start_demo("othello", ("beginner", "beginner"), {"size": 6}),
                           small_app.scene.c._reset_history([finished_othello()])),
     "help": lambda: small_app.open_help("xiangqi")}[scene]()
    small_app.step((), 0.02, draw=True)
    if small_app.overlay is not None:  # the sheet covers the scene: only its own texts count
        monkeypatch.setattr(small_app.scene, "draw", lambda surface: None)
    texts = [(s, r) for s, r in drawn_texts(small_app, monkeypatch) if s.strip() and r.width and r.height]
    for i, (s, r) in enumerate(texts):
        for s2, r2 in texts[i + 1:]:
            inner = r.clip(r2)
            assert inner.width < 3 or inner.height <= 4, (s, r, s2, r2)   # lines' padding may touch


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_each_settings_name_ends_before_its_choices_at_the_minimum_window_size(small_app, monkeypatch, lang):
    """Found under Xvfb at 1024×640: "Pause clocks in background and dialogs" ran under its
    buttons."""
    small_app.set_language(lang)
    small_app.open_settings()
    small_app.step((), 0.02, draw=True)
    drawn = dict(drawn_texts(small_app, monkeypatch))
    for label, row in small_app.scene.rows:
        assert label in drawn, label                       # drawn whole, not cut short
        assert drawn[label].right <= row.x - 8, (label, drawn[label], row)


def test_the_banners_summary_names_the_worst_moves_first_and_fits(small_app, monkeypatch):
    """At 1280×800 it read "Your moves: 4 × mistake, 3 × blunder, 6 × inacc…", cut."""
    small_app.start_play("othello", "first", "beginner", {"size": 6})
    scene = small_app.scene
    human = scene.c.human
    qs = ([{"player": human, "quality": "inaccuracy"}] * 6 + [{"player": human, "quality": "mistake"}] * 4
          + [{"player": human, "quality": "blunder"}] + [{"player": 1 - human, "quality": "blunder"}] * 2)
    monkeypatch.setattr(scene.c, "qualities", lambda: qs)
    monkeypatch.setattr(scene.c, "analysis_progress", lambda: (1, 1))
    assert scene.mistakes_text() == "You: 1 blunder, 4 mistakes, 6 inaccuracies"
    lines = scene.summary_lines(scene.overlay_rect().width)
    assert " ".join(lines) == scene.mistakes_text() and len(lines) <= 2      # wrapped, not cut
    monkeypatch.setattr(scene.c, "qualities", lambda: [])
    assert scene.mistakes_text() == "You: no mistakes found"


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_banners_rating_line_breaks_at_its_dot(tmp_path, monkeypatch, lang):
    """Found under Xvfb at 1024×640: "Your rating: 1330 ± 504 (−208) ·" over "nearest level:
    Easy" (in Chinese "· 对应" over "级别：简单"); each part gets its own line."""
    from gui.i18n import t
    from test_gui_support import make_app
    a = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        a.set_language(lang)
        a.start_play("othello", "first", "beginner", {"size": 6})
        scene = a.scene
        scene.c.rating_note = t("rating.after", rating=1330, pm=504, delta="−208", level=t("level.easy"))
        monkeypatch.setattr(scene.c, "analysis_progress", lambda: (1, 1))
        lines = scene.summary_lines(scene.overlay_rect().width)
        assert lines[-2:] == [part.strip() for part in scene.c.rating_note.split("·")]
    finally:
        a.shutdown()


def test_a_window_never_opens_larger_than_the_desktop():
    from gui.app import DESKTOP_MARGIN, fit_to_desktop
    mw, mh = DESKTOP_MARGIN
    assert fit_to_desktop((1280, 800), (1920, 1080)) == (1280, 800)
    assert fit_to_desktop((1280, 800), (1366, 768)) == (1280, 768 - mh)     # a common laptop
    assert fit_to_desktop((1280, 800), (1024, 640)) == (1024 - mw, 640 - mh)
    assert fit_to_desktop((1680, 1050), (1280, 800)) == (1280 - mw, 800 - mh)
    assert fit_to_desktop((1280, 800), None) == (1280, 800)                 # SDL could not say
    assert fit_to_desktop((1280, 800), (0, 0)) == (1280, 800)
    w, h = fit_to_desktop((1280, 800), (300, 200))                          # a tiny display still gets a window
    assert w > 0 and h > 0


def test_the_window_is_opened_at_the_size_that_fits_the_desktop(monkeypatch):
    """What a person on a 1366x768 laptop gets from the default 1280x800: a window whose title
    bar and bottom are on the screen (found under Xvfb at 1024x640, where the window opened
    1280x800 and centred, cut on every side)."""
    import gui.app as app_module
    opened = []

    def set_mode(size, flags=0):
        opened.append(tuple(size))
        return pygame.Surface(size)
    monkeypatch.setattr(app_module, "_desktop_size", lambda: (1366, 768))
    monkeypatch.setattr(pygame.display, "set_mode", set_mode)

    class Shell:
        headless = False
        settings = {"fullscreen": False}
    screen = app_module.App._open_window(Shell(), (1280, 800))
    assert opened == [app_module.fit_to_desktop((1280, 800), (1366, 768))]
    assert screen.get_size()[1] <= 768 - app_module.DESKTOP_MARGIN[1]



def test_the_opened_window_keeps_its_minimum_size_without_a_deprecation_notice():
    """pygame-ce deprecates ``Window.from_display_module`` (a DeprecationWarning in every test
    run); the window must still get the app's minimum size, through ``display.get_window``
    where pygame-ce has it, with no notice either way."""
    import warnings
    import gui.app as app_module

    class Shell:
        headless = False
        settings = {"fullscreen": False}
    pygame.display.init()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            app_module.App._open_window(Shell(), (1024, 640))
            assert tuple(app_module._display_window().minimum_size) == app_module.MIN_SIZE
    finally:
        pygame.display.quit()

# --- messages (toasts) leave the status line in view -------------------------------------------

def drawn_with_toasts(app, monkeypatch) -> tuple[list[tuple[str, pygame.Rect]], list[pygame.Rect]]:
    """One frame's texts other than the messages', with where they went, and the messages' boxes."""
    import gui.theme as theme_module
    texts, boxes = [], []
    in_toasts = [False]
    real_text, real_box, real_draw = theme_module.text, theme_module.rounded_rect, app._draw_toasts

    def text(surface, s, pos, size, color, bold=False, anchor="topleft"):
        rect = real_text(surface, s, pos, size, color, bold, anchor)
        if not in_toasts[0]:
            texts.append((s, rect))
        return rect

    def box(surface, color, rect, *args, **kwargs):
        if in_toasts[0]:
            boxes.append(pygame.Rect(rect))
        return real_box(surface, color, rect, *args, **kwargs)

    def draw_toasts(surface):
        in_toasts[0] = True
        try:
            real_draw(surface)
        finally:
            in_toasts[0] = False
    monkeypatch.setattr(theme_module, "text", text)
    monkeypatch.setattr(theme_module, "rounded_rect", box)
    monkeypatch.setattr(app, "_draw_toasts", draw_toasts)
    app.step((), 0.02, draw=True)
    monkeypatch.undo()
    return texts, boxes


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640), MIN_SIZE])
@pytest.mark.parametrize("status", ["your_move", "thinking", "looking_back"])
def test_messages_never_hide_the_status_line(tmp_path, monkeypatch, lang, size, status):
    """Found in screenshots at 1280×800 and 1024×640: the messages lay over the side panel's
    status line ("Your move", "AI is thinking…", "Looking at move 3 of 6" with its buttons)."""
    from gui.i18n import t
    from gui.session import Thinking
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        app.start_play("gomoku", "first", "beginner", time_control="300")
        c = app.scene.c
        c.analysis_on = False
        for move in ("h8", "h9", "i8", "i9", "j8", "j9"):
            c._push(c.state.parse_action(move), False)
        said = {"your_move": [t("play.your_move")], "thinking": [t("play.ai_thinking")],
                "looking_back": [t("play.viewing", n=3, total=6), t("play.back_to_game"), t("play.play_here")]}[status]
        if status == "thinking":
            c.human = 1
            c.thinking = Thinking(rid=-1, started=0.0)
        elif status == "looking_back":
            c.go_to(3)
        app.step()
        for message in (t("play.nothing_to_redo"), t("play.review_not_your_turn"),
                        t("play.copied", text="h8 h9 i8 i9 j8 j9 k8 k9 l8 l9 m8 m9 n8")):
            app.toast(message)
        texts, boxes = drawn_with_toasts(app, monkeypatch)
        assert len(boxes) == 2 * 3                       # each message: its fill and its border
        status_lines = [(s, r) for s, r in texts if s in said]
        assert len(status_lines) == len(said), (said, [s for s, _ in texts])
        title = [(s, r) for s, r in texts if r.bottom <= app.scene.panel_rect.y + 18 + 66]   # the title and clocks
        scene = app.scene
        for b in boxes:
            assert scene.panel_rect.contains(b) and not b.colliderect(scene.board_rect)
            for s, r in status_lines + title:
                assert not b.colliderect(r), (s, r, b)
            for button in scene.buttons:
                assert not b.colliderect(button.rect), (button.label, b)
    finally:
        app.shutdown()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1280, 800), (1024, 640), MIN_SIZE])
def test_a_demos_messages_never_hide_its_sides_or_its_status(tmp_path, monkeypatch, lang, size):
    """They lay over the sides' rows with their level buttons and the status ("White is thinking…")."""
    from gui.i18n import t
    from gui.scenes.setup import side_name
    from gui.session import Thinking
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        app.start_demo("gomoku", ("beginner", "beginner"))
        c = app.scene.c
        for move in ("h8", "h9", "i8"):
            c._push(c.state.parse_action(move), True)
        c.thinking = Thinking(rid=-1, started=0.0)
        app.step()
        app.toast(t("play.analysis_done"))
        app.toast(t("play.copied", text="h8 h9 i8 i9 j8 j9 k8 k9 l8 l9 m8 m9 n8"))
        texts, boxes = drawn_with_toasts(app, monkeypatch)
        assert len(boxes) >= 2                          # the newest message at least (a small panel has room for one)
        said = [t("demo.thinking", side=side_name("gomoku", 1)), side_name("gomoku", 0), side_name("gomoku", 1)]
        kept = [(s, r) for s, r in texts if s in said]
        assert len(kept) == 3, [s for s, _ in texts]
        scene = app.scene
        for b in boxes:
            assert scene.panel_rect.contains(b) and not b.colliderect(scene.board_rect)
            for s, r in kept:
                assert not b.colliderect(r), (s, r, b)
            for button in scene.buttons:
                assert not b.colliderect(button.rect), (button.label, b)
    finally:
        app.shutdown()


@pytest.mark.parametrize("size", [(1024, 640), (1280, 800)])
@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_demos_speed_caption_keeps_clear_of_its_buttons(tmp_path, monkeypatch, size, lang):
    """The caption's letters touched the Slow/Normal/Fast/Max buttons under it (a visual audit,
    2026-12-02): it stood 18 px above them, one pixel less than its own line."""
    from gui import theme
    from gui.i18n import t
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        app.start_demo("connect4", ("beginner", "beginner"))
        app.step((), 0.02, draw=True)
        [rect] = [r for s, r in drawn_texts(app, monkeypatch) if s == t("demo.speed")]
        ink = theme.FONTS.render(t("demo.speed"), 13, (255, 255, 255)).get_bounding_rect().move(rect.topleft)
        speeds = [b.rect for b in app.scene.buttons if b.label in [t(f"demo.speed{i}") for i in range(4)]]
        assert len(speeds) == 4
        assert ink.bottom + 2 <= min(r.top for r in speeds), (ink, speeds[0])
    finally:
        app.shutdown()


@pytest.mark.parametrize("size", [MIN_SIZE, (1024, 640), (1280, 800), (1680, 1050)])
def test_connect_fours_column_numbers_stay_in_the_boards_area(tmp_path, monkeypatch, size):
    """At 1280×800 they ran 18 px below the board's area, 6 px from the window's bottom edge,
    lower than the side panel (a visual audit, 2026-12-02)."""
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.start_play("connect4", "first", "beginner")
        app.step((), 0.02, draw=True)
        scene = app.scene
        numbers = [r for s, r in drawn_texts(app, monkeypatch)
                   if s in [str(c + 1) for c in range(7)] and r.right <= scene.board_rect.right]
        assert len(numbers) == 7
        for r in numbers:
            assert scene.board_rect.contains(r), (r, scene.board_rect)
        assert scene.view.renderer.grid.rect.bottom < min(r.top for r in numbers)   # still under the board
    finally:
        app.shutdown()


@pytest.mark.parametrize("size", [MIN_SIZE, (1024, 640), (1280, 800)])
@pytest.mark.parametrize("board", [15, 9])
def test_gomokus_coordinates_keep_clear_of_the_stones_on_the_edge_lines(monkeypatch, size, board):
    """A stone on the a-file covered the end of its row's number ("11", "12") and one on the
    first row touched its letter (a visual audit at 1024×640 and 1280×800, 2026-12-02)."""
    import gui.theme as theme_module
    from games import get_game
    from gui.boards import renderer_class
    from gui.scenes.boardview import board_and_panel
    pygame.init()
    game = get_game("gomoku", size=board)
    renderer = renderer_class("gomoku")(game)
    renderer.layout(board_and_panel(size)[0])
    g = renderer.grid
    labels = []
    real = theme_module.text

    def spy(surface, s, pos, size_, color, bold=False, anchor="topleft"):
        rect = real(surface, s, pos, size_, color, bold, anchor)
        ink = theme_module.FONTS.render(s, size_, color, bold).get_bounding_rect()
        labels.append((s, ink.move(rect.topleft).move(g.rect.topleft)))
        return rect
    monkeypatch.setattr(theme_module, "text", spy)
    renderer._board_surface(game.initial_state(), theme_module.palette(False))
    monkeypatch.setattr(theme_module, "text", real)
    radius = g.gap * 0.46                      # a stone's, as draw_pieces draws it
    left = min(x for x, _ in (g.point(0, 0), g.point(0, board - 1)))
    bottom = max(y for _, y in (g.point(0, 0), g.point(board - 1, 0)))
    numbers = [r for s, r in labels if s.isdigit()]
    letters = [r for s, r in labels if s.isalpha()]
    assert len(numbers) == len(letters) == board
    assert max(r.right for r in numbers) < left - radius - 1
    assert min(r.top for r in letters) > bottom + radius + 1
    assert min(r.left for r in numbers) >= g.rect.left + 2 and max(r.bottom for r in letters) <= g.rect.bottom - 2


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [MIN_SIZE, (1024, 640), (1280, 800)])
def test_the_new_game_cards_time_controls_are_drawn_whole(tmp_path, monkeypatch, lang, size):
    """Found at 1024×640 and 1280×800 in Chinese: gomoku's byo-yomi control read "10 分+3×30 秒…"."""
    from gui.scenes.setup import clock_choices, clock_label
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        app.open_setup("gomoku", "play")
        drawn = [s for s, _ in drawn_texts(app, monkeypatch)]
        for control in clock_choices("gomoku"):
            assert clock_label(control) in drawn, (clock_label(control), [s for s in drawn if "…" in s])
    finally:
        app.shutdown()
