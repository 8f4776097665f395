"""Test doubles for the GUI tests: players and a trainer that the AI worker loads by name
("test_gui_fakes:make_player"), so the worker's process plumbing is tested without the
engine's search. No tests live here."""
from __future__ import annotations

import os
import time
from dataclasses import dataclass, field

import pytest


@dataclass
class Stat:
    action: int
    visits: int
    q: float
    prior: float


@dataclass
class Result:
    action: int
    value: float
    top: list = field(default_factory=list)
    sims: int = 0
    seconds: float = 0.0
    proven: float | None = None


class FakePlayer:
    """Plays the first legal move. "beginner" answers at once; "easy" after 0.3 s; "medium" and
    the study judge ("analysis") after 0.6 s; "max" keeps a CPU busy until told to stop (for
    cancel, close and frame-time tests)."""

    def __init__(self, game, level="strong", model_path=None):
        self.game = game
        self.level = level
        self.resets = 0

    def reset(self):
        self.resets += 1

    def choose(self, state, on_progress=None, should_stop=None):
        legal = state.legal_actions()
        top = [Stat(a, 100 - i, 0.1, 1 / len(legal)) for i, a in enumerate(legal[:5])]
        seconds = {"beginner": 0.0, "easy": 0.3, "medium": 0.6, "analysis": 0.6}.get(self.level, 3600.0)
        start = time.monotonic()
        n = 0
        while time.monotonic() - start < seconds:
            for _ in range(20000):  # burn CPU like a real search
                n += 1
            if on_progress is not None:
                on_progress(min(1.0, (time.monotonic() - start) / max(seconds, 1e-9)), Result(legal[0], 0.2, top, n))
            if should_stop is not None and should_stop():
                break
        return Result(legal[0], 0.2, top, n, time.monotonic() - start)


def make_player(game, level="strong", model_path=None):
    return FakePlayer(game, level, model_path)


def make_proving_player(game, level="strong", model_path=None):
    """Says it has proved the position won for the side to move."""
    class Proving(FakePlayer):
        def choose(self, state, on_progress=None, should_stop=None):
            r = super().choose(state, on_progress, should_stop)
            return Result(r.action, 1.0, r.top, r.sims, r.seconds, proven=1.0)
    return Proving(game, level, model_path)


def make_failing_player(game, level="strong", model_path=None):
    class Failing(FakePlayer):
        def choose(self, state, on_progress=None, should_stop=None):
            raise RuntimeError("the network file is damaged")
    return Failing(game, level, model_path)


def make_dying_player(game, level="strong", model_path=None):
    class Dying(FakePlayer):
        def choose(self, state, on_progress=None, should_stop=None):
            os._exit(3)  # the process disappears, as after a crash in native code
    return Dying(game, level, model_path)


def make_player_dying_on_max(game, level="strong", model_path=None):
    """Answers as FakePlayer does, except that a "max" search kills the process."""
    class DyingOnMax(FakePlayer):
        def choose(self, state, on_progress=None, should_stop=None):
            if self.level == "max":
                os._exit(3)
            return super().choose(state, on_progress, should_stop)
    return DyingOnMax(game, level, model_path)


class FakeTrainer:
    """BackgroundTrainer's interface: emits a progress event per poll."""

    def __init__(self, game_id, workers=1):
        self.game_id = game_id
        self.is_running = False
        self.n = 0

    def start(self):
        self.is_running = True

    def stop(self):
        self.is_running = False

    def poll(self):
        if not self.is_running:
            return []
        self.n += 1
        if self.n % 4:
            return [{"type": "selfplay", "generation": self.n // 4 + 1, "games": self.n % 4, "of": 4}]
        return [{"type": "progress", "games": self.n, "generation": self.n // 4, "positions": 40 * self.n,
                 "loss": 2.0 / (1 + self.n), "elo": 10.0 * self.n, "wall_seconds": 0.25 * self.n},
                {"type": "log", "message": f"generation {self.n // 4} done"}] + (
                    [{"type": "model", "path": "/nonexistent/model.pt", "generation": self.n // 4}] if self.n == 8 else [])


#: what the tests write for a damaged run state or trained model in the user data folder
DAMAGED = b"{damaged"


class CheckingTrainer(FakeTrainer):
    """FakeTrainer that fails as the real one does on a damaged run state (the user data
    folder's runs/<game>/state.json) or trained model (models/<game>.pt): DAMAGED in them."""

    def start(self):
        from engine.core.paths import user_data_dir, user_model_path
        from games import get_game
        key = get_game(self.game_id).key
        state, model = user_data_dir() / "runs" / key / "state.json", user_model_path(key)
        if state.exists() and state.read_bytes() == DAMAGED:
            self.failure = {"type": "error", "reason": "run_damaged",
                            "message": f"RunStateError: {state} is not valid JSON; the run cannot be resumed from "
                                       "it (move the file away to look at it, or choose another --run-dir)"}
        elif model.exists() and model.read_bytes() == DAMAGED:
            self.failure = {"type": "error", "reason": "model_damaged",
                            "message": f"CheckpointError: {model}: not a ZeroBoard model file (truncated, corrupt "
                                       "or another kind of file: File is not a zip file)"}
        else:
            self.failure = None
        super().start()

    def poll(self):
        if self.failure and self.is_running:
            self.is_running = False
            return [self.failure]
        return super().poll()


#: training settings over tic-tac-toe's that make a generation of the real trainer short once its
#: processes have started: a few games of few visits, two learning steps, no match
TINY_TRAINING = """
[selfplay]
sims = 4
games_per_generation = 4
parallel_games = 2
[train]
batch_size = 16
steps_per_generation = 2
min_buffer = 0
arena_games = 0
baseline_games = 0
"""


def make_tiny_trainer(game_id, workers=1):
    """The real background trainer (`engine.training.trainer.BackgroundTrainer`: its process,
    self-play pool, checkpoints and stop) with `TINY_TRAINING` over the game's settings."""
    from engine.core.paths import user_data_dir
    from engine.training.trainer import BackgroundTrainer
    trainer = BackgroundTrainer(game_id, workers=workers)
    trainer.config_path = user_data_dir() / "tiny-training.toml"
    trainer.config_path.write_text(TINY_TRAINING, encoding="utf-8")
    return trainer


def make_model_checking_player(game, level="strong", model_path=None):
    """make_player, refusing a trained model holding DAMAGED as the real loader does."""
    if model_path and open(model_path, "rb").read() == DAMAGED:
        from engine.core.checkpoint import CheckpointError
        raise CheckpointError(f"{model_path}: not a ZeroBoard model file (truncated, corrupt or another kind of "
                              "file: File is not a zip file)")
    return make_player(game, level, model_path)


# --- helpers for driving the app headless ------------------------------------------------

SUPPORT = "test_gui_support"


def make_app(tmp_path, monkeypatch, player="make_player", ai_enabled=True, size=(1280, 800), trainer="FakeTrainer"):
    """A headless App with its own ZEROBOARD_HOME and the fake AI and trainer."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from gui.app import App
    return App(size, headless=True, ai_enabled=ai_enabled, ai_factory=f"{SUPPORT}:{player}",
               trainer_factory=f"{SUPPORT}:{trainer}", strict=True)



def texts_drawn(app, monkeypatch, mouse=None) -> list[str]:
    """Every text one frame of ``app`` draws (with the mouse at ``mouse`` when given)."""
    from gui import theme
    drawn = []
    real = theme.text

    def spy(surface, text, *args, **kwargs):
        drawn.append(text)
        return real(surface, text, *args, **kwargs)
    monkeypatch.setattr(theme, "text", spy)
    if mouse is not None:
        app._mouse = mouse
    app.step()
    monkeypatch.setattr(theme, "text", real)
    return drawn


@pytest.fixture
def app_factory(tmp_path, monkeypatch):
    """make(**make_app's options) -> an app, any number of them, all shut down afterwards."""
    apps = []

    def make(**kw):
        app = make_app(tmp_path, monkeypatch, **kw)
        apps.append(app)
        return app

    yield make
    for app in apps:
        app.shutdown()


@pytest.fixture
def app(tmp_path, monkeypatch):
    """The app without its AI process (a test module that imports this name gets the fixture)."""
    a = make_app(tmp_path, monkeypatch, ai_enabled=False)
    yield a
    a.shutdown()


def click(app, pos, button=1):
    import pygame
    pos = (int(pos[0]), int(pos[1]))
    app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0)),
              pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=button),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=button)])


def press(app, key, mod=0):
    import pygame
    app.step([pygame.event.Event(pygame.KEYDOWN, key=key, mod=mod, unicode="", scancode=0)])


#: how long a test waits for another process (the AI worker, a trainer) to answer: it returns as
#: soon as the answer is there, so the limit only matters when something is broken; on a
#: busy 2-core machine starting the AI process alone took 8-17 s
PROCESS_WAIT_S = 120.0


def run_until(app, condition, timeout=PROCESS_WAIT_S):
    """Step frames (about 120 per second) until ``condition()``; False on timeout."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        app.step()
        if condition():
            return True
        time.sleep(1 / 120)
    return False


def click_target(app, target):
    """Click the board where the renderer draws ``target`` (a cell, point or column)."""
    if not hasattr(app.scene.view.renderer, "grid"):
        app.step()  # the board is laid out when it is first drawn
    click(app, app.scene.view.renderer.target_center(target))


def button_named(app, label):
    for b in app.scene.buttons:
        if b.label == label:
            return b
    raise AssertionError(f"no button {label!r} in {[b.label for b in app.scene.buttons]}")


def ai_host(pid_file: str) -> None:
    """A stand-in for the window's process (run in a process of its own): starts the AI process,
    asks it for a search that runs until stopped, writes the AI process's pid to ``pid_file`` and
    waits to be killed."""
    from games import get_game
    from gui.ai_client import AIClient
    ai = AIClient("test_gui_support:make_player")
    ai.start()
    replies = []
    ai.search(get_game("tictactoe").initial_state(), "max", None, "s", replies.append)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not any(r.get("type") == "progress" for r in replies):
        ai.poll()
        time.sleep(0.02)
    from pathlib import Path
    Path(pid_file).write_text(str(ai._process.pid))
    time.sleep(600)
