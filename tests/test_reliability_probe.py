"""The standing probe: every path the program reads from a person's folders (the code's own
list, `engine.core.safefile.USER_FILES`) gets a pipe, a huge sparse file, invalid bytes, deep
nesting and a symlink loop; then the app starts headless and walks every scene, and
``analyse``, ``uci`` and ``train --resume`` run on a tiny tictactoe run. Nothing may hang
(every step runs under an alarm), crash, or lose or overwrite a file that was planted: each
one must still be where it was or set aside beside it (``NAME.bak-<time>``).

What is probed and the limits per kind: docs/reliability.md.
"""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import contextlib
import shutil
import signal
import stat
from pathlib import Path

import pytest

from engine.core.safefile import APPENDED_FILES, LIMITS, USER_FILES, user_path

VARIANTS = ("fifo", "sparse", "bad_bytes", "deep", "loop")
GAME = "tictactoe"
#: the values the registry's patterns are filled with: the probed game, the generation the
#: tiny run's resume reads, a record name
FIELDS = {"game": GAME, "n": 1, "file": "probe.txt"}
#: what one step may take before it counts as a hang (seconds; the slowest, the resumed run's
#: generation, takes about one)
STEP_LIMIT = 60
#: a run of a few seconds; self-play in float32 torch, so that no runtime is timed (``analyse``
#: reads the runtime cache)
TINY_RUN = """[net]
blocks = 1
channels = 8
value_hidden = 8
[selfplay]
sims = 2
games_per_generation = 2
parallel_games = 2
leaf_batch = 1
precision = "fp32"
[train]
batch_size = 8
steps_per_generation = 1
min_buffer = 1
arena_games = 0
baseline_games = 0
"""


class Hang(BaseException):
    """A step ran past its limit (a BaseException, so that no ``except Exception`` swallows it)."""


@contextlib.contextmanager
def no_hang(what: str, seconds: int = STEP_LIMIT):
    """Fail (instead of waiting for ever) when the block is still running after ``seconds``: the
    alarm interrupts even an open() blocked on a pipe."""
    def ring(signum, frame):
        raise Hang(f"{what}: still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, ring)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def plant(path: Path, variant: str, kind: str) -> tuple:
    """Put a hostile ``variant`` at ``path`` (replacing what is there); its fingerprint."""
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.is_symlink() or path.exists():
        path.unlink()
    if variant == "fifo":
        os.mkfifo(path)
    elif variant == "sparse":      # larger than its kind allows and than memory: no blocks on disk
        with open(path, "wb") as f:
            f.truncate(LIMITS[kind] + (4 << 30))   # a log: the app's appends must not write 4 GB in
    elif variant == "bad_bytes":
        path.write_bytes(b'{"version": 1, "\xff\xfe\xc0\x80": "\xed\xa0\x80"}\n' * 3)
    elif variant == "deep":
        path.write_bytes(b'{"a": ' * 50_000 + b"1" + b"}" * 50_000 + b"\n")
    elif variant == "loop":
        path.symlink_to(path.name)
    return fingerprint(path)


def fingerprint(path: Path) -> tuple | None:
    """What is at ``path`` without following a link or reading a huge file."""
    try:
        st = os.lstat(path)
    except OSError:
        return None
    if stat.S_ISLNK(st.st_mode):
        return ("link", os.readlink(path))
    if stat.S_ISFIFO(st.st_mode):
        return ("fifo",)
    if st.st_size > (64 << 20):
        return ("size", st.st_size)
    return ("bytes", path.read_bytes())


def still_kept(path: Path, planted: tuple, kind: str = "") -> bool:
    """The planted file is at ``path`` or was set aside beside it; a log may also have been
    appended to, or kept as ``NAME.1`` when it was too large (the log's own rotation)."""
    places = [path, *path.parent.glob(path.name + ".bak-*")] if path.parent.is_dir() else [path]
    if kind == "log":
        places.append(path.with_name(path.name + ".1"))
    for p in places:
        now = fingerprint(p)
        if now == planted:
            return True
        if kind == "log" and now and planted[0] in ("size", "bytes") and now[0] == planted[0]:
            if (now[1] >= planted[1]) if now[0] == "size" else now[1].startswith(planted[1]):
                return True
    return False


def probe_paths(home: Path, run_dir: Path, roots=("config", "data", "cache", "run", "log"), skip=()) -> list:
    """(path, kind) of every user file in the registry (read or appended to): the user folders
    under ``home``, the app's run folder (data/runs/<game>) and the command line's ``run_dir``."""
    out = []
    for f in USER_FILES + APPENDED_FILES:
        if f.root not in roots or f.name in skip:
            continue
        if f.root == "run":
            for base in (home / "data" / "runs" / GAME, run_dir):
                out.append((user_path(f.name, base, **FIELDS), f.kind))
        else:
            out.append((user_path(f.name, home / f.root, **FIELDS), f.kind))
    return out


@pytest.fixture(scope="module")
def tiny_run(tmp_path_factory):
    """A tictactoe run one generation old (the resumed run plays the next), made once."""
    from engine.training.train import main as train_main
    base = tmp_path_factory.mktemp("probe-base")
    config = base / "tiny.toml"
    config.write_text(TINY_RUN)
    run_dir = base / "run"
    with no_hang("creating the tiny run", 300):
        assert train_main(["--game", GAME, "--run-dir", str(run_dir), "--generations", "1", "--workers", "1",
                           "--quiet", "--config", str(config)]) == 0
    return run_dir


def walk_the_app():
    """Start the app headless and visit every scene (the Load dialog on the saved-games folder,
    the autosave offered on the home screen, the Train screen's history) for the probed game."""
    from gui.app import App
    from gui.scenes.loaddialog import LoadDialog
    app = App((1280, 800), headless=True, ai_enabled=False, strict=True)
    try:
        for _ in range(4):
            app.step(())
        app.open_settings()
        app.step(())
        for mode in ("play", "demo"):
            app.open_setup(GAME, mode)
            app.step(())
        app.start_play(GAME, "first", "beginner")
        app.step(())
        app.scene.dialog = LoadDialog(app, on_pick=lambda p: None, on_close=lambda: None)
        app.step(())
        app.scene.dialog = None
        app.start_demo(GAME, ("beginner", "beginner"))
        app.step(())
        app.open_train()
        app.scene.game_id = GAME
        app.step(())
        app.go_home()
        app.step(())
        app._report(RuntimeError("a probe"))   # what an unexpected error writes to the logs
        from engine.core.logsetup import log
        log("a probe")
    finally:
        app.shutdown()


def run_the_engines(capsys):
    """``analyse`` and ``uci`` with the shipped model (the runtime cache damaged), and with the
    person's trained model (damaged): answers, or a plain message; never a hang or a traceback."""
    from engine.commands.cli import analyse_main
    from engine.core.paths import user_model_path
    from engine.protocols.uci import UCIEngine
    from games import get_game
    assert analyse_main(["--game", GAME, "--sims", "4"]) == 0
    assert analyse_main(["--game", GAME, "--sims", "4", "--model", str(user_model_path(GAME))]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and f"{user_model_path(GAME)}: " in err, err
    engine = UCIEngine(get_game(GAME), level="beginner")
    assert engine.handle_line("go nodes 8")[-1].startswith("bestmove ")
    engine = UCIEngine(get_game(GAME), model_path=str(user_model_path(GAME)), level="beginner")
    replies = engine.handle_line("go nodes 8")
    assert any("cannot load model" in r for r in replies) and replies[-1].startswith("bestmove ")


def resume(run_dir: Path) -> int:
    from engine.training.train import main as train_main
    return train_main(["--game", GAME, "--run-dir", str(run_dir), "--generations", "1", "--workers", "1", "--quiet",
                       "--resume"])


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_user_file_survives_a_hostile_twin(variant, tiny_run, tmp_path, monkeypatch, capsys):
    from engine.core import logsetup
    home = tmp_path / "home"
    monkeypatch.setenv("ZEROBOARD_HOME", str(home))
    monkeypatch.setattr(logsetup, "_log_file", None)   # opened afresh, in this home
    run_dir = tmp_path / "run"
    shutil.copytree(tiny_run, run_dir, symlinks=True)
    refused = [f.name for f in USER_FILES if f.root == "run" and f.on_damage == "refused"]

    # everything at once: the app, the engines, and a resume that must refuse with a plain message
    kinds = dict(probe_paths(home, run_dir))
    planted = {p: plant(p, variant, kind) for p, kind in kinds.items()}
    assert len(planted) > len(USER_FILES + APPENDED_FILES)
    with no_hang(f"the app with {variant} files"):
        walk_the_app()
    with no_hang(f"analyse and uci with {variant} files"):
        run_the_engines(capsys)
    with no_hang(f"train --resume with {variant} files"):
        assert resume(run_dir) == 2
    err = capsys.readouterr().err
    assert "error:" in err and "Traceback" not in err
    lost = [str(p) for p, fp in planted.items() if not still_kept(p, fp, kinds[p])]
    assert not lost, f"{variant}: lost or overwritten: {lost}"

    # each file a run cannot go on without, alone: a plain refusal, the file kept
    for name in refused:
        fresh = tmp_path / f"run-{name.replace(' ', '-')}"
        shutil.copytree(tiny_run, fresh, symlinks=True)
        p = user_path(name, fresh, **FIELDS)
        fp = plant(p, variant, next(f.kind for f in USER_FILES if f.name == name))
        with no_hang(f"train --resume with a {variant} {name}"):
            assert resume(fresh) == 2, name
        err = capsys.readouterr().err
        assert "error:" in err and "Traceback" not in err, (name, err)
        assert still_kept(p, fp), name

    # the files a run can do without: it resumes, sets them aside and plays its generation
    fresh = tmp_path / "run-rest"
    shutil.copytree(tiny_run, fresh, symlinks=True)
    rest = {p: plant(p, variant, kind) for p, kind in probe_paths(home, fresh, roots=("run",), skip=refused)
            if fresh in p.parents}
    with no_hang(f"train --resume with {variant} optional run files"):
        assert resume(fresh) == 0
    lost = [str(p) for p, fp in rest.items() if not still_kept(p, fp)]
    assert not lost, f"{variant}: lost or overwritten: {lost}"


def test_the_probe_covers_every_file_the_code_lists():
    """A new entry in USER_FILES is probed without touching this file; one under a root the
    probe does not know would be missed, so it fails here."""
    files = USER_FILES + APPENDED_FILES
    assert {f.root for f in files} <= {"config", "data", "cache", "run", "log"}
    paths = probe_paths(Path("/home"), Path("/run"))
    assert len(paths) == sum(2 if f.root == "run" else 1 for f in files)
