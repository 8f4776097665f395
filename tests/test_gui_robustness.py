"""The app never crashes and never freezes: random input in every scene, frame times while
the AI thinks, start-up time, and command-line errors."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import importlib.util
import random
import subprocess
import sys
import time
from pathlib import Path

import pygame
import pytest

from games import GAME_IDS
from test_gui_support import click_target, make_app, run_until

ROOT = Path(__file__).resolve().parent.parent
HAVE_ENGINE = importlib.util.find_spec("engine.play.players") is not None
FUZZ_SECONDS = float(os.environ.get("ZEROBOARD_FUZZ_SECONDS", "25"))
#: the random input's seed (another one explores other input; the suite keeps this one)
FUZZ_SEED = int(os.environ.get("ZEROBOARD_FUZZ_SEED", "20261121"))

KEYS = [pygame.K_ESCAPE, pygame.K_RETURN, pygame.K_SPACE, pygame.K_TAB, pygame.K_LEFT, pygame.K_RIGHT,
        pygame.K_UP, pygame.K_DOWN, pygame.K_F11, pygame.K_PLUS, pygame.K_MINUS, pygame.K_PERIOD,
        pygame.K_BACKSPACE, pygame.K_DELETE] + list(range(pygame.K_a, pygame.K_z + 1)) + \
       list(range(pygame.K_0, pygame.K_9 + 1))
MODS = [0, 0, 0, pygame.KMOD_CTRL, pygame.KMOD_SHIFT, pygame.KMOD_ALT, pygame.KMOD_CTRL | pygame.KMOD_SHIFT]


def random_event(rng, size):
    w, h = size
    kind = rng.random()
    pos = (rng.randint(-20, w + 20), rng.randint(-20, h + 20))
    if kind < 0.35:
        return pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=pos, button=rng.choice([1, 1, 1, 1, 2, 3, 4, 5]))
    if kind < 0.45:
        return pygame.event.Event(pygame.MOUSEBUTTONUP, pos=pos, button=1)
    if kind < 0.65:
        return pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))
    if kind < 0.72:
        return pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-3, -1, 1, 3]), flipped=False)
    if kind < 0.98:
        return pygame.event.Event(pygame.KEYDOWN, key=rng.choice(KEYS), mod=rng.choice(MODS), unicode="", scancode=0)
    return pygame.event.Event(pygame.VIDEORESIZE, size=(rng.randint(200, 2200), rng.randint(150, 1400)),
                              w=0, h=0)


def test_random_clicks_keys_and_resizes_in_every_scene_never_raise(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    app.settings.set("level", "beginner")
    app.settings.set("demo_levels", ["beginner", "easy"])
    rng = random.Random(FUZZ_SEED)
    openers = [app.go_home, app.open_settings, app.open_train,
               lambda: app.open_setup(rng.choice(GAME_IDS), rng.choice(["play", "demo"])),
               lambda: app.start_play(rng.choice(GAME_IDS), rng.choice(["first", "second", "random"]), "beginner"),
               lambda: app.start_demo(rng.choice(GAME_IDS), ("beginner", "beginner"))]
    events = frames = 0
    seen = set()
    deadline = time.monotonic() + FUZZ_SECONDS
    try:
        while time.monotonic() < deadline:
            if frames % 40 == 0:
                rng.choice(openers)()
            batch = [random_event(rng, app.screen.get_size()) for _ in range(rng.randint(5, 20))]
            app.step(batch)
            events += len(batch)
            frames += 1
            seen.add(type(app.scene).__name__)
    finally:
        app.shutdown()
    print(f"\nfuzz: {events} events in {frames} frames over {FUZZ_SECONDS:.0f} s, seed {FUZZ_SEED}; scenes: {sorted(seen)}")
    assert events > 10000
    assert {"HomeScene", "SetupScene", "PlayScene", "DemoScene", "TrainScene", "SettingsScene"} <= seen


def test_frame_times_stay_smooth_while_the_ai_thinks(tmp_path, monkeypatch):
    """Measured and printed; only a gross stall fails the test (the machine is shared)."""
    app = make_app(tmp_path, monkeypatch)
    if HAVE_ENGINE:
        app.ai.factory_spec = "engine.play.players:make_player"
        level = "strong"
    else:
        level = "max"  # the fake player burns a CPU until stopped
    app.start_play("gomoku", "second", level)
    c = app.scene.c
    try:
        assert run_until(app, lambda: app.ai.status == "ready", 60)
        thinking_frames = []
        rng = random.Random(1)
        end = time.monotonic() + 6.0
        app.clock.tick()  # the first tick would count the wait above as one long frame
        while time.monotonic() < end:
            dt = app.clock.tick(60)
            pos = (rng.randint(0, 1279), rng.randint(0, 799))
            app.step([pygame.event.Event(pygame.MOUSEMOTION, pos=pos, rel=(0, 0), buttons=(0, 0, 0))], dt / 1000)
            if c.ai_thinking:
                thinking_frames.append(dt)
            elif c.human_to_move:
                click_target(app, divmod(rng.choice(c.state.legal_actions()), c.game.size))
    finally:
        app.shutdown()
    assert len(thinking_frames) > 30, "the AI was never seen thinking"
    v = sorted(thinking_frames)
    p95 = v[int(0.95 * (len(v) - 1))]
    work = sorted(app.work_times)
    print(f"\nframe interval while the AI thinks ({'engine' if HAVE_ENGINE else 'fake'} player, {len(v)} frames): "
          f"p50 {v[len(v) // 2]:.1f} ms, p95 {p95:.1f} ms, max {v[-1]:.1f} ms; "
          f"frame work p95 {work[int(0.95 * (len(work) - 1))]:.1f} ms")
    assert p95 < 250


def test_the_first_frame_appears_quickly_without_torch(tmp_path):
    """Launch `python main.py` (dummy video driver) and time the first frame; the window's
    process must not have imported torch or the engine's players."""
    env = dict(os.environ, SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", ZEROBOARD_HOME=str(tmp_path),
               ZEROBOARD_STARTUP_TRACE=str(tmp_path / "first-frame"))
    start = time.time()
    proc = subprocess.Popen([sys.executable, "main.py"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        trace = tmp_path / "first-frame"
        deadline = time.monotonic() + 30
        while not (trace.exists() and trace.read_text().strip()) and time.monotonic() < deadline:
            assert proc.poll() is None, proc.stderr.read().decode()
            time.sleep(0.02)
        first = float(trace.read_text()) - start
    finally:
        proc.terminate()  # the app closes its window and its AI process on SIGTERM
        proc.wait(10)
    print(f"\nlaunch to first frame: {first:.2f} s")
    assert first < 5.0
    probe = ("import sys, os; from gui.app import App; app = App((800, 560), headless=True, ai_enabled=False); "
             "app.step(); app.start_play('xiangqi', 'first', 'strong'); app.step(); "
             "print('torch' in sys.modules, 'engine.play.players' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert out.stdout.split()[-2:] == ["False", "False"], out.stdout + out.stderr


@pytest.mark.parametrize("command, args", [
    ("play", ["--game", "chess"]),
    ("play", ["--game", "connect4", "--side", "middle"]),
    ("play", ["--game", "connect4", "--level", "grandmaster"]),
    ("play", ["--game", "othello", "--size", "7"]),
    ("demo", ["--game", "gomoku", "--first-level", "silly"]),
    ("demo", []),
    ("", ["--no-such-option"]),
])
def test_bad_command_line_arguments_exit_with_2_and_a_message(command, args, capsys):
    from gui import app
    func = {"play": app.play_main, "demo": app.demo_main, "": app.app_main}[command]
    assert func(args) == 2
    err = capsys.readouterr().err
    assert "usage" in err or "cannot open" in err
