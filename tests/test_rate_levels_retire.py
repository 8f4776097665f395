"""tools/rate_levels.py --retire: a dry run changes no file and plans as if the games were
renamed; a real one renames the levels' games and keeps them in the fit."""
from __future__ import annotations

import runpy
import shutil
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RATINGS = ROOT / "docs" / "runs" / "level-ratings" / "othello"


def _tool():
    return runpy.run_path(str(ROOT / "tools" / "rate_levels.py"))


def _listing(folder: Path) -> dict:
    return {f.name: f.read_bytes() for f in sorted(folder.iterdir())}


def test_a_dry_run_with_retire_changes_no_file_and_plans_the_level_afresh(tmp_path, capsys):
    folder = tmp_path / "othello"
    shutil.copytree(RATINGS, folder)
    before = _listing(folder)
    assert any("level_strong_cap_0" in name for name in before)
    _tool()["main"](["--game", "othello", "--out-dir", str(folder), "--retire", "g0", "--levels", "strong",
                     "--dry-run"])
    assert _listing(folder) == before
    err = capsys.readouterr().err
    assert "would rename:" in err and "level_strong-g0_cap_0" in err
    assert "would play 10 games: level:strong?cap=0" in err     # the level has no games of its own now


def test_retire_renames_the_levels_games_and_keeps_them_in_the_fit(tmp_path, capsys):
    folder = tmp_path / "othello"
    shutil.copytree(RATINGS, folder)
    tool = _tool()
    renamed = tool["retire"](folder, "g0", ["strong"])
    assert renamed and all("level_strong-g0_cap_0" in name for name in renamed)
    assert not list(folder.glob("level_strong_cap_0__*"))
    pairs = tool["Matches"]("othello", folder, None, dry=True).pairings()
    assert any(p.a == "level:strong-g0?cap=0" or p.b == "level:strong-g0?cap=0" for p in pairs)
