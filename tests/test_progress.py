"""Progress of long jobs: a bar on a terminal, plain whole lines in logs and pipes, right counts."""
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.progress import Progress, format_seconds

ROOT = Path(__file__).resolve().parents[1]


class FakeTerminal(io.StringIO):
    def isatty(self):
        return True


def test_in_a_pipe_progress_writes_whole_lines_one_per_tenth_with_the_right_counts():
    out = io.StringIO()
    with Progress(50, "match", "games", stream=out) as bar:
        for i in range(50):
            bar.info(f"+{i + 1} =0 -0")
            bar.update()
    text = out.getvalue()
    assert "\r" not in text and "\x1b" not in text
    lines = text.splitlines()
    assert [line.split(",")[0] for line in lines] == [f"match: {k}/50 games ({2 * k}%)" for k in range(5, 51, 5)]
    assert lines[-1].endswith("+50 =0 -0") and "ETA" not in lines[-1]
    assert "ETA" in lines[0]


def test_a_slow_job_writes_a_line_when_the_interval_passed_even_within_a_tenth():
    out = io.StringIO()
    bar = Progress(1000, "positions", "positions", stream=out, line_every=0.0)
    bar.update(3)
    bar.update(4)
    bar.close()
    assert [line.split(" (")[0] for line in out.getvalue().splitlines()] == ["positions: 3/1000 positions",
                                                                              "positions: 7/1000 positions"]


def test_closing_writes_the_last_count_once_and_a_disabled_progress_writes_nothing():
    out = io.StringIO()
    bar = Progress(100, "stopped", "games", stream=out, line_every=3600)
    bar.update(3)          # no tenth reached, no interval passed
    assert out.getvalue() == ""
    bar.close()
    bar.close()
    lines = out.getvalue().splitlines()
    assert len(lines) == 1 and lines[0].startswith("stopped: 3/100 games (3%)")
    quiet = io.StringIO()
    with Progress(10, "quiet", stream=quiet, enabled=False) as bar:
        bar.update(10)
        bar.write("a summary")
    assert quiet.getvalue() == ""


def test_every_unit_writes_a_line_per_unit_and_an_unknown_total_still_counts():
    out = io.StringIO()
    with Progress(40, "arena", "games", stream=out, every_unit=True) as bar:
        for _ in range(4):
            bar.update()
    assert len(out.getvalue().splitlines()) == 4
    out = io.StringIO()
    with Progress(None, "open", "games", stream=out, line_every=0.0) as bar:
        bar.update(2)
    assert out.getvalue().splitlines()[0].startswith("open: 2 games, ")


def test_on_a_terminal_the_bar_redraws_in_place_with_counts_and_a_time_estimate():
    pytest.importorskip("tqdm")
    term = FakeTerminal()
    with Progress(20, "self-play", "games", stream=term) as bar:
        assert bar.is_bar
        for _ in range(20):
            bar.update()
        bar.write("gen 1: done")
    text = term.getvalue()
    assert "\r" in text and "20/20" in text and "self-play" in text and "gen 1: done\n" in text


def test_format_seconds():
    assert format_seconds(3725) == "1:02:05"
    assert format_seconds(float("inf")) == "?" and format_seconds(-1) == "?"


def _run(args, timeout=600):   # generous: under a loaded CI machine a cold start of torch alone can take a minute
    env = {**os.environ, "PYTHONPATH": str(ROOT), "SDL_VIDEODRIVER": "dummy"}
    return subprocess.run([sys.executable, str(ROOT / "main.py"), *args], capture_output=True, text=True,
                          env=env, timeout=timeout, cwd=ROOT)


def test_arena_in_a_pipe_counts_games_in_plain_lines():
    proc = _run(["arena", "--game", "tictactoe", "--a", "random", "--b", "solver", "--games", "20"])
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr
    lines = [line for line in proc.stderr.splitlines() if line.startswith("arena: ")]
    assert [line.split(" (")[0] for line in lines] == [f"arena: {k}/20 games" for k in range(2, 21, 2)]
    result = json.loads(proc.stdout)
    w, d, l = result["wins"], result["draws"], result["losses"]
    assert lines[-1].endswith(f"A +{w} ={d} -{l}")
    quiet = _run(["arena", "--game", "tictactoe", "--a", "random", "--b", "solver", "--games", "4", "--quiet"])
    assert quiet.returncode == 0 and quiet.stderr == ""


def test_evaluate_in_a_pipe_counts_positions_and_games_in_plain_lines():
    proc = _run(["evaluate", "--game", "tictactoe", "--limit", "300", "--games", "10", "--sims", "8"])
    assert proc.returncode == 0, proc.stderr
    assert "\r" not in proc.stderr
    lines = proc.stderr.splitlines()
    positions = [line for line in lines if line.startswith("tictactoe positions: ")]
    assert positions[-1].startswith("tictactoe positions: 300/300 positions (100%)")
    for opponent in ("solver", "random"):
        games = [line for line in lines if line.startswith(f"tictactoe vs {opponent}: ")]
        assert [line.split(" (")[0] for line in games] == [f"tictactoe vs {opponent}: {k}/10 games"
                                                            for k in range(1, 11)]


def _tiny_connect2():
    from engine.core.config import load_config
    from games import get_game
    game = get_game("connect2")
    cfg = load_config(game)
    cfg.selfplay.games_per_generation = 20
    cfg.selfplay.sims = 8
    cfg.selfplay.precision = "fp32"
    cfg.train.steps_per_generation = 5
    cfg.train.min_buffer = 10
    return game, cfg


def test_training_in_a_log_writes_self_play_counts_and_one_summary_per_generation(tmp_path, capsys):
    from engine.training.train import TrainingRun
    game, cfg = _tiny_connect2()
    state = TrainingRun(game, tmp_path / "run", cfg, workers=1).run(generations=2)
    err = capsys.readouterr().err
    assert "\r" not in err
    lines = err.splitlines()
    for g in (1, 2):
        counts = [line.split(" (")[0] for line in lines if line.startswith(f"gen {g} self-play: ")]
        assert counts == [f"gen {g} self-play: {k}/20 games" for k in range(2, 21, 2)]
    summaries = [line for line in lines if line.startswith(("gen 1/2: ", "gen 2/2: "))]
    assert len(summaries) == 2 and summaries[-1].startswith(f"gen 2/2: {state['games']} games, "
                                                            f"{state['positions']} positions")
    assert not any("learning" in line for line in lines)   # learning and arena bars: terminals only


def test_tensorboard_gets_the_figures_of_every_generation(tmp_path):
    pytest.importorskip("tensorboard", reason="TensorBoard is the optional 'tensorboard' extra: "
                                              "python3 tools/bootstrap.py install --extras tensorboard")
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator
    from engine.training.train import TrainingRun
    game, cfg = _tiny_connect2()
    run = TrainingRun(game, tmp_path / "run", cfg, workers=1, progress=False)
    run.enable_tensorboard(tmp_path / "tb")
    state = run.run(generations=2)
    run._tb.close()
    metrics = [json.loads(line) for line in (tmp_path / "run" / "metrics.jsonl").read_text().splitlines()]
    events = EventAccumulator(str(tmp_path / "tb"))
    events.Reload()
    tags = set(events.Tags()["scalars"])
    assert {"loss/total", "elo", "selfplay/games_total", "selfplay/positions_per_s"} <= tags

    def series(tag):
        return [(e.step, e.value) for e in events.Scalars(tag)]
    assert series("selfplay/games_total") == [(1, 20.0), (2, 40.0)] and state["games"] == 40
    assert [s for s, _ in series("loss/total")] == [1, 2]
    assert series("loss/total")[1][1] == pytest.approx(metrics[1]["loss"], rel=1e-5)
    assert series("selfplay/positions_per_s")[0][1] == pytest.approx(metrics[0]["selfplay"]["positions_per_s"],
                                                                     rel=1e-5)


def test_train_with_tensorboard_says_how_to_install_it_when_it_is_missing(tmp_path):
    probe = "import importlib.util, sys; sys.exit(0 if importlib.util.find_spec('tensorboard') else 1)"
    if subprocess.run([sys.executable, "-c", probe]).returncode == 0:
        # hide the installed package from the command: a stand-in that fails to import
        fake = tmp_path / "hide"
        (fake / "tensorboard").mkdir(parents=True)
        (fake / "tensorboard" / "__init__.py").write_text("raise ImportError('hidden by the test')\n")
        pythonpath = f"{fake}{os.pathsep}{ROOT}"
    else:
        pythonpath = str(ROOT)
    env = {**os.environ, "PYTHONPATH": pythonpath}
    proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "train", "--game", "connect2", "--generations", "1",
                           "--run-dir", str(tmp_path / "run"), "--tensorboard", str(tmp_path / "tb")],
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 2
    assert "--tensorboard needs the tensorboard package" in proc.stderr and "--extras tensorboard" in proc.stderr
    assert not (tmp_path / "run").exists()   # nothing started
