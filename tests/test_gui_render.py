"""Every scene renders for every game, in both languages, at a large and a small window
size; the screenshots are kept in test-artifacts/screens/ for people to look at."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

from pathlib import Path

import pygame

from games import GAME_IDS
from gui.selftest import render_all_scenes

SCREENS = Path(__file__).resolve().parent.parent / "test-artifacts" / "screens"


def test_every_scene_renders_for_every_game_and_language(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    paths = render_all_scenes(SCREENS)
    names = {p.stem for p in paths}
    for lang in ("en", "zh"):
        assert {f"home-{lang}", f"settings-{lang}"} <= names
        for gid in GAME_IDS:
            for scene in ("setup", "setup-demo", "play", "play-over", "load", "demo", "train"):
                assert f"{scene}-{gid}-{lang}" in names
    img = pygame.image.load(str(SCREENS / "play-xiangqi-zh.png"))
    assert img.get_size() == (1280, 800)


def test_the_colour_blind_palette_and_a_small_window_render(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    paths = render_all_scenes(SCREENS / "small", langs=("en",), size=(800, 560), colorblind=(True,))
    assert len(paths) == 2 + 7 * len(GAME_IDS)
    assert pygame.image.load(str(paths[0])).get_size() == (800, 560)


def test_home_card_strength_notes_follow_the_interface_language(tmp_path, monkeypatch):
    import json
    import shutil

    from games import get_game
    from gui import i18n
    from gui.scenes import home

    for gid in GAME_IDS:
        shutil.copy(Path("models") / f"{gid}.json", tmp_path / f"{gid}.json")
    (tmp_path / "othello.json").unlink()                 # a model without its report
    (tmp_path / "othello.pt").write_bytes(b"weights")
    bad = json.loads((tmp_path / "gomoku.json").read_text())
    bad["results"] = {"matches": "garbled"}              # unexpected figures: the English summary is the fallback
    (tmp_path / "gomoku.json").write_text(json.dumps(bad))
    monkeypatch.setattr(home, "models_dir", lambda: tmp_path)
    monkeypatch.setattr(home, "_reports", {})
    monkeypatch.setattr(home, "_notes", {})
    notes = {}
    try:
        for lang in ("en", "zh"):
            i18n.set_language(lang)
            notes[lang] = {gid: home.model_note(get_game(gid)) for gid in GAME_IDS}
    finally:
        i18n.set_language("en")
    cjk = lambda s: any("\u4e00" <= ch <= "\u9fff" for ch in s)  # noqa: E731
    for gid in ("tictactoe", "connect2", "connect4", "xiangqi"):
        assert not cjk(notes["en"][gid]) and cjk(notes["zh"][gid]), (gid, notes)
        assert notes["en"][gid] != notes["zh"][gid]
    assert "4,520" in notes["zh"]["tictactoe"]
    assert "3,985 of 4,000" in notes["en"]["connect4"] and "3,985" in notes["zh"]["connect4"]
    assert notes["en"]["othello"] == i18n.catalogue("en")["home.unmeasured"]
    assert notes["zh"]["othello"] == i18n.catalogue("zh")["home.unmeasured"]
    assert notes["zh"]["gomoku"] == bad["summary"]


def test_the_home_card_names_outside_engines_by_their_fixed_work_settings():
    from gui import i18n
    from gui.scenes import home
    try:
        for lang in ("en", "zh"):
            i18n.set_language(lang)
            depth1 = home._opponent("uci:/usr/games/fairy-stockfish@depth1", "fairy-stockfish at depth 1")
            elo = home._opponent("uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350", "")
            old = home._opponent("uci:/usr/games/fairy-stockfish@100?UCI_LimitStrength=true&UCI_Elo=min", "")
            assert len({depth1, elo, old}) == 3                 # each setting in its own plain words
            assert not any(w in o for o in (depth1, elo, old) for w in ("depth", "nodes", "UCI"))
            rapfi = home._opponent("gomocup:pbrain-rapfi@nodes1000", "Rapfi")
            egaroucid = home._opponent("nboard:nboard-egaroucid-web 5@depth5", "Egaroucid")
            assert "Rapfi" in rapfi and rapfi != "Rapfi" and "nodes" not in rapfi
            assert "5" in egaroucid and egaroucid != "Egaroucid"
        assert home._opponent("gomocup:some-brain@nodes200", "a brain") == "a brain"   # others: their label
    finally:
        i18n.set_language("en")


def test_home_card_says_in_plain_words_how_the_ai_fares_against_real_engines(tmp_path, monkeypatch):
    import json

    from games import get_game
    from gui import i18n
    from gui.scenes import home

    report = {"suite": "matches", "results": {"matches": [
        {"spec": "random", "label": "random moves", "wins": 20, "draws": 0, "losses": 0, "games": 20, "score": 1.0},
        {"spec": "uci:/usr/games/fairy-stockfish@depth1", "label": "fairy-stockfish at depth 1",
         "wins": 13, "draws": 0, "losses": 7, "games": 20, "score": 0.65},
        {"spec": "gomocup:/opt/rapfi@nodes1000", "label": "Rapfi, classical evaluation, max_node 1000",
         "wins": 3, "draws": 2, "losses": 15, "games": 20, "score": 0.2},
        {"spec": "uci:/usr/games/fairy-stockfish@depth1", "label": "fairy-stockfish at depth 1",
         "wins": 2, "draws": 0, "losses": 8, "games": 10, "score": 0.2}]}}   # a smaller match, same setting
    (tmp_path / "xiangqi.json").write_text(json.dumps(report))
    monkeypatch.setattr(home, "models_dir", lambda: tmp_path)
    monkeypatch.setattr(home, "_reports", {})
    monkeypatch.setattr(home, "_notes", {})
    try:
        en = home.model_note(get_game("xiangqi"))
        i18n.set_language("zh")
        zh = home.model_note(get_game("xiangqi"))
    finally:
        i18n.set_language("en")
    assert en == ("Wins 13 of 20 games against Fairy-Stockfish looking one move ahead; "
                  "3 wins and 2 draws of 20 against the gomoku program Rapfi on a quick search (free-style rules)")
    assert "random" not in en                      # the baselines give way to the real engines
    assert "20 局胜 13 局" in zh and "和 2 局" in zh


def test_one_draw_is_said_in_the_singular():
    from gui.scenes.home import _engine_result
    match = {"spec": "uci:/usr/games/fairy-stockfish@depth1", "label": "fairy-stockfish at depth 1",
             "wins": 69, "draws": 1, "losses": 10, "games": 80}
    assert _engine_result(match) == ("Wins 69, draws one of 80 games against Fairy-Stockfish "
                                     "looking one move ahead")
    assert _engine_result(match, more=True) == ("69 wins and one draw of 80 against Fairy-Stockfish "
                                                "looking one move ahead")

