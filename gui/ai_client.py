"""The window's handle on the AI process (see `gui.ai_worker`): requests are queued without
blocking, and replies are delivered to callbacks when `AIClient.poll` runs once per frame.
A dead or failing AI process becomes a readable message, never an exception.

A process that dies is restarted by the next request, at most MAX_RESTARTS times in a row:
the count starts again after a healthy run (RENEW_AFTER_RESULTS answered searches, or
RENEW_AFTER_SECONDS of answering). A watchdog ends a process that goes quiet (no reply and no
heartbeat for WATCHDOG_SECONDS while a search is waiting: frozen, stopped or stuck) and
starts a fresh one, and the waiting search gets an error saying so.
"""
from __future__ import annotations

import itertools
import multiprocessing
import queue
import time

from gui.ai_worker import DEFAULT_FACTORY, worker_main

MAX_RESTARTS = 3
#: a restarted process that answers this many searches, or keeps answering this long (seconds),
#: has proved healthy: the restart count starts again
RENEW_AFTER_RESULTS = 3
RENEW_AFTER_SECONDS = 300.0
#: silence (no reply, no heartbeat) while a search waits that makes the watchdog restart the AI;
#: the worker sends a heartbeat every second, so this only trips on a process that stopped working
WATCHDOG_SECONDS = 45.0
#: the most one gap between two polls adds to that silence: a window, or a whole machine, that did
#: not run for a while did not watch the AI either, and the AI's quiet then is not held against it
#: (a paused virtual machine once woke the test's window before the AI and tripped the watchdog)
POLL_GAP_CAP = 0.5


class AIClient:
    """The window's handle on the AI process: non-blocking requests, replies polled per frame."""

    def __init__(self, factory_spec: str = DEFAULT_FACTORY, enabled: bool = True,
                 watchdog_seconds: float = WATCHDOG_SECONDS):
        self.factory_spec = factory_spec
        self.enabled = enabled
        self.watchdog_seconds = watchdog_seconds
        self.watchdog_restarts = 0  # processes the watchdog ended, since the app started
        self._silence = 0.0  # seconds the window polled, with a search waiting, and heard nothing
        self._last_poll = 0.0  # monotonic time of the last poll
        self._answered = 0  # searches answered since the process started
        self.status = "stopped"  # stopped | starting | ready | dead | disabled
        self.message = ""  # why the AI is unavailable, for the person to read
        self.started_at = 0.0
        self.restarts = 0
        self._ctx = multiprocessing.get_context("spawn")
        self._process = None
        self._requests = None
        self._replies = None
        self._ids = itertools.count(1)
        self._callbacks: dict[int, callable] = {}
        #: search threads the AI process uses (the ``ai_threads`` setting; 0: every core but one)
        self.threads = 0

    # --- lifecycle ----------------------------------------------------------
    def start(self) -> None:
        if not self.enabled:
            self.status = "disabled"
            return
        if self._process is not None and self._process.is_alive():
            return
        self._requests = self._ctx.Queue()
        self._replies = self._ctx.Queue()
        self._process = self._ctx.Process(target=worker_main, name="zeroboard-ai",
                                          args=(self._requests, self._replies, self.factory_spec),
                                          daemon=True)
        try:
            self._process.start()
        except Exception as e:  # e.g. out of memory or no permission to start processes
            self.status = "dead"
            self.message = f"could not start the AI process: {e}"
            self._process = None
            return
        self.status = "starting"
        self.started_at = time.monotonic()
        self._silence = 0.0
        self._answered = 0

    def close(self, timeout: float = 0.6) -> None:
        """Stop the AI process promptly (it may be in the middle of a search)."""
        p = self._process
        self._process = None
        if p is not None:
            try:
                self._requests.put_nowait({"type": "shutdown"})
            except Exception:
                pass
            p.join(timeout * 0.2)
            if p.is_alive():
                p.terminate()
                p.join(timeout * 0.5)
            if p.is_alive():
                p.kill()
                p.join(timeout * 0.3)
        for q in (self._requests, self._replies):
            if q is not None:
                try:
                    q.cancel_join_thread()  # never wait on the queue's feeder thread at exit
                    q.close()
                except Exception:
                    pass
        self._requests = self._replies = None
        self._callbacks.clear()
        if self.status != "disabled":
            self.status = "stopped"

    @property
    def busy(self) -> bool:
        return bool(self._callbacks)

    # --- requests -----------------------------------------------------------
    def search(self, state, level: str, model_path: str | None, session, callback, extras: bool = False,
               clock: dict | None = None, prepare: bool = False) -> int | None:
        """Ask for a move in ``state``; ``callback(msg)`` gets its progress/result/error/cancelled replies.
        ``clock``: the AI's game clock (see `gui.ai_worker`), stamped here with the time it is sent.
        ``prepare``: only load the player for the search (answered "prepared"), see `prepare`."""
        if not self.enabled:
            callback({"type": "error", "id": None, "message": "the AI is turned off"})
            return None
        if self._process is None or not self._process.is_alive():
            if self.status == "dead" and self.restarts >= MAX_RESTARTS:
                callback({"type": "error", "id": None, "message": self.message or "the AI process is not running"})
                return None
            if self.status == "dead":
                self.restarts += 1
            self.start()
            if self._process is None:
                callback({"type": "error", "id": None, "message": self.message})
                return None
        rid = next(self._ids)
        if not self._callbacks:
            self._silence = 0.0
        self._callbacks[rid] = callback
        try:
            self._requests.put({"type": "prepare" if prepare else "search", "id": rid, "game_id": state.game.id,
                                "variant": dict(state.game.variant), "position_text": state.to_text(),
                                "level": level, "model_path": model_path, "session": session,
                                "extras": extras, "threads": self.threads,
                                **({"clock": {**clock, "sent": time.monotonic()}} if clock else {})})
        except Exception as e:
            self._callbacks.pop(rid, None)
            callback({"type": "error", "id": rid, "message": f"could not reach the AI: {e}"})
            return None
        return rid

    def prepare(self, state, level: str, model_path: str | None, session, callback) -> int | None:
        """Have the AI process load what a search at ``level`` needs (the model), searching nothing;
        ``callback`` gets "prepared" (or "error"). A timed game asks so before the AI's clock runs."""
        return self.search(state, level, model_path, session, callback, prepare=True)

    def cancel(self, rid: int | None) -> None:
        if rid is None or rid not in self._callbacks:
            return
        self._callbacks.pop(rid, None)
        try:
            self._requests.put_nowait({"type": "cancel", "id": rid})
        except Exception:
            pass

    def poll(self, max_messages: int = 200) -> int:
        """Deliver waiting replies to their callbacks; notice a dead AI process. Never blocks.
        Returns how many messages arrived (the window redraws only when something did)."""
        if self._replies is None:
            return 0
        now = time.monotonic()
        gap = min(now - self._last_poll, POLL_GAP_CAP) if self._last_poll else 0.0
        self._last_poll = now
        taken = 0
        heard = False
        for _ in range(max_messages):
            try:
                msg = self._replies.get_nowait()
            except queue.Empty:
                break
            except (EOFError, OSError, ValueError):
                break
            except Exception:  # a reply that cannot be unpickled
                continue
            heard = True
            if not isinstance(msg, dict):
                taken += 1
                continue
            kind = msg.get("type")
            if kind == "heartbeat":
                continue  # not news for the window: no redraw
            taken += 1
            if kind == "ready":
                self.status = "ready"
                self.message = ""
                continue
            if kind == "fatal":
                self.status = "ready"  # the process answers, but every search will fail
                self.message = msg.get("message", "")
                continue
            rid = msg.get("id")
            cb = self._callbacks.get(rid)
            if cb is None:
                continue
            if kind in ("result", "error", "cancelled", "prepared"):
                self._callbacks.pop(rid, None)
            if kind == "result":
                self._answered += 1
            try:
                cb(msg)
            except Exception as e:  # a controller bug must not kill the frame loop
                self.message = f"internal error handling the AI's reply: {e}"
        if heard or not self._callbacks:
            self._silence = 0.0
        else:
            self._silence += gap
        self._renew_budget()
        if self._process is not None and not self._process.is_alive():
            code = self._process.exitcode
            self.status = "dead"
            self.message = f"the AI process stopped unexpectedly (exit code {code})"
            self._process = None
            taken += 1 + self._fail_waiting()
        elif self._process is not None and self._callbacks and self._silent_for() > self.watchdog_seconds:
            taken += 1 + self._restart_frozen()
        return taken

    def _silent_for(self) -> float:
        """Seconds without a word from the process while a search waited, counted over the window's
        own polls (each gap at most POLL_GAP_CAP), so that only time the window was awake counts."""
        return self._silence

    def _renew_budget(self) -> None:
        """A process that has answered well for a while has earned the restarts back."""
        if self.restarts and self._process is not None and self.status == "ready" and (
                self._answered >= RENEW_AFTER_RESULTS
                or (time.monotonic() - self.started_at >= RENEW_AFTER_SECONDS
                    and self._silent_for() < self.watchdog_seconds)):
            self.restarts = 0

    def _fail_waiting(self) -> int:
        """Answer every waiting request with an error carrying ``self.message``."""
        callbacks, self._callbacks = self._callbacks, {}
        for rid, cb in callbacks.items():
            try:
                cb({"type": "error", "id": rid, "message": self.message})
            except Exception:
                pass
        return len(callbacks)

    def _restart_frozen(self) -> int:
        """The watchdog: end a process that stopped answering (kill works on a stopped one too),
        fail what waited for it, and start a fresh one when the restart budget allows."""
        from gui.i18n import t
        seconds = int(self._silent_for())
        p, self._process = self._process, None
        try:
            p.kill()
            p.join(2.0)
        except Exception:
            pass
        for q in (self._requests, self._replies):
            try:
                q.cancel_join_thread()
                q.close()
            except Exception:
                pass
        self._requests = self._replies = None
        self.watchdog_restarts += 1
        self.status = "dead"
        self.message = t("ai.not_answering", seconds=seconds)
        failed = self._fail_waiting()
        if self.restarts < MAX_RESTARTS:
            self.restarts += 1
            message = self.message
            self.start()
            if self._process is not None:
                self.message = message  # kept until the new process says it is ready
        return failed
