"""What every engine protocol and protocol client shares: the value <-> centipawn scale,
one-line replies, JSON that is always valid, and the principal variation read off a search tree."""
from __future__ import annotations

import json
import math

import numpy as np

from ..play.players import ROLLOUT   # the ``--model`` value that asks for the rollout search (re-exported)

#: the largest score in centipawns that a value maps to
CP_LIMIT = 2000


def value_to_cp(v: float) -> int:
    """The documented value -> centipawn mapping: 400 * log10((1 + v) / (1 - v)), clipped.
    A value that is not a number has no score: ValueError."""
    v = float(v)
    if math.isnan(v):
        raise ValueError("the value is not a number")
    v = max(-0.99999, min(0.99999, v))
    return int(round(max(-CP_LIMIT, min(CP_LIMIT, 400.0 * math.log10((1 + v) / (1 - v))))))


def cp_to_value(cp: float) -> float:
    """Inverse of `value_to_cp`: tanh(cp * ln 10 / 800)."""
    return math.tanh(float(cp) * math.log(10) / 800.0)


def finite(obj):
    """``obj`` with every float that is not finite (NaN, infinity) replaced by None, in dicts,
    lists and tuples too: what JSON can carry."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {k: finite(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [finite(v) for v in obj]
    if isinstance(obj, np.floating):
        return finite(float(obj))
    return obj


def json_text(obj, **kwargs) -> str:
    """``json.dumps`` that never writes NaN or Infinity (invalid JSON): such numbers become null."""
    return json.dumps(finite(obj), allow_nan=False, **kwargs)


def one_line(text: str) -> str:
    return " ".join(str(text).split())


def principal_variation(tree, first_action: int | None = None, max_len: int = 24) -> list[str]:
    """Move texts of the most visited line from the root (starting with ``first_action`` if given)."""
    pv: list[str] = []
    node = 0
    action = first_action
    while len(pv) < max_len and tree.n_count[node] > 0:
        actions, visits, _, _, kids = tree.edges(node)
        if action is None:
            j = int(visits.argmax())
            if visits[j] <= 0:
                break
        else:
            hits = np.nonzero(actions == action)[0]
            if not len(hits):
                break
            j = int(hits[0])
        pv.append(tree.states[node].action_to_text(int(actions[j])))
        node = int(kids[j])
        action = None
        if node < 0:
            break
    return pv


class LineWriter:
    """Thread-safe, flushed output of whole lines (searches report from their own thread);
    a closed pipe sets ``broken`` instead of raising."""

    def __init__(self, stream):
        import threading
        self.stream = stream
        self._lock = threading.Lock()
        self.broken = threading.Event()

    def __call__(self, line: str) -> None:
        with self._lock:
            try:
                self.stream.write(line + "\n")
                self.stream.flush()
            except (BrokenPipeError, OSError, ValueError):
                self.broken.set()



def tolerant_input(stdin):
    """``stdin`` reading bytes that are not text in its encoding as U+FFFD instead of raising
    (a UTF-8 locale's stdin is strict): such a line is then an unknown command like any other."""
    reconfigure = getattr(stdin, "reconfigure", None)
    if reconfigure is not None:
        try:
            reconfigure(errors="replace")
        except (AttributeError, OSError, ValueError):
            pass
    return stdin


def serve_lines(engine, stdin, stdout, on_arrival=None) -> int:
    """Run ``engine.handle_line(line, write)`` on each input line until ``engine.quit_requested``,
    end of input or a closed output. A reader thread takes the lines as they arrive and calls
    ``on_arrival(line)`` at once, so that a line can stop a search that is still running (the
    engine's own thread handles it in its turn)."""
    import queue
    import threading
    write = LineWriter(stdout)
    lines: queue.Queue = queue.Queue()

    def read() -> None:
        try:
            for line in tolerant_input(stdin):
                if on_arrival is not None:
                    on_arrival(line)
                lines.put(line)
        finally:  # whatever ends the reading (an unreadable stream too), the engine is told
            lines.put(None)

    threading.Thread(target=read, name="read-stdin", daemon=True).start()
    while not engine.quit_requested and not write.broken.is_set():
        line = lines.get()
        if line is None:
            break
        engine.handle_line(line, write)
    return 0

#: the name of `EvaluatorLoader`'s thread (an engine leaving waits for it: `engines._finish`)
LOADER_THREAD = "load-model"



class EvaluatorLoader:
    """Loads the evaluator (torch and the model) on a background thread, so that an engine
    answers its handshake before paying for them; `get` waits for the load.

    A model that cannot be loaded is reported once through ``report`` and replaced by the
    rollout search every game has, so the engine keeps playing instead of dying mid-session.
    """

    def __init__(self, game, model_path=None, evaluator=None):
        import threading
        self.game = game
        self.model_path = str(model_path) if model_path else ""
        self._evaluator = evaluator
        self.description = type(evaluator).__name__ if evaluator is not None else ""
        self.error = ""
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def loaded(self) -> bool:
        return self._evaluator is not None

    def start(self) -> None:
        """Begin loading (once); returns at once."""
        import threading
        with self._lock:
            if self._evaluator is None and self._thread is None:
                self._thread = threading.Thread(target=self._load, name=LOADER_THREAD, daemon=True)
                self._thread.start()

    def _load(self) -> None:
        from ..play.players import NO_MODEL, load_evaluator, without_model_note
        if self.model_path == ROLLOUT:  # asked for the rollout search: no torch, no model file
            self._evaluator, self.description = self._rollout()
            return
        try:
            self._evaluator, self.description = load_evaluator(self.game, self.model_path or None)
            if self.description == NO_MODEL:   # not asked for: the player must hear it is without its model
                self.error = without_model_note(self.game)
        except Exception as e:  # a bad model file: say so, play with the rollout search
            self.error = f"cannot load model {self.model_path or '(shipped)'}: {one_line(e)}; using rollout search"
            self._evaluator, self.description = self._rollout()

    def _rollout(self):
        """(the rollout evaluator, its description): every game's model-free search."""
        from ..play.players import NO_MODEL, rollout_evaluator
        return rollout_evaluator(self.game), NO_MODEL

    def get(self):
        """The evaluator, waiting for the load to finish."""
        self.start()
        thread = self._thread
        if thread is not None:
            thread.join()
        return self._evaluator

    def take_error(self) -> str:
        """The load error not yet reported ("" when none)."""
        err, self.error = self.error, ""
        return err


def parse_int(text: str, lo: int | None = None, hi: int | None = None) -> int | None:
    """``text`` as a whole number within [lo, hi], else None."""
    text = text.strip()
    # isascii: str.isdigit() is also true of digits int() refuses, such as '²'
    if not text or len(text) > 15 or not text.isascii() or \
            not (text.isdigit() or text[0] == "-" and text[1:].isdigit()):
        return None
    value = int(text)
    if lo is not None and value < lo or hi is not None and value > hi:
        return None
    return value
