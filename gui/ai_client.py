"""The window's handle on the AI process (see `gui.ai_worker`): requests are queued without
blocking, and replies are delivered to callbacks when `AIClient.poll` runs once per frame.
A dead or failing AI process becomes a readable message, never an exception.
"""
from __future__ import annotations

import itertools
import multiprocessing
import queue
import time

from gui.ai_worker import DEFAULT_FACTORY, worker_main

MAX_RESTARTS = 3


class AIClient:
    """The window's handle on the AI process: non-blocking requests, replies polled per frame."""

    def __init__(self, factory_spec: str = DEFAULT_FACTORY, enabled: bool = True):
        self.factory_spec = factory_spec
        self.enabled = enabled
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
    def search(self, state, level: str, model_path: str | None, session, callback, extras: bool = False) -> int | None:
        """Ask for a move in ``state``; ``callback(msg)`` gets its progress/result/error/cancelled replies."""
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
        self._callbacks[rid] = callback
        try:
            self._requests.put({"type": "search", "id": rid, "game_id": state.game.id,
                                "variant": dict(state.game.variant), "position_text": state.to_text(),
                                "level": level, "model_path": model_path, "session": session,
                                "extras": extras})
        except Exception as e:
            self._callbacks.pop(rid, None)
            callback({"type": "error", "id": rid, "message": f"could not reach the AI: {e}"})
            return None
        return rid

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
        taken = 0
        for _ in range(max_messages):
            try:
                msg = self._replies.get_nowait()
            except queue.Empty:
                break
            except (EOFError, OSError, ValueError):
                break
            except Exception:  # a reply that cannot be unpickled
                continue
            taken += 1
            if not isinstance(msg, dict):
                continue
            kind = msg.get("type")
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
            if kind in ("result", "error", "cancelled"):
                self._callbacks.pop(rid, None)
            try:
                cb(msg)
            except Exception as e:  # a controller bug must not kill the frame loop
                self.message = f"internal error handling the AI's reply: {e}"
        if self._process is not None and not self._process.is_alive():
            code = self._process.exitcode
            self.status = "dead"
            self.message = f"the AI process stopped unexpectedly (exit code {code})"
            self._process = None
            callbacks, self._callbacks = self._callbacks, {}
            taken += 1
            for rid, cb in callbacks.items():
                try:
                    cb({"type": "error", "id": rid, "message": self.message})
                except Exception:
                    pass
        return taken
