"""The player's rating: Glicko against rated levels (a simulated player's estimate lands near
the truth), stored safely, never counted from games with take-backs unless the person says
so, and the levels described in words (with ratings where they are measured)."""
from __future__ import annotations

import json
import os
import random

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from engine.play.rating import (Rating, expected_score, inflate, nearest_level, rd_of_interval, start_rating,
                                update)
from test_gui_support import app_factory  # noqa: F401 (a fixture)

#: a ladder like the one models/<game>.json "levels" will hold: six levels 250 points apart,
#: each measured to ±80 (95%)
LADDER = {"beginner": 700.0, "easy": 950.0, "medium": 1200.0, "hard": 1450.0, "strong": 1700.0, "max": 1950.0}
LADDER_RD = {k: rd_of_interval(v - 80, v + 80) for k, v in LADDER.items()}


def simulate(seed: int, truth: float, games: int = 20, adaptive: bool = True) -> Rating:
    """A player of strength ``truth`` plays ``games`` rated games, each against the level nearest
    the current estimate (the adaptive opponent) or a random one; each result is drawn with the
    Elo expectation from the true strength and the level's rating."""
    rng = random.Random(seed)
    r = start_rating(LADDER)
    for _ in range(games):
        level = nearest_level(r.rating, LADDER) if adaptive else rng.choice(sorted(LADDER))
        won = rng.random() < expected_score(truth, LADDER[level])
        r = update(r, LADDER[level], LADDER_RD[level], 1.0 if won else 0.0)
    return r


def test_a_simulated_players_estimate_lands_within_150_points_after_20_games():
    """500 seeded players of strengths across the ladder: measured 2026-11-28, 93% land within
    150 points against the adaptive opponent (80% against random levels)."""
    hits = 0
    for seed in range(500):
        truth = random.Random(10_000 + seed).uniform(700, 1950)
        hits += abs(simulate(seed, truth).rating - truth) <= 150
    assert hits / 500 >= 0.9


@pytest.mark.parametrize("level", sorted(LADDER))
def test_a_player_who_is_one_of_the_levels_is_found_near_its_rating(level):
    """The issue's target: the "player" is a level. Measured 2026-11-28 over 1000 seeds: within 150
    points after 20 games for 86% (beginner), 90% (easy), 93% (medium), 94% (hard), 92% (strong) and
    83% (max): the ends of the ladder are slower, having no level beyond them to play."""
    hits = sum(abs(simulate(seed, LADDER[level]).rating - LADDER[level]) <= 150 for seed in range(200))
    assert hits / 200 >= 0.78


def test_the_uncertainty_says_how_far_off_the_estimate_may_be():
    """About 95% of estimates lie within their own "±" (1.96 RD) of the truth."""
    inside = 0
    for seed in range(400):
        truth = random.Random(10_000 + seed).uniform(700, 1950)
        r = simulate(seed, truth, games=12)
        inside += abs(r.rating - truth) <= r.interval
    assert 0.9 <= inside / 400 <= 0.98   # 93% measured over 2000 seeds


def test_a_player_who_always_moves_first_is_rated_for_their_play_not_their_side():
    """Gomoku's first mover is worth about 150 points (models/gomoku.json). A player as strong as
    the hard level who always takes the first move scores about 70% against it; counted without
    the side, the estimate settles about that much above the truth. Measured 2026-12-02 over 300
    seeds of 40 games: mean error −16 with the side weighed (97% within 150 points), +139 without
    (58%)."""
    truth, advantage = LADDER["hard"], 150.0

    def estimate(seed: int, weigh: bool) -> float:
        rng = random.Random(seed)
        r = start_rating(LADDER)
        for _ in range(40):
            level = nearest_level(r.rating, LADDER)
            won = rng.random() < expected_score(truth + advantage, LADDER[level])
            r = update(r, LADDER[level], LADDER_RD[level], 1.0 if won else 0.0, advantage if weigh else 0.0)
        return r.rating - truth

    weighed = [estimate(seed, True) for seed in range(300)]
    plain = [estimate(seed, False) for seed in range(300)]
    assert abs(sum(weighed) / 300) < 50 and sum(plain) / 300 > 100
    assert sum(abs(e) <= 150 for e in weighed) / 300 >= 0.9


def test_a_win_raises_a_loss_lowers_and_every_game_narrows():
    r = Rating(1200.0, 200.0)
    win, loss = update(r, 1200, 50, 1.0), update(r, 1200, 50, 0.0)
    assert win.rating > 1200 > loss.rating and win.rd < 200 and win.games == 1
    assert update(r, 1200, 50, 0.5).rating == pytest.approx(1200.0)
    assert inflate(Rating(1200, 60), 365).rd > 300 and inflate(Rating(1200, 60), 0).rd == 60


def test_the_nearest_level_and_a_newcomers_start():
    assert nearest_level(1000, LADDER) == "easy" and nearest_level(5000, LADDER) == "max"
    assert start_rating(LADDER).rating == 1325.0 and start_rating(LADDER).rd == 350.0


# --- the levels' ratings from models/<game>.json ---------------------------------------------------
@pytest.fixture
def rated(monkeypatch):
    """Connect Four's levels rated (as models/connect4.json "levels" will say)."""
    from gui import ratings
    levels = {k: {"rating": v, "low": v - 80, "high": v + 80, "rd": LADDER_RD[k], "games": 40, "reference": "test"}
              for k, v in LADDER.items()}
    monkeypatch.setattr(ratings, "_levels_cache", {"connect4": levels, "othello": {}})   # othello: not rated here
    monkeypatch.setattr(ratings, "_advantage_cache", {"connect4": 0.0, "othello": 0.0})
    return levels


def test_level_ratings_are_read_from_the_model_report_and_bad_entries_left_out(tmp_path, monkeypatch):
    from games import get_game
    from gui import ratings
    (tmp_path / "connect4.json").write_text(json.dumps({"levels": {
        "easy": {"rating": 950, "low": 900, "high": 1000, "games": 30, "reference": "solver ladder"},
        "hard": {"rating": "strong"}, "max": [1], "medium": {"rating": 1e9}}}))
    monkeypatch.setattr("engine.core.paths.models_dir", lambda: tmp_path)
    monkeypatch.setattr(ratings, "_levels_cache", {})
    levels = ratings.level_ratings(get_game("connect4"))
    assert list(levels) == ["easy"] and levels["easy"]["rd"] == pytest.approx(50 / 1.96)
    monkeypatch.setattr(ratings, "_levels_cache", {})
    assert ratings.level_ratings(get_game("othello")) == {}   # no file: no ratings, no error


def test_the_first_movers_advantage_is_read_from_the_model_report_and_a_bad_one_is_none(tmp_path, monkeypatch):
    from games import get_game
    from gui import ratings
    monkeypatch.setattr("engine.core.paths.models_dir", lambda: tmp_path)
    for entry, expected in (({"elo": 150, "low": 133, "high": 167}, 150.0), ({"elo": -44}, -44.0),
                            ({"elo": "150"}, 0.0), ({"elo": 1e6}, 0.0), ([150], 0.0), (None, 0.0)):
        (tmp_path / "gomoku.json").write_text(json.dumps({"first_mover_advantage": entry}))
        monkeypatch.setattr(ratings, "_advantage_cache", {})
        assert ratings.first_mover_advantage(get_game("gomoku")) == expected, entry
    (tmp_path / "gomoku.json").write_bytes(b"\xff{")
    monkeypatch.setattr(ratings, "_advantage_cache", {})
    assert ratings.first_mover_advantage(get_game("gomoku")) == 0.0


def test_a_win_with_the_first_move_counts_less_than_one_without(tmp_path, monkeypatch, rated):
    from games import get_game
    from gui import ratings
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    monkeypatch.setattr(ratings, "_advantage_cache", {"connect4": 100.0})
    gains = {}
    for first in (True, None, False):
        store = ratings.PlayerRatings(autosave=False)
        before, after = store.record(get_game("connect4"), "medium", 1.0, first=first)
        gains[first] = after.rating - before.rating
    assert 0 < gains[True] < gains[None] < gains[False]


def test_the_ratings_file_keeps_ratings_and_a_damaged_one_is_set_aside(tmp_path, monkeypatch, rated):
    from games import get_game
    from gui import ratings
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    store = ratings.PlayerRatings()
    before, after = store.record(get_game("connect4"), "medium", 1.0)
    assert after.rating > before.rating and after.games == 1
    again = ratings.PlayerRatings().get("connect4")
    assert again.games == 1 and again.rating == pytest.approx(after.rating)
    ratings.path().write_bytes(b"\xff{not json")
    fresh = ratings.PlayerRatings()
    assert fresh.get("connect4") is None and fresh.problem and fresh.problem.startswith("ratings.json.bak-")
    ratings.path().write_text(json.dumps({"version": 1, "games": {"connect4": {"rating": "x"}, "Bad Key": {}}}))
    assert ratings.PlayerRatings().data == {}
    store.reset()
    assert ratings.PlayerRatings().get("connect4") is None


# --- counted in the app ---------------------------------------------------------------------------
def _finish_lost_game(app, undo: bool = False):
    """The person plays connect4's column 0 and resigns (an undo first when asked)."""
    c = app.scene.c
    app.step()
    c.play(0)
    c.error = ""
    c._push(1, by_ai=True)
    if undo:
        c.undo()
        c.play(0)
    c.resign()
    app.step()
    return c


def test_a_finished_game_against_a_rated_level_counts_and_says_the_new_rating(app_factory, rated):
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    c = _finish_lost_game(app)
    r = app.ratings.get("connect4")
    assert r is not None and r.games == 1 and r.rating < start_rating(LADDER).rating
    assert "Your rating" in c.rating_note and "nearest level" in c.rating_note
    assert any("Your rating" in line for line in app.scene.summary_lines(400))


@pytest.mark.parametrize("side, first", [("first", True), ("second", False)])
def test_the_app_counts_which_side_the_person_played(app_factory, rated, monkeypatch, side, first):
    from gui import ratings
    monkeypatch.setattr(ratings, "_advantage_cache", {"connect4": 100.0})
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", side, "medium")
    c = app.scene.c
    app.step()
    if not first:
        c._push(3, by_ai=True)
    c.play(0)
    c.resign()
    app.step()
    r = app.ratings.get("connect4")
    assert c.moved_first is first and r is not None and r.games == 1
    plain = update(start_rating(LADDER), LADDER["medium"], LADDER_RD["medium"], 0.0)
    assert (r.rating < plain.rating) if first else (r.rating > plain.rating)   # a loss with the edge costs more


def test_a_game_with_take_backs_never_counts_unless_the_person_says_so(app_factory, rated):
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    c = _finish_lost_game(app, undo=True)
    assert app.ratings.get("connect4") is None and c.rating_note == "Not rated: moves were taken back"
    app.settings.set("rate_takebacks", True)
    app.go_home()
    app.start_play("connect4", "first", "medium")
    _finish_lost_game(app, undo=True)
    assert app.ratings.get("connect4").games == 1


def test_a_loaded_game_or_an_unrated_level_never_counts(app_factory, rated):
    from games import get_game
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium", state=get_game("connect4").initial_state().apply(3).apply(3))
    _finish_lost_game(app)
    app.go_home()
    app.start_play("othello", "first", "medium")   # othello's levels are not rated here
    c = app.scene.c
    app.step()
    c.play(c.state.legal_actions()[0])
    c.resign()
    app.step()
    assert app.ratings.get("connect4") is None and app.ratings.get("othello") is None


def test_the_adaptive_opponent_picks_the_level_nearest_the_rating(app_factory, rated):
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "adaptive")
    c = app.scene.c
    assert c.adaptive and c.level == "medium"   # a newcomer: the middle of the ladder (1325: medium)
    for _ in range(4):
        _finish_lost_game(app)
        app.scene._new_game()
    assert c.level in ("beginner", "easy") and app.ratings.get("connect4").games == 4


def test_the_reset_in_settings_forgets_the_ratings(app_factory, rated):
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    _finish_lost_game(app)
    app.reset_ratings()
    assert app.ratings.get("connect4") is not None   # asked first
    app.overlay.build(app.screen.get_size())
    app.overlay.dialog.buttons[0].action()
    assert app.ratings.get("connect4") is None


# --- the levels in words ------------------------------------------------------------------------------
def test_the_level_picker_says_the_rating_and_yours_in_english_and_chinese(app_factory, rated):
    from gui import i18n
    from gui.scenes.setup import SetupScene
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    for _ in range(2):
        _finish_lost_game(app)
        app.scene._new_game()
    app.goto(SetupScene(app, "connect4"))
    app.scene._set_level("medium")
    r = app.ratings.get("connect4")
    words = app.scene.level_words()
    assert words[0] == (f"Medium — about 1200 on the Connect Four scale; you: {round(r.rating)} ± "
                        f"{round(r.interval)} after 2 games")
    i18n.set_language("zh")
    try:
        assert app.scene.level_words()[0].startswith("中等——相当于四子棋标度的 1200 分左右；你：")
    finally:
        i18n.set_language("en")
    assert "adaptive" in app.scene.level_choices()


def test_gomoku_says_its_rule_the_levels_rating_and_plain_note_beside_the_start_button(app_factory):
    """Gomoku's new-game card also says its rule set and opening rule: the level's plain note must
    not fall off for them, and the lines that sit beside the Start button must fit left of it."""
    from gui import i18n, theme
    from gui.ratings import level_ratings
    from gui.scenes.setup import SetupScene
    from games import get_game
    assert level_ratings(get_game("gomoku")), "the shipped gomoku levels are rated"
    import pygame
    from gui.app import MIN_SIZE
    for size in ((1280, 800), (1024, 640), MIN_SIZE):
        app = app_factory(ai_enabled=False, size=size)
        app.goto(SetupScene(app, "gomoku"))
        scene = app.scene
        start = next(b for b in scene.buttons if b.kind == "primary").rect
        for lang in ("en", "zh"):
            i18n.set_language(lang)
            try:
                scene._set_level("easy")
                model = app.model_label("gomoku", scene.variant())
                for opening in ("free", "swap2"):
                    scene.opening = opening
                    rating, note = scene.level_words()
                    lines = scene.note_lines()
                    if opening == "free":
                        assert lines[1] == rating and note.startswith(lines[2])
                    else:   # the opening rule first, then the rating where there is room
                        assert i18n.t("swap2.note").startswith(lines[1]) and rating in lines
                    assert model.startswith(lines[-1].rstrip("…")) or model.endswith(lines[-1])
                    for i, line in enumerate(lines):
                        w, h = theme.FONTS.size(line, 15)
                        rect = pygame.Rect(scene.card.x + 28, scene.note_y + 4 + i * scene.NOTE_LINE, w, h)
                        assert not rect.colliderect(start) and rect.bottom <= scene.card.bottom, (size, line)
            finally:
                i18n.set_language("en")


def test_without_ratings_a_level_is_one_plain_line_without_engine_words(app_factory):
    from gui import i18n
    from gui.controller import LEVELS
    from gui.scenes.setup import SetupScene
    app = app_factory(ai_enabled=False)
    app.goto(SetupScene(app, "tictactoe"))   # a game whose levels are not rated
    assert "adaptive" not in app.scene.level_choices()
    for lang in ("en", "zh"):
        i18n.set_language(lang)
        for level in LEVELS:
            app.scene._set_level(level)
            words = app.scene.level_words()
            assert len(words) == 1 and words[0]
            assert not any(w in words[0].lower() for w in ("node", "depth", "visit", "network", "search",
                                                            "节点", "深度", "网络", "搜索"))
    i18n.set_language("en")


def test_the_home_card_says_the_nearest_level_and_the_players_rating(app_factory, rated, monkeypatch):
    from test_gui_support import texts_drawn
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    _finish_lost_game(app)
    app.go_home()
    drawn = " ".join(texts_drawn(app, monkeypatch))
    assert "on the Connect Four scale; you:" in drawn and "after 1 game" in drawn


def test_a_rating_under_zero_is_said_as_below_zero(monkeypatch):
    """Gomoku's glancing beginner lies under 0 on the Rapfi scale (the scale's numbers come from
    Rapfi at 1000 positions = 1500); the picker does not print a negative rating."""
    from games import get_game
    from gui import i18n, ratings
    monkeypatch.setattr(ratings, "_levels_cache", {"gomoku": {
        "beginner": {"rating": -305, "low": -750, "high": 140, "rd": 200, "games": 100, "reference": "t"},
        "easy": {"rating": 259, "low": -160, "high": 680, "rd": 200, "games": 60, "reference": "t"}}})
    game = get_game("gomoku")
    assert ratings.level_line(game, "beginner") == "Beginner — below 0 on the Rapfi scale"
    assert ratings.level_line(game, "easy") == "Easy — about 260 on the Rapfi scale"
    i18n.set_language("zh")
    try:
        assert ratings.level_line(game, "beginner") == "入门——低于 Rapfi 标度的 0 分"
    finally:
        i18n.set_language("en")


def test_the_shipped_models_ratings_are_not_claimed_for_a_trained_model(app_factory, rated):
    """Defect: with "Newest trained" chosen in Train, the home card, the level picker and the
    rating of finished games still used the levels' ratings measured for the shipped model."""
    from engine.core.paths import user_model_path
    from games import get_game
    from gui.scenes import home
    from gui.scenes.setup import SetupScene
    app = app_factory(ai_enabled=False)
    game = get_game("connect4")
    assert home.rating_words(app, game)   # the shipped model: its levels' ratings are said
    user_model_path(game.key).write_bytes(b"a model")
    app.settings.set_model_choice(game.key, "trained")
    assert home.rating_words(app, game) == "" and app.rated_levels(game) == {}
    app.go_home()
    notes = [text for text, _ in app.scene._card_notes(game, lambda text: 1, 3)]
    assert notes == ["your trained model — strength not measured, games not rated"]
    setup = SetupScene(app, "connect4", "play")
    assert "adaptive" not in setup.level_choices()
    assert not any("scale" in line for line in setup.level_words())
    app.start_play("connect4", "first", "medium")
    c = _finish_lost_game(app)
    assert app.ratings.get("connect4") is None and not c.rating_note
