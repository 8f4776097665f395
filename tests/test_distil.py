"""tools/distil.py (the narrower students of issue 57): its data are the teacher's own outputs on
positions of games the teacher (or a student) plays, drawn the same way for the same seed, and a
student learns from them into a checkpoint the project loads. Tic-tac-toe keeps it fast."""
from __future__ import annotations

import json
import runpy
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def tool():
    return runpy.run_path(str(ROOT / "tools" / "distil.py"))


def _main(tool, monkeypatch, *args):
    monkeypatch.setattr(sys, "argv", ["distil.py", *map(str, args)])
    tool["main"]()


def _gen(tool, monkeypatch, out, *extra):
    _main(tool, monkeypatch, "gen", "--game", "tictactoe", "--positions", 300, "--seed", 5, "--out", out, *extra)
    return dict(np.load(out))


def test_the_data_are_the_teachers_outputs_and_repeat_for_a_seed(tool, monkeypatch, tmp_path, capsys):
    from games import get_game
    a = _gen(tool, monkeypatch, tmp_path / "a.npz")
    b = _gen(tool, monkeypatch, tmp_path / "b.npz")
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["positions"] == 300 and report["student"] is None
    for k in a:
        np.testing.assert_array_equal(a[k], b[k])

    game = get_game("tictactoe")
    idx, logit = a["legal_idx"], a["legal_logit"]
    assert idx.shape == (300, game.action_size)
    n_legal = (idx >= 0).sum(1)
    assert n_legal.min() >= 1 and n_legal.max() <= 9
    # the legal moves come first, each once, then -1
    for row, n in zip(idx, n_legal):
        assert (row[n:] == -1).all() and len(set(row[:n])) == n and row[:n].max() < game.action_size
    assert np.all(np.abs(a["values"]) <= 1.0)
    # every target is what the teacher says of that position's planes
    ev = tool["teacher_evaluator"](game)
    logits, values = ev.infer(a["planes"].astype(np.float32))
    for i in range(300):
        acts = idx[i, :n_legal[i]]
        np.testing.assert_allclose(logit[i, :n_legal[i]], logits[i, acts].astype(np.float16), rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(a["values"], values, atol=1e-5)


def test_a_student_learns_into_a_checkpoint_and_plays_its_own_games(tool, monkeypatch, tmp_path, capsys):
    from engine.core.checkpoint import load_network
    from games import get_game
    data = tmp_path / "a.npz"
    _gen(tool, monkeypatch, data)
    student = tmp_path / "s.pt"
    capsys.readouterr()
    _main(tool, monkeypatch, "train", "--game", "tictactoe", "--data", data, "--blocks", 1, "--channels", 8,
          "--epochs", 2, "--batch", 32, "--held-out", 50, "--out", student)
    lines = [json.loads(x) for x in capsys.readouterr().out.strip().splitlines()]
    assert [x["epoch"] for x in lines] == [1, 2] and lines[-1]["steps"] == 2 * (250 // 32)
    assert all(0.0 <= x["same_first_choice"] <= 1.0 and x["value_diff"] >= 0 for x in lines)
    net, meta = load_network(student, get_game("tictactoe"))
    assert (net.cfg.blocks, net.cfg.channels) == (1, 8) and meta["extra"]["epochs_done"] == 2

    # the student's games against the teacher, sharp and from a random first stone: other positions
    # than the teacher's own, still labelled by the teacher
    on = _gen(tool, monkeypatch, tmp_path / "on.npz", "--student", student, "--temperature", 0.5,
              "--random-moves", 0, "--opening-stones", 1)
    assert json.loads(capsys.readouterr().out.strip().splitlines()[-1])["student"] == str(student)
    plain = dict(np.load(data))
    assert not np.array_equal(on["planes"], plain["planes"])
    # an opening stone is down in every kept position: no empty board among them
    assert ((on["legal_idx"] >= 0).sum(1) <= 8).all()
    assert ((plain["legal_idx"] >= 0).sum(1) == 9).any()


@pytest.mark.parametrize("args, words", [
    (["gen", "--temperature", "0"], "--temperature"),
    (["gen", "--random-moves", "1.5"], "--random-moves"),
    (["gen", "--opening-stones", "-1"], "--opening-stones"),
])
def test_bad_settings_are_refused_in_one_line(tool, monkeypatch, tmp_path, args, words):
    with pytest.raises(SystemExit) as e:
        _main(tool, monkeypatch, *args, "--game", "tictactoe", "--out", tmp_path / "x.npz")
    assert words in str(e.value) and "\n" not in str(e.value)
    assert not (tmp_path / "x.npz").exists()


def test_a_held_out_share_that_leaves_nothing_to_learn_is_refused(tool, monkeypatch, tmp_path):
    data = tmp_path / "a.npz"
    _gen(tool, monkeypatch, data)
    with pytest.raises(SystemExit) as e:
        _main(tool, monkeypatch, "train", "--game", "tictactoe", "--data", data, "--held-out", 300,
              "--out", tmp_path / "s.pt")
    assert "--held-out" in str(e.value)
    assert not (tmp_path / "s.pt").exists()
