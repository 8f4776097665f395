"""The app's log file and its last line of defence against uncaught errors.

main.py calls `ensure_streams` and `install_excepthook` before anything else, so this module
imports neither torch nor pygame. A windowed PyInstaller app on Windows starts with
``sys.stdout`` and ``sys.stderr`` set to None; they are pointed at the log file so that
print() and tracebacks land somewhere a person can find them.
"""
from __future__ import annotations

import os
import sys
import threading
import time
import traceback
from pathlib import Path

MAX_LOG_BYTES = 2_000_000  # above this the log starts afresh; the previous one is kept as .1

_log_file = None


def log_path() -> Path:
    """The log file in the per-user log directory (engine.core.paths.user_log_dir)."""
    from .safefile import user_path
    return user_path("log")


def _open_log():
    """The log file opened for appending (shared by every call and by redirected streams)."""
    global _log_file
    if _log_file is None or _log_file.closed:
        path = log_path()
        try:
            if path.stat().st_size > MAX_LOG_BYTES:
                os.replace(path, path.with_name(path.name + ".1"))
        except OSError:
            pass
        from .safefile import open_append
        _log_file = open_append(path)   # a FIFO or a device there is refused, never waited on
    return _log_file


def writable_log_path() -> Path | None:
    """The log file's path when it can be written, else None (never raises)."""
    try:
        _open_log()
        return log_path()
    except Exception:
        return None


def log(message: str) -> None:
    """Append a time-stamped line (or block) to the log file; never raises."""
    try:
        f = _open_log()
        f.write(f"{time.strftime('%Y-%m-%d %H:%M:%S')} [{os.getpid()}] {message.rstrip()}\n")
        f.flush()
    except Exception:
        pass


def note(message: str) -> None:
    """One line on stderr, "zeroboard: " first (the app's AI process sends stderr to its log
    file); never raises."""
    try:
        print(f"zeroboard: {message}", file=sys.stderr, flush=True)
    except (OSError, ValueError, AttributeError):
        pass


def first_line(error: BaseException) -> str:
    """An exception's message's first line, or its type's name where it has none."""
    return str(error).splitlines()[0] if str(error) else type(error).__name__


class _Tee:
    """A text stream that writes to the console's stream and to the log file."""

    def __init__(self, stream, log_file):
        self._stream, self._log = stream, log_file

    def write(self, text: str) -> int:
        for target in (self._stream, self._log):
            try:
                target.write(text)
            except Exception:
                pass
        return len(text)

    def flush(self) -> None:
        for target in (self._stream, self._log):
            try:
                target.flush()
            except Exception:
                pass

    def __getattr__(self, name):  # isatty, fileno, encoding, ...: the console's
        return getattr(self._stream, name)


def ensure_streams(copy_stderr: bool = False) -> bool:
    """Point a missing ``sys.stdout``/``sys.stderr`` at the log file (or, failing that, at the
    null device); with ``copy_stderr`` (the packaged app) also copy stderr into the log, where
    a double-clicked app's messages can be found. Returns True when a stream was missing."""
    missing = sys.stdout is None or sys.stderr is None
    try:
        log_file = _open_log() if missing or copy_stderr else None
    except OSError:
        log_file = None
    if missing:
        stream = log_file or open(os.devnull, "w", encoding="utf-8")
        if sys.stdout is None:
            sys.stdout = stream
        if sys.stderr is None:
            sys.stderr = stream
    elif copy_stderr and log_file is not None and not isinstance(sys.stderr, _Tee):
        sys.stderr = _Tee(sys.stderr, log_file)
    return missing


def _console():
    """The stderr a person at a terminal would see, or None (it may be the log itself)."""
    err = sys.stderr
    if isinstance(err, _Tee):
        err = err._stream
    return None if err is None or err is _log_file else err


def install_excepthook(show=None) -> None:
    """Log every uncaught error (main thread and other threads) to the log file, print it to
    stderr as usual, and in the main thread call ``show(summary, log_path)`` so a person sees
    it — ``show`` is the GUI's message window; ``log_path`` is None when the log could not be
    written. Ctrl+C is left alone."""

    def report(exc_type, exc, tb, where: str) -> str:
        text = "".join(traceback.format_exception(exc_type, exc, tb))
        log(f"uncaught error in {where}:\n{text}")
        console = _console()
        if console is not None:
            try:
                console.write(text)
                console.flush()
            except Exception:
                pass
        return f"{exc_type.__name__}: {exc}"

    def hook(exc_type, exc, tb):
        if issubclass(exc_type, KeyboardInterrupt):
            sys.__excepthook__(exc_type, exc, tb)
            return
        summary = report(exc_type, exc, tb, "the main thread")
        if show is not None:
            try:
                show(summary, writable_log_path())
            except Exception:
                log("could not show the error window:\n" + traceback.format_exc())

    def thread_hook(args):
        if args.exc_type is SystemExit:
            return
        name = args.thread.name if args.thread is not None else "a thread"
        report(args.exc_type, args.exc_value, args.exc_traceback, f"thread {name!r}")

    sys.excepthook = hook
    threading.excepthook = thread_hook
