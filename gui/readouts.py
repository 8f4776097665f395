"""The study panel's exact readouts (`engine.play.solver.exact_readout`: a solved win's or
loss's distance, othello's final disc margin), worked out on a thread of their own so that
a solve (at most about a second of plain Python, docs/studying-games.md) never holds a frame,
and kept by position."""
from __future__ import annotations

import logging
import threading

from engine.play.solver import Readout, exact_readout, readout_covers

log = logging.getLogger(__name__)


class ExactReadouts:
    """``get(state)``: the readout of ``state`` once it is worked out (None until then, and
    for a position no solver covers). One position is solved at a time; a position asked for
    while another is being solved is started on a later ``get``."""

    #: positions kept; past it the cache starts again
    LIMIT = 512

    def __init__(self, solve=exact_readout):
        self._solve = solve
        self._done: dict = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    @staticmethod
    def _key(state):
        return state.game.key, state.key()

    def get(self, state) -> Readout | None:
        if not readout_covers(state):
            return None
        key = self._key(state)
        with self._lock:
            if key in self._done:
                return self._done[key]
            busy = self._thread is not None and self._thread.is_alive()
            if not busy:
                self._thread = threading.Thread(target=self._work, args=(key, state), name="exact-readout",
                                                daemon=True)
                self._thread.start()
        return None

    def _work(self, key, state) -> None:
        try:
            found = self._solve(state)
        except Exception:   # a solver fault must not take the window down: no readout for it
            log.exception("exact readout failed for %s", key[0])
            found = None
        with self._lock:
            if len(self._done) >= self.LIMIT:
                self._done.clear()
            self._done[key] = found

    def wait(self, timeout: float = 10.0) -> None:
        """Until the position being solved is done (tests)."""
        thread = self._thread
        if thread is not None:
            thread.join(timeout)
