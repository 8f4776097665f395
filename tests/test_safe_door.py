"""Every file read from a person's folders goes through `engine.core.safefile`: pipes are never
waited on, each kind has a size limit, bad bytes and deep nesting are plain messages, and a
file the program would fail on at every start is set aside. One test per defect of issue 56
(D1-D9), then the reader itself."""
from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from engine.core.safefile import (LIMITS, USER_FILES, UnreadableFile, read_json, read_json_lines, read_text,
                                  set_aside, user_path)

DEEP = b"[" * 100_000 + b"]" * 100_000
BAD_BYTES = b'{"version": 1, "game": "\xff\xfe\xc0"}\n'


def finishes(fn, seconds: float = 5.0):
    """fn()'s result, or a failure when it is still running after ``seconds`` (a read blocked on
    a pipe: the pipe is then opened for writing, which frees the stuck thread)."""
    out = {}

    def body():
        try:
            out["value"] = fn()
        except BaseException as e:   # handed to the test
            out["error"] = e
    t = threading.Thread(target=body, daemon=True)
    t.start()
    t.join(seconds)
    if t.is_alive():
        raise AssertionError(f"still running after {seconds} s (blocked on a pipe?)")
    if "error" in out:
        raise out["error"]
    return out["value"]


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def aside(path: Path) -> list[Path]:
    return sorted(path.parent.glob(path.name + ".bak-*"))


# --- D1: the autosave ---------------------------------------------------------------------------

def _autosave_file(which: str) -> Path:
    """The game's own slot, or the single autosave.json of earlier versions (moved into its
    slot when the slots are read)."""
    from gui import autosave
    p = autosave.path("tictactoe") if which == "slot" else autosave.legacy_path()
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


SLOTS = pytest.mark.parametrize("which", ["slot", "legacy"])


@SLOTS
def test_d1_a_fifo_as_the_autosave_is_set_aside_not_waited_on(home, which):
    from gui import autosave
    p = _autosave_file(which)
    os.mkfifo(p)
    assert finishes(lambda: autosave.load("tictactoe")) is None
    assert finishes(autosave.load_all) == []
    assert not p.exists() and len(aside(p)) == 1      # kept for a look, out of the way


@SLOTS
@pytest.mark.parametrize("content", [BAD_BYTES, DEEP, b"\0" * (LIMITS["autosave"] + 1)],
                         ids=["bad-bytes", "deep", "too-large"])
def test_d1_a_damaged_autosave_is_set_aside_once(home, content, which):
    from gui import autosave
    p = _autosave_file(which)
    p.write_bytes(content)
    assert autosave.load("tictactoe") is None and autosave.load_all() == []
    assert not p.exists() and aside(p)[0].read_bytes() == content


@SLOTS
def test_d1_a_huge_sparse_autosave_costs_nothing(home, which):
    from gui import autosave
    p = _autosave_file(which)
    with open(p, "wb") as f:
        f.truncate(2 << 30)            # 2 GB, no blocks on disk
    start = time.process_time()
    assert autosave.load("tictactoe") is None
    assert time.process_time() - start < 1.0
    assert aside(p)


def test_d1_a_good_autosave_still_resumes(home):
    from games import get_game
    from gui import autosave

    class C:
        game = get_game("tictactoe")
        state = game.initial_state().apply(4)
        human, level, side_choice = 0, "easy", "first"
    assert autosave.save(C)
    assert autosave.load("tictactoe")["moves"] == 1
    assert [s["moves"] for s in autosave.load_all()] == [1]


# --- D2: run metrics ----------------------------------------------------------------------------

def _metrics(home, game_key="tictactoe") -> Path:
    p = user_path("run metrics", home / "data" / "runs" / game_key)
    p.parent.mkdir(parents=True, exist_ok=True)
    return p


def test_d2_metrics_with_bad_bytes_and_deep_nesting_keep_their_good_lines(home):
    from gui.training import run_history
    p = _metrics(home)
    p.write_bytes(b'{"generation": 1, "elo": 5}\n\xff\xfe bad\n' + DEEP + b'\n{"generation": 2}\n')
    assert [d["generation"] for d in run_history("tictactoe")] == [1, 2]


def test_d2_a_fifo_as_metrics_does_not_freeze_the_train_screen(home):
    from gui.training import run_history
    os.mkfifo(_metrics(home))
    assert finishes(lambda: run_history("tictactoe")) == []


def test_d2_the_trainer_sets_damaged_metrics_aside_before_rewriting_them(tmp_path):
    from engine.training.train import TrainingRun
    p = tmp_path / "metrics.jsonl"
    original = b'{"generation": 1}\n\xff bad\n{"generation": 9}\n'
    p.write_bytes(original)
    run = TrainingRun.__new__(TrainingRun)
    run.state = {"generation": 1}
    run._trim_metrics(p)
    assert p.read_bytes() == b'{"generation": 1}\n'
    assert aside(p)[0].read_bytes() == original       # nothing the person had is lost


# --- D3: the runtime cache ----------------------------------------------------------------------

@pytest.mark.parametrize("content", [DEEP, BAD_BYTES, b"[1, 2]", None], ids=["deep", "bad-bytes", "not-object", "fifo"])
def test_d3_a_damaged_runtime_cache_is_set_aside_and_measured_again(home, content, capsys):
    from engine.core import runtime
    p = runtime._choice_path()
    if content is None:
        os.mkfifo(p)
    else:
        p.write_bytes(content)
    assert finishes(lambda: runtime.remembered_choice("key")) is None
    assert not p.exists() and aside(p)
    assert "measuring again" in capsys.readouterr().err
    runtime.remember_choice("key", "ort-fp32", {"ort-fp32": 10.0, "torch-fp32": 5.0})
    assert runtime.remembered_choice("key") == "ort-fp32"


def test_d3_a_damaged_runtime_cache_never_costs_the_model(home):
    from engine.core import runtime
    from engine.core.evaluators import RolloutEvaluator
    from engine.play.players import load_evaluator
    from games import get_game
    runtime._choice_path().write_bytes(DEEP)
    evaluator, description = load_evaluator(get_game("tictactoe"))
    assert not isinstance(evaluator, RolloutEvaluator) and description.startswith("model ")


def test_d3_engines_and_analyse_say_when_they_play_without_a_model(home, monkeypatch, capsys):
    from engine.core import paths
    from engine.commands.cli import analyse_main
    from engine.protocols.uci import UCIEngine
    from games import get_game
    monkeypatch.setattr(paths, "shipped_model_path", lambda key: None)
    engine = UCIEngine(get_game("tictactoe"))
    replies = engine.handle_line("isready")
    assert any("no model for tictactoe" in r and "rollout" in r for r in replies), replies
    assert analyse_main(["--game", "tictactoe", "--sims", "4"]) == 0
    assert "no model for tictactoe" in capsys.readouterr().err


# --- D4: pbrain inside BOARD -------------------------------------------------------------------

def test_d4_end_inside_board_ends_the_brain():
    from engine.core.evaluators import UniformEvaluator
    from engine.protocols.gomocup import GomocupBrain
    brain = GomocupBrain(evaluator=UniformEvaluator(), seed=0)
    out: list[str] = []
    for line in ("START 15", "BOARD", "7,7,1", "END"):
        brain.handle_line(line, out.append)
    assert brain.quit_requested
    assert any("without DONE" in line for line in out)


# --- D5: peek_record ------------------------------------------------------------------------------

def test_d5_peek_record_refuses_a_huge_text_at_once():
    from games.records import MAX_RECORD_BYTES, RecordFormatError, peek_record
    text = "# game: tictactoe\n" + "a1 " * (MAX_RECORD_BYTES // 3 + 10)
    start = time.process_time()
    with pytest.raises(RecordFormatError, match="larger than"):
        peek_record(text)
    assert time.process_time() - start < 0.5


# --- D6: a xiangqi FEN's counters -----------------------------------------------------------------

def test_d6_a_fen_move_number_of_thousands_of_digits_is_a_notation_error_with_its_place():
    from games.base import NotationError
    from games.records import RecordFormatError, read_record
    from games.xiangqi_notation import parse_fen
    fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 " + "9" * 5000
    with pytest.raises(NotationError, match="move number"):
        parse_fen(fen)
    with pytest.raises(RecordFormatError, match=r"line 2.*move number"):
        read_record(f'[Game "Chinese Chess"]\n[FEN "{fen}"]\n\n*\n')


# --- D7: SGF keeps AP -------------------------------------------------------------------------------

def test_d7_an_sgf_written_by_the_app_survives_a_round_trip():
    from games import get_game
    from games.records import read_record, write_record
    state = get_game("gomoku").initial_state().apply(112)
    text = write_record(state, "sgf", {"app": "ZeroBoard 0.1.0", "date": "2026-11-28"})
    again = read_record(text)
    assert again.meta["app"] == "ZeroBoard 0.1.0"
    assert write_record(again.state, "sgf", again.meta) == text


# --- D8: a link loop in the games folder ------------------------------------------------------------

def test_d8_a_link_loop_is_listed_with_its_reason(home, tmp_path):
    from gui.records import list_folder
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "loop.sgf").symlink_to("loop.sgf")
    _, infos = list_folder(folder)
    assert [i.path.name for i in infos] == ["loop.sgf"] and "loop" in infos[0].error


# --- D9: --model a FIFO, and an over-long go number -------------------------------------------------

def test_d9_a_fifo_given_as_model_is_named_as_such(tmp_path):
    from engine.commands.cli import UsageError
    from engine.commands.engines import _checked_model
    fifo = tmp_path / "model.pt"
    os.mkfifo(fifo)
    with pytest.raises(UsageError, match="not a regular file"):
        finishes(lambda: _checked_model(str(fifo)))


def test_d9_an_over_long_go_nodes_number_means_as_many_as_allowed_and_is_answered():
    from engine.core.evaluators import UniformEvaluator
    from engine.protocols.uci import UCIEngine
    from games import get_game
    engine = UCIEngine(get_game("tictactoe"), evaluator=UniformEvaluator(), seed=0)
    out: list[str] = []
    assert engine._parse_go(["go", "nodes", "9" * 5000], out.append)[0] == engine.node_cap and not out
    replies = engine.handle_line("go movetime 20 nodes " + "9" * 5000)
    assert replies[-1].startswith("bestmove ")


# --- the reader -------------------------------------------------------------------------------------

def test_the_reader_names_each_failure_plainly(tmp_path):
    cases = {"missing": None, "not_file": "fifo", "too_large": b"x" * (LIMITS["settings"] + 1),
             "not_text": b"\xff\xfe\xfd", "not_json": b"{", "too_deep": DEEP}
    for kind, content in cases.items():
        p = tmp_path / kind
        if content == "fifo":
            os.mkfifo(p)
        elif content is not None:
            p.write_bytes(content)
        with pytest.raises(UnreadableFile) as e:
            finishes(lambda: read_json(p, "settings"))
        assert e.value.kind == kind and str(e.value) and str(p) not in str(e.value)
    loop = tmp_path / "loop"
    loop.symlink_to(loop.name)
    with pytest.raises(UnreadableFile):
        read_text(loop, "settings")


def test_json_lines_skip_bad_lines_and_count_them(tmp_path):
    p = tmp_path / "m.jsonl"
    p.write_bytes(b'{"a": 1}\n\xff\n' + DEEP + b'\n\n[2]\n')
    assert read_json_lines(p, "metrics") == ([{"a": 1}, [2]], 2)


def test_set_aside_keeps_every_earlier_copy(tmp_path):
    p = tmp_path / "f.json"
    for content in (b"1", b"2"):
        p.write_bytes(content)
        assert set_aside(p) is not None
    assert sorted(b.read_bytes() for b in aside(p)) == [b"1", b"2"]


def test_every_user_file_has_a_limit_and_a_known_place():
    for f in USER_FILES:
        assert f.kind in LIMITS and f.root in ("config", "data", "cache", "run") and f.on_damage in (
            "set_aside", "listed", "refused"), f
