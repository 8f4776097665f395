"""The home cards' strength notes in plain words a player understands, in English and in
Chinese: no benchmark-set names, search budgets or engine settings (those stay in
models/<game>.json and the README), no English fragments in Chinese beyond program names,
and a Chinese note never broken between a number and its unit."""
from __future__ import annotations

import os
import re

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")

import pygame
import pytest

from games import GAME_IDS, get_game

JARGON = ("end-easy", "middle-", "begin-", "nodes", "depth", "MCTS", "playout", "rollout", "ply", "classical")
PROGRAMS = ("Fairy-Stockfish", "Egaroucid", "Rapfi", "Elo")


@pytest.fixture(params=["en", "zh"])
def notes(request):
    from gui import i18n
    from gui.scenes import home
    before = i18n.language()
    i18n.set_language(request.param)
    home._notes.clear()
    yield request.param, {g: home.model_note(get_game(g)) for g in GAME_IDS}
    i18n.set_language(before)
    home._notes.clear()


def test_the_notes_speak_plain_words(notes):
    lang, by_game = notes
    for game_id, note in by_game.items():
        assert note and not any(word.lower() in note.lower() for word in JARGON), (game_id, note)
        if lang == "zh":
            rest = note
            for name in PROGRAMS:
                rest = rest.replace(name, "")
            assert not re.search(r"[A-Za-z]", rest), (game_id, note)


def test_a_chinese_note_is_never_broken_between_a_number_and_its_unit(notes):
    from gui import theme
    lang, by_game = notes
    pygame.font.init()
    for note in by_game.values():
        for width in range(120, 420, 7):
            lines = theme.wrap_box(note, 13, [width] * 3)
            for a, b in zip(lines, lines[1:]):
                assert not (re.search(r"[0-9]$", a) and re.match(r"[局个步]", b)), (width, lines)
                assert not re.match(r"[、，。；：）]", b), (width, lines)


def home_texts(tmp_path, monkeypatch, lang, size, check) -> None:
    """``check(app, drawn)`` on the texts one frame of the home screen draws, in order."""
    from gui import theme
    from gui.scenes import home
    from test_gui_support import make_app
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=size)
    try:
        app.set_language(lang)
        home._notes.clear()
        app.go_home()
        drawn = []
        real = theme.text
        monkeypatch.setattr(theme, "text", lambda s, text, *a, **k: drawn.append(text) or real(s, text, *a, **k))
        app.step()
        monkeypatch.setattr(theme, "text", real)
        check(app, drawn)
    finally:
        app.shutdown()
        home._notes.clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1008, 560), (1280, 688)])
def test_every_note_is_shown_whole_at_the_usual_window_sizes(tmp_path, monkeypatch, lang, size):
    def check(app, drawn):
        cut = [d for d in drawn if d.endswith("…")]
        assert not cut, cut
    home_texts(tmp_path, monkeypatch, lang, size, check)


def test_a_long_note_gives_way_to_its_first_program_so_that_the_level_rating_shows():
    from gui.scenes.home import _fitting
    lines = {"rating": 1, "long": 3, "short": 2}.get
    rating, long_note = ("rating", "text"), ("long", "dim")
    assert _fitting([rating, long_note], lines, 3, "short") == [rating, ("short", "dim")]
    assert _fitting([rating, long_note], lines, 4, "short") == [rating, long_note]   # both fit whole
    assert _fitting([rating, long_note], lines, 2, "short") == [rating]              # neither way: the rating stays
    assert _fitting([rating, long_note], lines, 3) == [rating]
    assert _fitting([rating, long_note], lines, 1) == [rating]


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("size", [(1024, 640), (1280, 800), (1008, 560), (1280, 688)])
def test_every_rated_game_shows_its_level_rating_on_its_card(tmp_path, monkeypatch, lang, size):
    """Found by looking at the window: xiangqi's card, whose note names two Fairy-Stockfish
    settings, left out the one line a player reads first ("Strong — about 1980 on the
    Fairy-Stockfish scale"); later, in Chinese at 1024x640, it showed its strength note and left
    the rating out."""
    from gui.scenes import home

    def check(app, drawn):
        shown = "".join(drawn).replace(" ", "")
        for gid in ("connect4", "othello", "gomoku", "xiangqi"):
            words = home.rating_words(app, get_game(gid))
            assert words, gid
            assert words.replace(" ", "") in shown, (gid, words)
    home_texts(tmp_path, monkeypatch, lang, size, check)
