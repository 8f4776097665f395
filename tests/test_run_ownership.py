"""One writer per training run: a run folder is locked by whoever trains it (a second trainer,
the CLI's included, refuses with a clear message), and the app's trainer never outlives the
process that started it (a kill -9 of the training host included)."""
from __future__ import annotations

import json
import multiprocessing as mp
import os
import queue
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import process_running
from engine.core.runlock import RunDirLock, RunDirLocked
from engine.training.train import TrainingRun
from games import get_game

ROOT = Path(__file__).resolve().parent.parent
#: how long a test waits for another process; it returns as soon as the thing happened, so the
#: limit matters only when something is broken (starting a process that imports torch took
#: 8-17 s on a busy 2-core machine)
WAIT_S = 120.0


def wait_for(condition, timeout=WAIT_S, every=0.1) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(every)
    return condition()


def lock_is_free(run_dir) -> bool:
    lock = RunDirLock(run_dir)
    try:
        lock.acquire()
    except RunDirLocked:
        return False
    lock.release()
    return True


def test_a_second_trainer_on_a_locked_run_folder_refuses_and_touches_nothing(tmp_path):
    game = get_game("connect2")
    first = TrainingRun(game, tmp_path / "run", progress=False)
    try:
        before = {p: p.stat().st_mtime_ns for p in (tmp_path / "run").rglob("*")}
        with pytest.raises(RunDirLocked) as info:
            TrainingRun(game, tmp_path / "run", progress=False)
        assert str(os.getpid()) in str(info.value) and "stop that training first" in str(info.value)
        assert {p: p.stat().st_mtime_ns for p in (tmp_path / "run").rglob("*")} == before
    finally:
        first.close()
    TrainingRun(game, tmp_path / "run", progress=False).close()  # free again once the first let go


def test_the_train_command_refuses_a_run_folder_another_process_trains(tmp_path):
    with RunDirLock(tmp_path / "run"):
        proc = subprocess.run([sys.executable, str(ROOT / "main.py"), "train", "--game", "connect2", "--run-dir",
                               str(tmp_path / "run"), "--generations", "1", "--quiet"],
                              cwd=ROOT, capture_output=True, text=True, timeout=WAIT_S)
    assert proc.returncode == 2, proc.stderr
    assert "is being trained by process" in proc.stderr and "Traceback" not in proc.stderr
    assert not (tmp_path / "run" / "state.json").exists()


def test_the_lock_goes_with_its_holder_however_it_ends(tmp_path):
    code = ("import sys, time; from engine.core.runlock import RunDirLock; "
            f"lock = RunDirLock({str(tmp_path / 'run')!r}); lock.acquire(); print('held', flush=True); time.sleep(600)")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdout=subprocess.PIPE, text=True,
                            env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        assert proc.stdout.readline().strip() == "held"
        assert not lock_is_free(tmp_path / "run")
        proc.kill()
        proc.wait(WAIT_S)
        assert lock_is_free(tmp_path / "run")
    finally:
        if proc.poll() is None:
            proc.kill()


def test_a_background_trainer_on_a_locked_folder_reports_it_in_the_interface_language(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from engine.training.trainer import BackgroundTrainer
    from gui.i18n import set_language
    from gui.training import translated
    with RunDirLock(tmp_path / "run"):
        trainer = BackgroundTrainer("connect2", workers=1, run_dir=tmp_path / "run")
        trainer.start()
        events = []
        assert wait_for(lambda: events.extend(trainer.poll()) or any(e["type"] == "error" for e in events))
        trainer.stop()
    error = next(e for e in events if e["type"] == "error")
    assert error.get("reason") == "run_locked" and str(tmp_path / "run") in error["message"]
    try:
        set_language("zh")
        assert "已有一个训练" in translated(error["message"])
        set_language("en")
        assert translated(error["message"]).startswith("Another training of this game is still running")
    finally:
        set_language("en")


def _running(pid: int) -> bool:
    return process_running(pid)


@pytest.mark.skipif(not hasattr(signal, "SIGKILL") or not Path("/proc/self/stat").exists(),
                    reason="kill -9 and /proc (Linux)")
def test_the_inner_trainer_stops_when_its_host_is_killed(tmp_path, monkeypatch):
    """The app's training host (gui.ai_worker.trainer_main) killed with -9: the trainer it
    started notices, stops at a safe point and lets the run folder go; the run resumes."""
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from engine.core.paths import user_data_dir
    from gui.ai_worker import trainer_main
    ctx = mp.get_context("spawn")
    commands, events = ctx.Queue(), ctx.Queue()
    host = ctx.Process(target=trainer_main, args=("connect2", commands, events, 1), daemon=False)
    host.start()
    run_dir = user_data_dir() / "runs" / "connect2"
    inner = None
    try:
        seen = []
        deadline = time.monotonic() + WAIT_S
        while time.monotonic() < deadline:  # until the trainer holds the folder and plays
            try:
                seen.append(events.get(timeout=1.0))
            except queue.Empty:
                pass
            assert not any(e.get("type") == "error" for e in seen), seen
            if any(e.get("type") in ("selfplay", "progress") for e in seen):
                break
        assert any(e.get("type") in ("selfplay", "progress") for e in seen), seen
        inner = int((run_dir / "trainer.lock").read_text().split()[0])
        assert inner != host.pid and _running(inner)
        os.kill(host.pid, signal.SIGKILL)
        host.join(WAIT_S)
        assert wait_for(lambda: not _running(inner)), "the orphaned trainer went on"
        assert lock_is_free(run_dir)
    finally:
        for q in (commands, events):
            q.cancel_join_thread()
            q.close()
        if host.is_alive():
            host.kill()
        if inner is not None and _running(inner):
            os.kill(inner, signal.SIGKILL)
    # nothing half-written: the run's files read back, and the run goes on from where it stopped
    state = json.loads((run_dir / "state.json").read_text())
    metrics = (run_dir / "metrics.jsonl")
    lines = metrics.read_text().splitlines() if metrics.exists() else []
    assert [json.loads(l)["generation"] for l in lines] == list(range(1, len(lines) + 1))
    assert len(lines) >= state["generation"]
    run = TrainingRun(get_game("connect2"), run_dir, progress=False)
    try:
        assert run.state["generation"] == state["generation"]
    finally:
        run.close()


def test_the_apps_train_controller_shows_a_locked_folder_as_a_translated_message(tmp_path, monkeypatch):
    """Start in the app while another process trains the game's run folder: an error in
    plain words, in the interface language, and the other run is left alone."""
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from engine.core.paths import user_data_dir
    from gui.i18n import set_language
    from gui.training import TrainController, translated
    run_dir = user_data_dir() / "runs" / "connect2"
    controller = TrainController()  # the real host and trainer
    with RunDirLock(run_dir):
        controller.start("connect2")
        try:
            assert wait_for(lambda: controller.poll() >= 0 and controller.status == "error"), controller.log
        finally:
            controller.close()
    assert not (run_dir / "state.json").exists()
    try:
        set_language("zh")
        assert "已有一个训练" in translated(controller.message)
    finally:
        set_language("en")
    assert translated(controller.message).startswith("Another training of this game is still running")
