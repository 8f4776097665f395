"""The strong level's visits come from models/<game>.json (`strong_visits`, measured by
benchmarks/strong_visits.py), with 800 where the file or the value is missing or bad."""
from __future__ import annotations

import json

import pytest

from engine.core import paths
from engine.play import players
from engine.play.players import (LEVEL_SETTINGS, MAX_LEVEL_VISITS, MAX_STRONG_VISITS, level_visits,
                                  make_player, strong_visits)
from games import get_game

MEASURED_GAMES = ("connect4", "othello", "gomoku", "xiangqi")


@pytest.fixture
def models(tmp_path, monkeypatch):
    """An empty models folder (no network: the players search with rollouts) and no cached figure."""
    monkeypatch.setattr(paths, "models_dir", lambda: tmp_path)
    monkeypatch.setattr(players, "_budgets", {})
    return tmp_path


@pytest.mark.parametrize("gid", MEASURED_GAMES)
def test_shipped_report_records_strong_visits(gid):
    data = json.loads((paths.models_dir() / f"{gid}.json").read_text(encoding="utf-8"))
    value = data.get("strong_visits")
    # below the max level's visits (its default, or the game's own where level_visits raises them)
    assert type(value) is int and 1 <= value < level_visits(get_game(gid), "max"), value
    assert data.get("strong_visits_method"), "the figure says how it was measured"


@pytest.mark.parametrize("gid", MEASURED_GAMES)
def test_shipped_strong_level_uses_the_figure(gid, monkeypatch):
    monkeypatch.setattr(players, "_budgets", {})
    game = get_game(gid)
    recorded = json.loads((paths.models_dir() / f"{gid}.json").read_text(encoding="utf-8"))["strong_visits"]
    assert strong_visits(game) == level_visits(game, "strong") == recorded


def test_strong_level_plays_the_recorded_visits(models):
    (models / "connect4.json").write_text(json.dumps({"game": "connect4", "strong_visits": 321}), encoding="utf-8")
    game = get_game("connect4")
    assert make_player(game, "strong", seed=1).sims == 321
    assert make_player(game, "hard", seed=1).sims == LEVEL_SETTINGS["hard"].sims   # only strong reads it
    from engine.protocols.session import SearchSession
    assert SearchSession(game, level="strong").level_sims == 321


def test_a_game_may_give_another_level_its_own_visits(models):
    """models/<game>.json ``level_visits`` (levels spread apart by rating matches); bad entries,
    and one for the strong level (which has `strong_visits`), are ignored."""
    (models / "gomoku.json").write_text(json.dumps({"game": "gomoku", "level_visits": {
        "medium": 30, "hard": 0, "max": "lots", "strong": 5, "easy": 2.5}}), encoding="utf-8")
    game = get_game("gomoku")
    assert level_visits(game, "medium") == 30 and make_player(game, "medium", seed=1).sims == 30
    for level in ("hard", "max", "easy", "beginner"):
        assert level_visits(game, level) == LEVEL_SETTINGS[level].sims
    assert level_visits(game, "strong") == LEVEL_SETTINGS["strong"].sims
    from engine.protocols.session import SearchSession
    assert SearchSession(game, level="medium").level_sims == 30


def test_a_fast_games_max_level_may_search_more_and_the_strong_level_up_to_it(models):
    """A fast game's max level may be given what its 5 s reach (beyond the default 6,000, up
    to `MAX_LEVEL_VISITS`); the strong level may then go up to that, not past it."""
    (models / "connect4.json").write_text(json.dumps({"game": "connect4", "strong_visits": 7000,
                                                      "level_visits": {"max": 14000}}), encoding="utf-8")
    game = get_game("connect4")
    assert level_visits(game, "max") == 14000 and make_player(game, "max", seed=1).sims == 14000
    assert strong_visits(game) == 7000
    players._budgets.clear()
    (models / "connect4.json").write_text(json.dumps({"game": "connect4", "strong_visits": 7000,
                                                      "level_visits": {"max": MAX_LEVEL_VISITS + 1}}),
                                          encoding="utf-8")
    assert level_visits(game, "max") == LEVEL_SETTINGS["max"].sims
    assert strong_visits(game) == LEVEL_SETTINGS["strong"].sims   # above the max level's visits


def test_a_shipped_level_visits_table_is_valid():
    for gid in MEASURED_GAMES:
        data = json.loads((paths.models_dir() / f"{gid}.json").read_text(encoding="utf-8"))
        table = data.get("level_visits", {})
        assert isinstance(table, dict) and set(table) <= set(LEVEL_SETTINGS) - {"strong"}
        assert all(type(v) is int and 1 <= v <= MAX_LEVEL_VISITS for v in table.values())
        assert data.get("strong_visits", 0) <= table.get("max", MAX_STRONG_VISITS)
        if table:
            assert data.get("level_visits_method"), "the table says how it was chosen"


def test_rule_variant_reads_its_network_figure(models):
    from games import game_from_key
    (models / "gomoku.json").write_text(json.dumps({"strong_visits": 432}), encoding="utf-8")
    renju = game_from_key("gomoku-renju")
    assert renju.key != "gomoku" and renju.network_key == "gomoku"
    assert strong_visits(renju) == strong_visits(get_game("gomoku")) == 432


@pytest.mark.parametrize("content", [
    None,                                   # no file
    {"game": "connect4"},                   # no entry
    {"strong_visits": "900"}, {"strong_visits": 0}, {"strong_visits": -5}, {"strong_visits": 1.5},
    {"strong_visits": True}, {"strong_visits": None}, {"strong_visits": MAX_STRONG_VISITS + 1},
    {"strong_visits": 10 ** 30}, [1, 2], "not json {", b"\xff\xfe", "folder",
])
def test_bad_or_missing_figure_falls_back_to_800(models, content):
    path = models / "connect4.json"
    if content == "folder":
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    elif isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    elif content is not None:
        path.write_text(json.dumps(content), encoding="utf-8")
    game = get_game("connect4")
    assert strong_visits(game) == 800
    assert make_player(game, "strong", seed=1).sims == 800
