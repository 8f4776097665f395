"""Launch figures for docs/packaging.md, measured on an X display (e.g. Xvfb):

* exec -> first frame: the app writes the time of its first window flip to the file named by
  ZEROBOARD_STARTUP_TRACE (gui.app.App.run);
* exec -> first AI move: ``play --game tictactoe --side second --level beginner`` (the AI moves
  first, with few visits, so the figure is the AI process's start-up: spawn, runtime, model), timed
  until the move shows on the board in screenshots (ImageMagick ``import``, about 15 per second;
  the app shows an AI move at the earliest 0.35 s after asking for it).

Run:  Xvfb :99 -screen 0 1280x800x24 &
      DISPLAY=:99 python tools/measure_launch.py [--runs 5] [COMMAND ...]   (default dist/ZeroBoard/ZeroBoard)
Each launch gets a fresh ZEROBOARD_HOME, so settings and trained models never carry over.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BOARD = "700x700+86+50"  # the board's area in a 1280x800 window: the side panel animates, the board does not


def _launch(cmd: list[str], home: Path, extra: list[str]) -> tuple[subprocess.Popen, float, Path]:
    trace = home / "first-frame"
    env = dict(os.environ, ZEROBOARD_HOME=str(home), ZEROBOARD_STARTUP_TRACE=str(trace), SDL_AUDIODRIVER="dummy")
    t0 = time.time()
    proc = subprocess.Popen(cmd + extra, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return proc, t0, trace


def _wait_first_frame(proc, trace: Path, timeout: float = 60.0) -> float:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"the app exited with {proc.returncode} before its first frame")
        try:
            text = trace.read_text().strip()
            if text:
                return float(text)
        except (OSError, ValueError):
            pass
        time.sleep(0.005)
    raise TimeoutError("no first frame")


def _stop(proc) -> None:
    proc.terminate()  # the app closes its window and its AI process on SIGTERM
    try:
        proc.wait(20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def _board() -> bytes:
    return subprocess.run(["import", "-window", "root", "-crop", BOARD, "rgb:-"], capture_output=True,
                          check=True).stdout


def first_frame(cmd: list[str]) -> float:
    with tempfile.TemporaryDirectory(prefix="zeroboard-launch-") as home:
        proc, t0, trace = _launch(cmd, Path(home), [])
        try:
            return _wait_first_frame(proc, trace) - t0
        finally:
            _stop(proc)


def first_ai_move(cmd: list[str], timeout: float = 120.0) -> tuple[float, float]:
    """(exec -> first frame, exec -> the AI's first move on the board)."""
    subprocess.run(["xdotool", "mousemove", "1279", "799"], check=False)  # no hover effects on the board
    with tempfile.TemporaryDirectory(prefix="zeroboard-launch-") as home:
        proc, t0, trace = _launch(cmd, Path(home), ["play", "--game", "tictactoe", "--side", "second",
                                                    "--level", "beginner"])
        try:
            frame = _wait_first_frame(proc, trace) - t0
            time.sleep(0.05)
            empty = _board()
            deadline = time.monotonic() + timeout
            while time.monotonic() < deadline:
                if _board() != empty:
                    return frame, time.time() - t0
                if proc.poll() is not None:
                    raise RuntimeError(f"the app exited with {proc.returncode}")
            raise TimeoutError("the AI's first move never appeared")
        finally:
            _stop(proc)


def _stats(values: list[float]) -> dict:
    return {"median": round(statistics.median(values), 2), "min": round(min(values), 2),
            "max": round(max(values), 2), "runs": [round(v, 2) for v in values]}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("command", nargs="*", default=[str(ROOT / "dist" / "ZeroBoard" / "ZeroBoard")])
    args = p.parse_args()
    if not os.environ.get("DISPLAY"):
        raise SystemExit("set DISPLAY (e.g. Xvfb :99 -screen 0 1280x800x24 & DISPLAY=:99 ...)")
    frames = [first_frame(args.command) for _ in range(args.runs)]
    ai = [first_ai_move(args.command) for _ in range(args.runs)]
    out = {"command": " ".join(args.command), "first_frame_seconds": _stats(frames),
           "first_ai_move_seconds": _stats([a for _, a in ai]),
           "first_frame_in_play_seconds": _stats([f for f, _ in ai])}
    print(json.dumps(out, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
