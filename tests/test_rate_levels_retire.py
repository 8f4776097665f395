"""tools/rate_levels.py --retire: a dry run changes no file and plans as if the games were
renamed; a real one renames the levels' games and keeps them in the fit."""
from __future__ import annotations

import json
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EGAROUCID_5 = "nboard:/tmp/refengines/egaroucid/nboard-egaroucid-web 5@depth5"


def _tool():
    return runpy.run_path(str(ROOT / "tools" / "rate_levels.py"))


def _block(folder: Path, tool: dict, a: str, b: str, block: str, wins: int, draws: int, losses: int,
           moves: str) -> None:
    """One played block of ``a`` against ``b``: its summary and its games."""
    path = folder / f"{tool['_slug'](a)}__vs__{tool['_slug'](b)}__{block}.json"
    games = wins + draws + losses
    path.write_text(json.dumps({"game": "othello", "a": a, "b": b, "wins": wins, "draws": draws, "losses": losses,
                                "games": games, "score": (wins + draws / 2) / games}) + "\n")
    path.with_suffix(".games.jsonl").write_text(moves)


def _folder(tmp_path: Path, tool: dict) -> Path:
    """A rating folder with one played block of the strong level against a rung, and its games."""
    folder = tmp_path / "othello"
    folder.mkdir()
    _block(folder, tool, "level:strong?cap=0", EGAROUCID_5, "0", 6, 1, 3, '{"moves": []}\n')
    return folder


def _listing(folder: Path) -> dict:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir())}


def test_a_dry_run_with_retire_changes_no_file_and_plans_the_level_afresh(tmp_path, capsys):
    tool = _tool()
    folder = _folder(tmp_path, tool)
    before = _listing(folder)
    tool["main"](["--game", "othello", "--out-dir", str(folder), "--retire", "g0", "--levels", "strong", "--dry-run"])
    assert _listing(folder) == before
    err = capsys.readouterr().err
    assert "would rename:" in err and "level_strong-g0_cap_0" in err
    assert "games: level:strong?cap=0 vs" in err     # the level has no games of its own now: it plays again


def test_retire_renames_the_levels_games_and_keeps_them_in_the_fit(tmp_path):
    tool = _tool()
    folder = _folder(tmp_path, tool)
    renamed = tool["retire"](folder, "g0", ["strong"])
    assert renamed == ["level_strong-g0_cap_0__vs__" + tool["_slug"](EGAROUCID_5) + "__0.json"]
    assert not list(folder.glob("level_strong_cap_0__*"))
    assert (folder / renamed[0]).with_suffix(".games.jsonl").exists()
    pairs = tool["Matches"]("othello", folder, None, dry=True).pairings()
    assert [(p.a, p.b, p.wins, p.draws, p.losses) for p in pairs] == [("level:strong-g0?cap=0", EGAROUCID_5, 6, 1, 3)]


def test_rename_merges_a_players_games_into_a_name_that_has_games_already(tmp_path):
    """--rename OLD=NEW: the same settings rated under two names become one player; a block whose
    file name is taken gets a suffix, and every game stays in the fit."""
    tool = _tool()
    folder = _folder(tmp_path, tool)
    a, b = "level:strong-g0?cap=0", EGAROUCID_5
    other = folder / f"{tool['_slug'](a)}__vs__{tool['_slug'](b)}__0.json"
    other.write_text(json.dumps({"game": "othello", "a": a, "b": b, "wins": 2, "draws": 0, "losses": 8, "games": 10,
                                 "score": 0.2}) + "\n")
    other.with_suffix(".games.jsonl").write_text('{"moves": [1]}\n')
    renamed = tool["rename"](folder, {"strong-g0": "strong"})
    assert renamed == ["level_strong_cap_0__vs__" + tool["_slug"](EGAROUCID_5) + "__0b.json"]
    assert (folder / renamed[0]).with_suffix(".games.jsonl").read_text() == '{"moves": [1]}\n'
    pairs = tool["Matches"]("othello", folder, None, dry=True).pairings()
    assert sorted((p.a, p.wins, p.losses) for p in pairs) == [("level:strong?cap=0", 2, 8), ("level:strong?cap=0", 6, 3)]


def test_rename_refuses_a_malformed_pair_and_a_dry_run_changes_nothing(tmp_path, capsys):
    tool = _tool()
    folder = _folder(tmp_path, tool)
    before = _listing(folder)
    tool["main"](["--game", "othello", "--out-dir", str(folder), "--rename", "strong=strong-x", "--dry-run"])
    assert _listing(folder) == before
    assert "would rename: level_strong-x_cap_0" in capsys.readouterr().err
    import pytest
    for bad in ("strong", "=max", "level:max=max", "max="):
        with pytest.raises(SystemExit):
            tool["main"](["--game", "othello", "--out-dir", str(folder), "--rename", bad, "--dry-run"])


def test_rename_swaps_two_players_names_without_gaps_or_lost_games(tmp_path, capsys):
    """A setting tried and taken back (--rename max=max-x --rename max-y=max): the two players swap
    names block for block, no block takes a suffix, and rating afterwards plays no game again."""
    tool = _tool()
    folder = tmp_path / "othello"
    folder.mkdir()
    strong = "level:strong?cap=0"
    for n in range(2):
        _block(folder, tool, "level:max?cap=0", strong, str(n), 7, 0, 3, f"new {n}\n")
        _block(folder, tool, "level:max-y?cap=0", strong, str(n), 5, 0, 5, f"old {n}\n")
    renamed = tool["rename"](folder, {"max": "max-x", "max-y": "max"})
    assert sorted(renamed) == sorted(f"level_{who}_cap_0__vs__level_strong_cap_0__{n}.json"
                                     for who in ("max", "max-x") for n in range(2))
    for n in range(2):
        stem = f"level_max_cap_0__vs__level_strong_cap_0__{n}"
        assert json.loads((folder / f"{stem}.json").read_text())["wins"] == 5
        assert (folder / f"{stem}.games.jsonl").read_text() == f"old {n}\n"
        assert (folder / f"level_max-x_cap_0__vs__level_strong_cap_0__{n}.games.jsonl").read_text() == f"new {n}\n"
    assert not list(folder.glob("*.renaming"))
    # rating now: max has its 20 games (blocks 0 and 1), so nothing of max's would be played again
    tool["main"](["--game", "othello", "--out-dir", str(folder), "--levels", "max", "--games", "20", "--dry-run"])
    assert "games: level:max?cap=0 vs" not in capsys.readouterr().err


def test_games_of_suffixed_blocks_count_towards_a_levels_games(tmp_path, capsys):
    """After a merge a level's blocks may be 0 and 0b: 20 games, and --games 20 plays none."""
    tool = _tool()
    folder = tmp_path / "othello"
    folder.mkdir()
    for block in ("0", "0b"):
        _block(folder, tool, "level:max?cap=0", "level:strong?cap=0", block, 6, 0, 4, "{}\n")
    assert tool["Matches"]("othello", folder, None, dry=True).suffixed_games("level:max?cap=0") == 10
    tool["main"](["--game", "othello", "--out-dir", str(folder), "--levels", "max", "--games", "20", "--dry-run"])
    assert "games: level:max?cap=0 vs" not in capsys.readouterr().err
    tool["main"](["--game", "othello", "--out-dir", str(folder), "--levels", "max", "--games", "30", "--dry-run"])
    assert "games: level:max?cap=0 vs" in capsys.readouterr().err


def _planned_seeds(err: str, player: str) -> list[int]:
    return [int(line.rsplit("(seed ", 1)[1].rstrip(")")) for line in err.splitlines()
            if line.startswith("would play") and f"games: {player} vs" in line]


def test_a_levels_new_block_has_the_same_fresh_seed_whichever_levels_are_rated(tmp_path, capsys):
    """The levels do not sample, so a block that repeats another's seed repeats its games: rating
    some levels (--levels) once gave a level's next block the seed an earlier run had given its
    first. A block's seed now depends on the player and the block alone."""
    tool = _tool()
    folder = tmp_path / "othello"
    folder.mkdir()
    for block in ("0", "1"):
        _block(folder, tool, "level:max?cap=0", "level:strong?cap=0", block, 6, 0, 4, "{}\n")
    plans = []
    for levels in (["--levels", "max"], ["--levels", "hard", "max"], []):
        tool["main"](["--game", "othello", "--out-dir", str(folder), "--games", "30", "--dry-run"] + levels)
        plans.append(_planned_seeds(capsys.readouterr().err, "level:max?cap=0"))
    assert plans[0] == plans[1] == plans[2] == [tool["block_seed"](1000, "level:max?cap=0", 2)]
    seeds = {tool["block_seed"](1000, f"level:{lv}?cap=0", b) for lv in ("hard", "max") for b in range(10)}
    assert len(seeds) == 20 and min(seeds) > 1000 + 10_000   # distinct, and clear of the old counted seeds


def test_the_first_movers_advantage_is_fitted_from_the_games_colours_and_written(tmp_path, monkeypatch):
    """Every block's games carry who moved first; --write puts the advantage beside the levels."""
    tool = _tool()
    folder = tmp_path / "othello"
    folder.mkdir()
    won_first = "".join(json.dumps({"a_first": i % 2 == 0, "result": "win" if i % 2 == 0 else "loss"}) + "\n"
                        for i in range(10))
    _block(folder, tool, "level:strong?cap=0", EGAROUCID_5, "0", 5, 0, 5, won_first)
    model = tmp_path / "othello.json"
    model.write_text("{}")
    args = type("Args", (), {"game": "othello", "out_dir": str(folder), "rule": None, "dry_run": True,
                             "seed": 1000, "rung_games": 20, "games": 10, "block": 10, "levels": ["strong"],
                             "rungs_only": False, "start_from": None})()
    report = tool["run"](args)
    assert report["first_mover"]["elo"] > 200 and report["first_mover"]["games"] == 10
    tool["write_levels"]("othello", report, model)
    written = json.loads(model.read_text())["first_mover_advantage"]
    assert written["elo"] == report["first_mover"]["elo"] and "first movers" in written["reference"]
