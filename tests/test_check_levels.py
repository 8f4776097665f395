"""tools/check_levels.py: every level of the four rated games has a rating from at least 20
games in models/<game>.json, and the checker finds what is missing."""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tools"))

import check_levels  # noqa: E402


def _report(game):
    return json.loads((ROOT / "models" / f"{game}.json").read_text(encoding="utf-8"))


def test_the_shipped_reports_rate_every_level():
    for game in check_levels.RATED_GAMES:
        assert check_levels.problems(game, _report(game)) == [], game


def test_the_checker_finds_a_missing_level_too_few_games_and_a_narrow_gap():
    data = _report("othello")
    levels = data["levels"]
    del levels["hard"]
    levels["easy"]["games"] = 12
    levels["medium"]["reference"] = 5
    found = check_levels.problems("othello", data)
    assert any("hard is not rated" in p for p in found)
    assert any("easy rests on 12 games" in p for p in found)
    assert any("medium has no valid 'reference'" in p for p in found)
    levels["max"]["rating"] = levels["strong"]["rating"] + 40
    assert ("strong", "max", 40) in [(a, b, round(d)) for a, b, d in check_levels.gaps(data)]
    assert check_levels.problems("othello", {"game": "othello"}) == ['othello: no "levels"']


def test_the_checker_says_which_gap_fails(tmp_path, capsys):
    data = _report("othello")
    data["levels"]["max"]["rating"] = data["levels"]["strong"]["rating"] + 40
    (tmp_path / "othello.json").write_text(json.dumps(data), encoding="utf-8")
    assert check_levels.main(["--games", "othello", "--models", str(tmp_path)]) == 1
    assert "strong and max are 40 points apart" in capsys.readouterr().out
    (tmp_path / "othello.json").write_text("{ not json", encoding="utf-8")
    assert check_levels.main(["--games", "othello", "--models", str(tmp_path)]) == 1
