"""games.perft: the generic walk, the fast per-game versions, and the command line."""
from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from games import GAME_IDS, get_game
from games.perft import main, perft

ROOT = Path(__file__).resolve().parent.parent

#: (game id, variant, position text, depth) small enough for the generic walk
CASES = [
    ("tictactoe", {}, "b2 a1", 5),
    ("connect2", {}, "", 4),
    ("connect4", {}, "4453", 4),
    ("othello", {}, "f5d6c3", 4),
    ("othello", {"size": 6}, "", 5),
    ("gomoku", {"size": 9}, "e5 d4", 2),
    ("xiangqi", {}, "", 2),
]


def load(gid: str, **variant):
    if importlib.util.find_spec(f"games.{gid}") is None:
        pytest.skip(f"games/{gid}.py is not written yet")
    return get_game(gid, **variant)


@pytest.mark.parametrize("gid, variant, text, depth", CASES,
                         ids=[c[0] + "".join(f"-{v}" for v in c[1].values()) for c in CASES])
def test_fast_perft_agrees_with_the_generic_walk(gid, variant, text, depth):
    s = load(gid, **variant).state_from_text(text)
    assert perft(s, depth) == perft(s, depth, use_fast=False)


def test_every_registered_game_is_covered_by_a_case():
    assert set(GAME_IDS) <= {c[0] for c in CASES}


def test_depth_zero_gives_no_counts_and_a_finished_game_gives_zeros():
    g = get_game("tictactoe")
    assert perft(g.initial_state(), 0) == []
    over = g.state_from_text("a1 a2 b1 b2 c1")
    assert perft(over, 3) == [0, 0, 0] == perft(over, 3, use_fast=False)


def test_negative_depth_is_an_error():
    with pytest.raises(ValueError, match="depth"):
        perft(get_game("tictactoe").initial_state(), -1)


def test_a_state_s_own_perft_counts_is_used_when_present():
    class Fake:
        def perft_counts(self, depth):
            return ["fast"] * depth

    assert perft(Fake(), 2) == ["fast", "fast"]


def run_main(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prints_one_json_line(capsys):
    code, out, err = run_main(capsys, "--game", "connect4", "--depth", "3")
    assert code == 0 and err == ""
    lines = out.splitlines()
    assert len(lines) == 1
    result = json.loads(lines[0])
    assert result["game"] == "connect4" and result["depth"] == 3 and result["nodes"] == [7, 49, 343]
    assert isinstance(result["seconds"], float) and result["seconds"] >= 0


def test_cli_reads_a_position_and_a_board_size(capsys):
    code, out, _ = run_main(capsys, "--game", "othello", "--size", "6", "--depth", "2")
    assert code == 0 and json.loads(out)["nodes"] == [4, 12]
    code, out, _ = run_main(capsys, "--game", "connect4", "--depth", "1", "--position", "444444")
    assert code == 0 and json.loads(out)["nodes"] == [6]


@pytest.mark.parametrize("argv, message", [
    (["--game", "chess", "--depth", "2"], "unknown game 'chess'"),
    (["--game", "connect4", "--depth", "2", "--position", "44x"], "move 3 ('x')"),
    (["--game", "connect4", "--depth", "2", "--size", "6"], "no --size option"),
    (["--game", "othello", "--depth", "2", "--size", "7"], "othello size"),
    (["--game", "tictactoe", "--depth", "-1"], "--depth must be >= 0"),
    (["--game", "tictactoe", "--depth", "99999999999999999999"], "--depth must be at most tictactoe's longest game"),
    (["--game", "tictactoe"], "--depth"),
])
def test_cli_rejects_bad_arguments_with_exit_code_2(capsys, argv, message):
    code, out, err = run_main(capsys, *argv)
    assert code == 2 and out == ""
    assert message in err and "Traceback" not in err


def test_main_py_dispatches_perft():
    ok = subprocess.run([sys.executable, "main.py", "perft", "--game", "tictactoe", "--depth", "2"],
                        cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert ok.returncode == 0 and json.loads(ok.stdout)["nodes"] == [9, 72]
    bad = subprocess.run([sys.executable, "main.py", "perft", "--game", "nope", "--depth", "2"],
                         cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "unknown game" in bad.stderr and "Traceback" not in bad.stderr
