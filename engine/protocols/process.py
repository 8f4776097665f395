"""An external engine process, for the protocol clients (UCI, UCCI, Gomocup, NBoard): start it,
send lines, read its replies with timeouts, and end it cleanly.

Every client player builds on `EngineProcess`, so waiting for a handshake, a timeout that
names the engine, an engine that exits mid-game and the shutdown are handled in one place.
"""
from __future__ import annotations

import atexit
import queue
import shlex
import subprocess
import threading
import time
import weakref

#: engines not closed yet: `_close_open_engines` ends them when the program exits
_OPEN: "weakref.WeakSet[EngineProcess]" = weakref.WeakSet()


def _close_open_engines() -> None:
    """End the engines a program left open, while its threads still run normally: closed
    later, during the interpreter's shutdown (by a player's ``__del__``), closing a pipe
    that the reader thread is still reading aborts the interpreter."""
    for process in list(_OPEN):
        try:
            process.close()
        except Exception:
            pass


atexit.register(_close_open_engines)


class EngineError(RuntimeError):
    """An external engine that cannot be started, does not answer in time, exits, or
    answers something unusable; the message names the engine."""


class EngineProcess:
    """One engine process speaking a line protocol on stdin/stdout.

    ``command`` is a shell-like string (split with `shlex`) or an argument list. Lines the
    engine prints are queued by a reader thread; ``transcript`` keeps both directions
    (``> `` sent, ``< `` received) when ``keep_transcript`` is set, for tests and debugging.
    """

    def __init__(self, command, timeout: float = 10.0, keep_transcript: bool = False):
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise EngineError("no engine command given")
        self.command = command
        self.name = argv[0]
        self.timeout = timeout
        self.transcript: list[str] | None = [] if keep_transcript else None
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1,
                                         encoding="utf-8", errors="replace")
        except (OSError, ValueError) as e:
            raise EngineError(f"cannot start engine {command!r}: {e}") from None
        self._lines: queue.Queue = queue.Queue()
        self._reader = threading.Thread(target=self._read_stdout, name=f"read-{self.name}", daemon=True)
        self._reader.start()
        _OPEN.add(self)

    def _read_stdout(self) -> None:
        try:
            for line in self.proc.stdout:
                self._lines.put(line.rstrip("\r\n"))
        except (OSError, ValueError):
            pass
        self._lines.put(None)

    def send(self, line: str) -> None:
        """Write one line to the engine."""
        if self.transcript is not None:
            self.transcript.append("> " + line)
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise EngineError(f"engine {self.name!r} has exited") from None

    def read_line(self, timeout: float) -> str:
        """The next line, waiting at most ``timeout`` seconds; EngineError otherwise."""
        try:
            line = self._lines.get(timeout=max(timeout, 0.0))
        except queue.Empty:
            raise EngineError(f"engine {self.name!r} did not answer within {timeout:.1f} s") from None
        if line is None:
            self._lines.put(None)
            raise EngineError(f"engine {self.name!r} exited unexpectedly")
        if self.transcript is not None:
            self.transcript.append("< " + line)
        return line

    def read_until(self, done, timeout: float | None = None) -> list[str]:
        """Lines up to and including the first for which ``done(line.strip())`` is true."""
        timeout = self.timeout if timeout is None else timeout
        deadline = time.monotonic() + timeout
        lines = []
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise EngineError(f"engine {self.name!r} did not answer within {timeout:.1f} s"
                                  + (f" (last line: {lines[-1][:80]!r})" if lines else ""))
            line = self.read_line(left)
            lines.append(line)
            if done(line.strip()):
                return lines

    def drain(self) -> None:
        """Drop lines left over from earlier commands (a late reply after a stop)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return
            if self.transcript is not None:
                self.transcript.append("< " + line)

    @property
    def running(self) -> bool:
        return self.proc.poll() is None

    def close(self, quit_line: str | None = "quit", grace: float = 2.0) -> None:
        """Say ``quit_line`` and wait up to ``grace`` seconds; kill the process if it stays.
        Its output pipe is closed once the reader thread has seen its end (closing it under
        a read in progress could block, or abort an interpreter that is shutting down)."""
        _OPEN.discard(self)
        proc = self.proc
        if proc.poll() is None:
            try:
                if quit_line:
                    self.send(quit_line)
                proc.wait(timeout=grace)
            except (EngineError, subprocess.TimeoutExpired, OSError):
                proc.kill()
                proc.wait()
        reader = getattr(self, "_reader", None)
        if reader is not None and reader is not threading.current_thread():
            reader.join(grace)
        streams = [proc.stdin] + ([proc.stdout] if reader is None or not reader.is_alive() else [])
        for stream in streams:
            try:
                stream.close()
            except (OSError, ValueError):
                pass


class ProcessPlayer:
    """Base for the protocol clients as players: owns an `EngineProcess`, closes it on
    ``close``, with ``with`` and when collected."""

    process: EngineProcess | None = None

    def close(self) -> None:
        process = getattr(self, "process", None)
        if process is not None:
            process.close(self.quit_line)

    quit_line = "quit"

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


def parse_work(text: str, default_ms: int) -> dict:
    """A client spec's work per move: ``MS`` (milliseconds), ``depthN``, ``nodesN`` or
    ``timeMS`` -> {"movetime": ms} / {"depth": n} / {"nodes": n}; ValueError otherwise."""
    t = text.strip().lower()
    if not t:
        return {"movetime": default_ms}
    for key in ("depth", "nodes", "time"):
        if t.startswith(key):
            number = t[len(key):].lstrip("=")
            if number.isdigit() and int(number) > 0:
                return {"movetime" if key == "time" else key: int(number)}
            raise ValueError(f"{key} needs a positive whole number, not {number!r}")
    if t.isdigit() and int(t) > 0:
        return {"movetime": int(t)}
    raise ValueError(f"work per move {text!r} is not MS, depthN, nodesN or timeMS")


__all__ = ["EngineError", "EngineProcess", "ProcessPlayer", "parse_work"]
