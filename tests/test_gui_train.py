"""The Train scene: background training runs in its own process and reports progress; the
model choice is saved and handed to the AI."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import click, make_app, press, run_until


def test_training_starts_reports_progress_and_stops(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    try:
        app.open_train()
        app.scene.pick("connect4")
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert tr.running and tr.game_id == "connect4"
        assert run_until(app, lambda: len(tr.points) >= 2 and tr.selfplay, 30)
        assert tr.status == "running"
        assert tr.points[-1]["elo"] > tr.points[0]["elo"]
        assert tr.models and any("generation 2" in text for text, _, _ in app.toasts)
        app.go_home()  # training goes on while the person does something else
        app.step()
        assert tr.running
        app.open_train()
        press(app, pygame.K_SPACE)
        assert run_until(app, lambda: not tr.running, 20)
        assert tr.status == "idle"
    finally:
        app.shutdown()


def test_the_model_choice_is_saved_and_passed_to_the_ai(tmp_path, monkeypatch):
    from engine.core.paths import user_model_path
    from games import get_game
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        game = get_game("tictactoe")
        app.open_train()
        app.scene.pick("tictactoe")
        app.scene.choose_model("trained")  # nothing trained yet: refused with a message
        assert app.settings.model_choice(game.key) == "shipped" and app.toasts
        user_model_path(game.key).write_bytes(b"a model")
        app.step()
        button = next(b for b in app.scene.buttons if b.label == "Newest trained")
        click(app, button.rect.center)
        assert app.settings.model_choice(game.key) == "trained"
        assert app.model_path_for(game) == str(user_model_path(game.key))
        from gui.settings import Settings
        assert Settings().model_choice(game.key) == "trained"
    finally:
        app.shutdown()


def test_a_trainer_ended_by_the_stop_request_is_not_an_error():
    """Defect: stopping sometimes showed "the trainer process ended with code -15"."""
    from gui.training import TrainController
    tr = TrainController()
    tr.status = "stopping"
    tr._take({"type": "error", "message": "the trainer process ended with code -15"})
    assert tr.status == "stopping" and tr.message == ""
    tr.status = "running"
    tr._take({"type": "error", "message": "the trainer process ended with code 1"})
    assert tr.status == "error"


def test_the_trainers_messages_are_shown_in_the_interface_language():
    from gui import i18n
    from gui.training import translated
    i18n.set_language("zh")
    try:
        assert translated("generation 7 vs the model in use: 12-3-5") == "第 7 代对现用模型：12 胜 3 和 5 负"
        assert translated("error: the trainer process ended with code 2") == "训练进程已停止（2）"
        assert translated("something new") == "something new"   # unknown text is kept, not lost
    finally:
        i18n.set_language("en")


def test_the_charts_come_back_from_the_runs_metrics_after_a_restart(tmp_path, monkeypatch):
    import json
    from engine.core.paths import user_data_dir
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        run = user_data_dir() / "runs" / "connect4"
        run.mkdir(parents=True)
        lines = [{"generation": g, "games": 40 * g, "positions": 900 * g, "loss": 2.0 / g, "elo": 10.0 * g,
                  "wall_seconds": 60.0 * g} for g in (1, 2, 3)]
        (run / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines) + "{broken\n")
        app.open_train()
        app.scene.pick("connect4")
        app.step()
        assert [p["generation"] for p in app.trainer.points] == [1, 2, 3]
        assert app.trainer.latest()["elo"] == 30.0
    finally:
        app.shutdown()


def test_another_game_picked_does_not_show_the_last_games_log_or_error(tmp_path, monkeypatch):
    """Defect: after training one game, picking another showed the first game's log (its
    generations and matches) and its error ("Training stopped: …") as the new game's."""
    from test_gui_support import texts_drawn
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        app.open_train()
        app.scene.pick("tictactoe")
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert run_until(app, lambda: len(tr.points) >= 2 and tr.log, 30)
        press(app, pygame.K_SPACE)
        assert run_until(app, lambda: not tr.running, 20)
        tr.status, tr.message = "error", "the trainer process ended with code 1"   # as a failed run leaves it
        app.scene.pick("connect2")
        drawn = texts_drawn(app, monkeypatch)
        assert not tr.log and not any("generation" in text.lower() and "done" in text.lower() for text in drawn)
        assert not any(text.startswith("Training stopped") for text in drawn) and "Not training" in drawn
        app.scene.pick("tictactoe")   # the game's own error is not brought back either: it was seen
        assert tr.status == "idle"
    finally:
        app.shutdown()


def _damaged_app(tmp_path, monkeypatch, what, **kw):
    """An app whose tic-tac-toe run state ("run") or trained model ("model") is damaged, with
    its training started once and failed on it."""
    from engine.core.paths import user_data_dir, user_model_path
    from test_gui_support import DAMAGED
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, trainer="CheckingTrainer", **kw)
    if what == "run":
        run = user_data_dir() / "runs" / "tictactoe"
        run.mkdir(parents=True)
        (run / "state.json").write_bytes(DAMAGED)
        (run / "metrics.jsonl").write_text('{"generation": 1, "games": 40}\n')
    else:
        user_model_path("tictactoe").parent.mkdir(parents=True, exist_ok=True)
        user_model_path("tictactoe").write_bytes(DAMAGED)
        app.settings.set_model_choice("tictactoe", "trained")
    app.open_train()
    app.scene.pick("tictactoe")
    press(app, pygame.K_SPACE)
    assert run_until(app, lambda: app.trainer.status == "error", 30)
    return app


def test_a_damaged_run_folder_is_said_plainly_and_set_aside_after_asking(tmp_path, monkeypatch):
    """Defect: a damaged run folder showed "Training stopped: RunStateError: … choose another
    --run-dir" (an option the app does not have) and training failed on it every time."""
    from engine.core.paths import user_data_dir
    from gui import i18n
    from test_gui_support import DAMAGED, texts_drawn
    app = _damaged_app(tmp_path, monkeypatch, "run")
    runs = user_data_dir() / "runs"
    try:
        drawn = texts_drawn(app, monkeypatch)
        assert "The saved training run cannot be read: a file in it is damaged" in drawn
        assert not any("RunStateError" in s or "--run-dir" in s for s in drawn)
        assert any(b.label == "Set aside and start afresh" for b in app.scene.buttons)
        i18n.set_language("zh")
        drawn = texts_drawn(app, monkeypatch)
        assert "保存的训练进度无法读取：其中有文件已损坏" in drawn and "移到一旁并重新开始" in [b.label for b in app.scene.buttons]
        i18n.set_language("en")
        press(app, pygame.K_SPACE)   # starting again asks first: nothing moves without a yes
        assert app.overlay is not None and (runs / "tictactoe" / "state.json").read_bytes() == DAMAGED
        press(app, pygame.K_ESCAPE)
        assert app.overlay is None and not app.trainer.running and (runs / "tictactoe").is_dir()
        button = next(b for b in app.scene.buttons if b.label == "Set aside and start afresh")
        click(app, button.rect.center)
        press(app, pygame.K_RETURN)   # yes
        kept = [p for p in runs.iterdir() if p.name.startswith("tictactoe.bak-")]
        assert len(kept) == 1 and (kept[0] / "state.json").read_bytes() == DAMAGED   # moved, not deleted
        assert (kept[0] / "metrics.jsonl").exists()
        assert app.trainer.running and app.trainer.damage is None and app.trainer.points == []
        assert run_until(app, lambda: app.trainer.points, 30)   # training afresh
    finally:
        i18n.set_language("en")
        app.shutdown()


def test_a_damaged_trained_model_is_set_aside_and_the_shipped_model_plays(tmp_path, monkeypatch):
    from engine.core.paths import user_model_path
    from gui import i18n
    from games import get_game
    from test_gui_support import DAMAGED, texts_drawn
    app = _damaged_app(tmp_path, monkeypatch, "model", size=(1024, 640))
    try:
        i18n.set_language("zh")
        assert "你训练的模型无法读取：文件已损坏" in texts_drawn(app, monkeypatch)
        i18n.set_language("en")
        assert "Your trained model cannot be read: its file is damaged" in texts_drawn(app, monkeypatch)
        app.scene.offer_set_aside()
        press(app, pygame.K_RETURN)
        model = user_model_path("tictactoe")
        kept = list(model.parent.glob("tictactoe.pt.bak-*"))
        assert not model.exists() and len(kept) == 1 and kept[0].read_bytes() == DAMAGED
        assert app.settings.model_choice("tictactoe") == "shipped" and app.model_path_for(get_game("tictactoe")) is None
        assert app.trainer.running
    finally:
        i18n.set_language("en")
        app.shutdown()


def test_a_game_against_a_damaged_trained_model_offers_the_shipped_model(tmp_path, monkeypatch):
    """Defect: it showed "The AI ran into a problem" and the file's path, and Retry failed again."""
    from engine.core.paths import user_model_path
    from gui import i18n
    from test_gui_support import DAMAGED, texts_drawn
    app = make_app(tmp_path, monkeypatch, player="make_model_checking_player")
    try:
        user_model_path("tictactoe").parent.mkdir(parents=True, exist_ok=True)
        user_model_path("tictactoe").write_bytes(DAMAGED)
        app.settings.set_model_choice("tictactoe", "trained")
        app.start_play("tictactoe", side="second", level="medium")
        c = app.scene.c
        assert run_until(app, lambda: c.error)
        drawn = texts_drawn(app, monkeypatch)
        assert "Your trained model cannot be read" in drawn and "The AI ran into a problem" not in drawn
        assert not any(str(user_model_path("tictactoe")) in s for s in drawn)
        i18n.set_language("zh")
        drawn = texts_drawn(app, monkeypatch)
        assert "你训练的模型无法读取" in drawn and "改用自带模型" in [b.label for b in app.scene.buttons]
        i18n.set_language("en")
        app.step()
        button = next(b for b in app.scene.buttons if b.label == "Use shipped model")
        click(app, button.rect.center)
        assert app.settings.model_choice("tictactoe") == "shipped"
        assert run_until(app, lambda: len(c.history) > 1 and not c.error)   # the shipped model moved
        assert user_model_path("tictactoe").read_bytes() == DAMAGED   # the file is kept
    finally:
        i18n.set_language("en")
        app.shutdown()


# --- training's CPU cores ------------------------------------------------------------------

def test_training_uses_half_the_cores_by_default_and_a_chosen_count_within_the_machine():
    """Defect: the app's training always ran one self-play worker, whatever the machine."""
    from gui.training import MAX_AUTO_WORKERS, default_workers, workers_for
    assert [default_workers(n) for n in (1, 2, 3, 4, 8, 16, 64)] == [1, 1, 1, 2, 4, 8, MAX_AUTO_WORKERS]
    assert all(default_workers(n) < n for n in range(2, 65))     # a core is always left for the window
    assert workers_for(0, cores=8) == 4 and workers_for(3, cores=8) == 3
    assert workers_for(64, cores=8) == 8                          # a settings file from a larger machine
    assert workers_for(-2, cores=8) == 1
    for bad in (True, "4", 2.5, None):
        assert workers_for(bad, cores=8) == 4, bad


def test_the_train_screen_says_how_many_cores_training_uses_and_starts_with_them(tmp_path, monkeypatch):
    from engine.core.parallel import usable_cores
    from gui import i18n
    from gui.training import workers_for
    from test_gui_support import texts_drawn
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        total = usable_cores()
        app.settings.set("train_workers", 64)     # more than this machine has: all of its cores
        app.open_train()
        assert f"Will use {total} of {total} CPU cores (see Settings)" in texts_drawn(app, monkeypatch)
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert tr.running and tr.workers == total
        assert f"Using {total} of {total} CPU cores" in texts_drawn(app, monkeypatch)
        app.settings.set("train_workers", 1)      # applies from the next start: the run keeps its workers
        drawn = texts_drawn(app, monkeypatch)
        if total > 1:
            assert f"Using {total} of {total} CPU cores; 1 from the next start" in drawn and tr.workers == total
        i18n.set_language("zh")
        assert any(s.startswith(f"正在使用 {total} 个 CPU（共 {total} 个）") for s in texts_drawn(app, monkeypatch))
        i18n.set_language("en")
        press(app, pygame.K_SPACE)
        assert run_until(app, lambda: not tr.running, 20)
        press(app, pygame.K_SPACE)
        assert tr.running and tr.workers == workers_for(1) == 1
    finally:
        i18n.set_language("en")
        app.shutdown()


def test_training_runs_below_the_window_where_there_is_no_nice(monkeypatch):
    """Defect: the training process lowered its priority with os.nice only, which Windows does
    not have: there the trainer and its self-play workers ran at the window's priority."""
    import ctypes
    import types
    from engine.core import processes
    calls = []

    class Kernel32:
        def GetCurrentProcess(self):
            return -1

        def SetPriorityClass(self, handle, priority):
            calls.append((handle, priority))
            return 1
    monkeypatch.delattr(os, "nice")
    monkeypatch.setattr(ctypes, "windll", types.SimpleNamespace(kernel32=Kernel32()), raising=False)
    assert processes.lower_priority(8) and calls == [(-1, processes.IDLE_PRIORITY_CLASS)]
    calls.clear()   # the AI process, 4 steps: above training, below the window
    assert processes.lower_priority(4) and calls == [(-1, processes.BELOW_NORMAL_PRIORITY_CLASS)]
    monkeypatch.delattr(ctypes, "windll")
    assert not processes.lower_priority(8)   # no way to lower it: the process goes on as it is


def _stat(pid: int) -> list[str]:
    """The fields of /proc/<pid>/stat after the command's name (state, parent, ...; nice is
    the 17th); [] for a process that is gone."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return []


def _running(pid: int) -> bool:
    return _stat(pid)[:1] not in ([], ["Z"], ["X"])


def _children(pid: int) -> set[int]:
    """The processes ``pid`` started, and theirs, still running."""
    stats = {int(p): _stat(int(p)) for p in os.listdir("/proc") if p.isdigit()}
    parents = {p: int(st[1]) for p, st in stats.items() if st and st[0] not in ("Z", "X")}
    found, todo = set(), [pid]
    while todo:
        p = todo.pop()
        kids = {c for c, parent in parents.items() if parent == p}
        found |= kids
        todo += kids
    return found


def _training_processes(tr) -> tuple[int, set[int], set[int]]:
    """The app's training host, the trainer it started and that trainer's self-play workers."""
    host = tr._process.pid
    parent = {p: int((_stat(p) or [0, 0])[1]) for p in _children(host)}
    inner = {p for p, q in parent.items() if q == host}
    pool = {p for p, q in parent.items() if q in inner}
    return host, inner, pool


def _still_running(pids, seconds: float = 5.0) -> set[int]:
    """Those of ``pids`` still running after up to ``seconds`` (the last ones end a moment later)."""
    import time
    end = time.monotonic() + seconds
    while {p for p in pids if _running(p)} and time.monotonic() < end:
        time.sleep(0.1)
    return {p for p in pids if _running(p)}


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="reads processes from /proc (Linux)")
def test_training_on_two_cores_stops_and_closes_without_leaving_processes_or_progress(tmp_path, monkeypatch):
    """The real trainer on tic-tac-toe (tiny settings) with two self-play workers, below the
    window's priority: stopped from the Train screen after a generation, nothing of it runs on
    and the generation is kept; started again it goes on from there, and closing the app while
    its workers play ends them all too."""
    import json
    from engine.core.paths import user_data_dir
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "torch")   # the workers' network untimed against ONNX Runtime
    app = make_app(tmp_path, monkeypatch, ai_enabled=False, trainer="make_tiny_trainer")
    me = os.getpid()
    try:
        app.settings.set("train_workers", 2)
        app.open_train()
        app.scene.pick("tictactoe")
        press(app, pygame.K_SPACE)
        tr = app.trainer
        assert tr.workers == 2
        assert run_until(app, lambda: tr.points or tr.status == "error"), tr.log
        assert tr.status == "running", tr.message
        host, inner, pool = _training_processes(tr)
        assert len(inner) == 1 and len(pool) == 2, (inner, pool)
        nice = {p: int(_stat(p)[16]) for p in pool | inner | {host, me}}
        assert all(nice[p] > nice[me] for p in pool | inner | {host}), nice   # below the window
        press(app, pygame.K_SPACE)   # Stop
        assert run_until(app, lambda: not tr.running, 30) and tr.status == "idle", tr.message
        assert not _still_running(pool | inner | {host})
        run = user_data_dir() / "runs" / "tictactoe"
        done = json.loads((run / "state.json").read_text())["generation"]
        assert done >= 1 and (run / "checkpoints" / f"gen_{done:06d}.pt").exists()

        press(app, pygame.K_SPACE)   # again: from the kept generation on
        assert run_until(app, lambda: any(f"from generation {done}" in line for line in tr.log)), tr.log
        assert run_until(app, lambda: len(_training_processes(tr)[2]) == 2)
        host, inner, pool = _training_processes(tr)
    finally:
        app.shutdown()   # closing the app while the workers play
    assert not _still_running(pool | inner | {host})
