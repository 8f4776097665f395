"""The packaged app's support code: the log file and error hook, the self-test's engine checks,
the icons and the desktop entry. (The bundle itself is built and self-tested by .ci/package.)"""
import os
import struct
import subprocess
import sys
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run_python(code: str, home: Path, **env) -> subprocess.CompletedProcess:
    environ = dict(os.environ, ZEROBOARD_HOME=str(home), SDL_VIDEODRIVER="dummy", SDL_AUDIODRIVER="dummy", **env)
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=environ, capture_output=True, text=True,
                          timeout=120)


def log_text(home: Path) -> str:
    return (home / "log" / "zeroboard.log").read_text(encoding="utf-8")


def test_missing_stdout_and_stderr_go_to_the_log_file(tmp_path):
    # a windowed app on Windows starts with sys.stdout and sys.stderr set to None
    code = ("import sys; sys.stdout = sys.stderr = None\n"
            "import main\n"
            "code = main.main(['perft', '--game', 'tictactoe', '--depth', '2'])\n"
            "print('exit', code)\n"
            "print('to stderr', file=sys.stderr)\n")
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == "" and proc.stderr == ""
    text = log_text(tmp_path)
    assert "72" in text  # tic-tac-toe has 9 * 8 positions two plies deep
    assert "exit 0" in text and "to stderr" in text


def test_an_uncaught_error_is_logged_and_shown(tmp_path):
    code = ("import sys\n"
            "from engine.core import logsetup\n"
            "shown = []\n"
            "logsetup.install_excepthook(show=lambda summary, path: print('SHOWN', summary, path.name, flush=True))\n"
            "raise ValueError('the board is on fire')\n")
    proc = run_python(code, tmp_path)
    assert proc.returncode == 1
    assert "SHOWN ValueError: the board is on fire zeroboard.log" in proc.stdout
    assert "Traceback" in proc.stderr  # a terminal still sees the usual traceback
    text = log_text(tmp_path)
    assert "uncaught error in the main thread" in text and "ValueError: the board is on fire" in text


def test_an_error_in_a_thread_is_logged(tmp_path):
    code = ("import threading\n"
            "from engine.core import logsetup\n"
            "logsetup.install_excepthook()\n"
            "t = threading.Thread(target=lambda: 1 / 0, name='worker'); t.start(); t.join()\n")
    proc = run_python(code, tmp_path)
    assert proc.returncode == 0
    assert "uncaught error in thread 'worker'" in log_text(tmp_path)


def test_the_error_window_stays_away_without_a_display(monkeypatch):
    from gui import crash
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    assert not crash.can_show()
    crash.show_error("ValueError: nothing to see", Path("zeroboard.log"))  # returns at once


def test_the_error_window_wraps_long_paths_and_messages():
    import pygame
    pygame.font.init()
    from gui.crash import _font, _wrap
    font = _font(15)
    lines = _wrap(font, "x" * 400 + "\n" + "棋" * 200, 300, 5)
    assert len(lines) == 5 and lines[-1].endswith("…")
    assert all(font.size(line)[0] <= 300 + font.size("…")[0] for line in lines)


def test_main_routes_selftest_before_the_app(monkeypatch):
    import main
    import gui.selftest_run
    seen = []
    monkeypatch.setattr(gui.selftest_run, "main", lambda argv: seen.append(argv) or 0)
    monkeypatch.setattr(sys, "excepthook", sys.excepthook)  # main installs its own hooks; undone after the test
    monkeypatch.setattr(threading, "excepthook", threading.excepthook)
    assert main.main(["--selftest", "screens"]) == 0
    assert seen == [["screens"]]


# --- the self-test's engine checks -------------------------------------------------------------

def save_model(path: Path, game_id: str) -> None:
    from engine.core.checkpoint import save_checkpoint
    from engine.core.network import NetConfig, PolicyValueNet
    from games import get_game
    game = get_game(game_id)
    save_checkpoint(path, PolicyValueNet(NetConfig.for_game(game, 1, 8, 8)), game, generation=3)


def test_model_check_loads_good_models_and_reports_broken_and_missing_ones(tmp_path):
    from engine.commands.selftest import check_models
    save_model(tmp_path / "tictactoe.pt", "tictactoe")
    (tmp_path / "connect4.pt").write_bytes((tmp_path / "tictactoe.pt").read_bytes()[:500])  # truncated
    out = check_models(tmp_path)
    assert out["loaded"]["tictactoe"]["generation"] == 3
    assert list(out["failed"]) == ["connect4.pt"]
    assert "connect4" not in out["missing"] and "tictactoe" not in out["missing"]
    assert {"connect2", "othello", "gomoku", "xiangqi"} <= set(out["missing"])
    from engine.core import winograd
    from engine.core.onnxnet import file_sha256
    if winograd.available():   # its arrays beside the model, as the package ships them, or not
        assert out["loaded"]["tictactoe"]["winograd"] is False
        from engine.core.checkpoint import load_network
        net, _ = load_network(tmp_path / "tictactoe.pt")
        winograd.save(tmp_path / "tictactoe.pt", file_sha256(tmp_path / "tictactoe.pt"), winograd.WinogradNet.from_net(net))
        assert check_models(tmp_path)["loaded"]["tictactoe"]["winograd"] is True
    else:
        assert out["loaded"]["tictactoe"]["winograd"] is None


def test_a_quick_game_is_played_by_the_real_players():
    from engine.commands.selftest import play_quick_game
    out = play_quick_game("connect4", sims=4)
    assert out["plies"] >= 7 and out["result"].endswith(("won", "draw"))
    capped = play_quick_game("xiangqi", sims=2, max_plies=6)
    assert capped == {**capped, "plies": 6, "result": "stopped after 6 plies"}


def test_the_process_start_time_is_when_the_process_started():
    """Asked in a process started for the purpose, so the answer does not depend on how long
    this test run has been going (the boot time /proc gives is whole seconds: 1.5 s slack)."""
    import time
    code = "from gui.selftest_run import process_started_at; print(repr(process_started_at()))"
    before = time.time()
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=Path(__file__).resolve().parent.parent, check=True).stdout
    after = time.time()
    assert before - 1.5 <= float(out) <= after + 1.5


# --- icons and desktop entry -------------------------------------------------------------------

def test_the_icon_is_drawn_at_every_size_without_a_display(tmp_path, monkeypatch):
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import make_icons
    finally:
        sys.path.remove(str(ROOT / "tools"))
    monkeypatch.setattr(make_icons, "OUT", tmp_path)
    make_icons.main()
    import pygame
    for size in make_icons.PNG_SIZES:
        image = pygame.image.load(str(tmp_path / f"zeroboard-{size}.png"))
        assert image.get_size() == (size, size)
    ico = (tmp_path / "zeroboard.ico").read_bytes()
    reserved, kind, count = struct.unpack("<HHH", ico[:6])
    assert (reserved, kind, count) == (0, 1, len(make_icons.ICO_SIZES))


def test_the_shipped_icons_and_desktop_entry_match():
    icons = ROOT / "assets" / "icons"
    assert (icons / "zeroboard.ico").exists() and (icons / "zeroboard-256.png").exists()
    entry = dict(line.split("=", 1) for line in (ROOT / "assets" / "zeroboard.desktop").read_text().splitlines()
                 if "=" in line)
    assert entry["Type"] == "Application" and entry["Name"] == "ZeroBoard" and entry["Terminal"] == "false"
    assert entry["Icon"] == "zeroboard" and entry["Exec"] == "ZeroBoard"


def test_every_bundle_exclusion_is_described():
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import measure_bundle
    finally:
        sys.path.remove(str(ROOT / "tools"))
    names = measure_bundle.exclusions()
    assert "strip" in names and all(len(description) > 20 for description in names.values())
    readme = (ROOT / "docs" / "packaging.md").read_text(encoding="utf-8")
    assert all(f"`{name}`" in readme for name in names), "docs/packaging.md's exclusion table lists every exclusion"
