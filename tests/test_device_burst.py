"""tools/device_burst.py: a run packed small goes on elsewhere and comes back whole, and a line
that moved on meanwhile is never overwritten."""
from __future__ import annotations

import json
import runpy
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


def _tool():
    return runpy.run_path(str(ROOT / "tools" / "device_burst.py"))


def _train(run_dir: Path, generations: int, resume: bool) -> None:
    cmd = [sys.executable, str(ROOT / "main.py"), "train", "--game", "connect2", "--run-dir", str(run_dir),
           "--generations", str(generations), "--workers", "1", "--quiet"] + (["--resume"] if resume else [])
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]


def _state(run_dir: Path) -> dict:
    return json.loads((run_dir / "state.json").read_text())


def test_a_packed_run_goes_on_elsewhere_and_merges_back(tmp_path):
    tool = _tool()
    line = tmp_path / "line"
    _train(line, 2, resume=False)
    start = _state(line)["generation"]

    packed = tmp_path / "packed"
    origin = tool["pack"](line, packed)
    assert origin["started_from"] == origin["generation"] == start
    # the samples travel compressed and load as the originals
    for path in (packed / "buffer").glob("gen_*.npz"):
        with np.load(path) as small, np.load(line / "buffer" / path.name) as full:
            assert small.files == full.files
            for k in full.files:
                np.testing.assert_array_equal(small[k], full[k])
    assert [p.name for p in (packed / "checkpoints").iterdir()] == [f"gen_{start:06d}.pt"]

    # "the borrowed machine": unpack, train on, pack to go back
    away = tmp_path / "away"
    tool["unpack"](packed, away)
    _train(away, 2, resume=True)
    back = tmp_path / "back"
    returned = tool["pack"](away, back, every=1)
    assert returned["started_from"] == start and returned["generation"] == start + 2

    merged = tool["merge"](back, line)
    assert merged == {"from": start, "to": start + 2, "games": _state(away)["games"]}
    assert _state(line) == _state(away)
    for g in (start + 1, start + 2):
        assert (line / "checkpoints" / f"gen_{g:06d}.pt").is_file()
        assert (line / "buffer" / f"gen_{g:06d}.npz").is_file()
    assert (line / "metrics.jsonl").read_text() == (away / "metrics.jsonl").read_text()

    # the line goes on here from the merged generation
    _train(line, 1, resume=True)
    assert _state(line)["generation"] == start + 3

    # a second merge of the same burst would overwrite the line's newer generation: refused
    with pytest.raises(SystemExit, match="not at"):
        tool["merge"](back, line)


def test_pack_refuses_a_folder_that_is_not_empty_and_a_run_without_state(tmp_path):
    tool = _tool()
    dest = tmp_path / "dest"
    dest.mkdir()
    (dest / "x").write_text("x")
    (tmp_path / "run").mkdir()
    with pytest.raises(SystemExit, match="state.json"):
        tool["pack"](tmp_path / "run", tmp_path / "other")
    (tmp_path / "run" / "state.json").write_text('{"generation": 1}')
    with pytest.raises(SystemExit, match="not empty"):
        tool["pack"](tmp_path / "run", dest)
