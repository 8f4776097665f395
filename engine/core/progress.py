"""Counts for long jobs (training, strength suites, matches): a tqdm bar with a time estimate
on a terminal, plain lines in logs and pipes.

On a terminal the bar redraws in place (tqdm). Anywhere else (a file, a pipe, the packaged
app's log) a carriage-return bar would fill the log with thousands of fragments, so the job
writes a whole line instead, at most one per tenth of the work or per ``line_every`` seconds,
and always one when the work is done.
"""
from __future__ import annotations

import math
import sys
import time

#: seconds between plain lines when no tenth of the work was finished in between
LINE_EVERY = 30.0


def format_seconds(seconds: float) -> str:
    """``H:MM:SS`` (``?`` when unknown)."""
    if seconds is None or not math.isfinite(seconds) or seconds < 0:
        return "?"
    s = int(round(seconds))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


def is_terminal(stream) -> bool:
    try:
        return bool(stream is not None and stream.isatty())
    except (AttributeError, ValueError, OSError):   # closed, or no isatty()
        return False


def _tqdm():
    try:
        from tqdm import tqdm
    except ImportError:   # an environment installed before tqdm was a dependency: plain lines
        return None
    return tqdm


class Progress:
    """Progress of ``total`` units of work (``None``: unknown), named ``desc``.

    ``update(n)`` counts finished units, ``info(text)`` sets the note shown after the counts
    (a match's score, positions per second), ``write(text)`` prints a line of its own without
    breaking the bar, ``close()`` ends it (also as a context manager). ``enabled=False`` (or
    ``stream=None``, a windowed app without a console) makes every call do nothing.
    ``every_unit=True`` writes a plain line after each unit instead of each tenth.
    """

    def __init__(self, total: int | None, desc: str, unit: str = "it", *, stream=None, enabled: bool = True,
                 line_every: float = LINE_EVERY, every_unit: bool = False):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = bool(enabled) and self.stream is not None
        self.total = total if total and total > 0 else None
        self.desc = desc
        self.unit = unit
        self.done = 0
        self.note = ""
        self.line_every = line_every
        self.every_unit = every_unit
        self.start = time.monotonic()
        self._last_line = self.start
        self._last_step = 0          # tenths (or units) reported in a plain line
        self._reported = -1          # the count last written as a plain line
        self._bar = None
        if self.enabled and is_terminal(self.stream):
            tqdm = _tqdm()
            if tqdm is not None:
                self._bar = tqdm(total=self.total, desc=desc, unit=f" {unit}", file=self.stream, dynamic_ncols=True,
                                 mininterval=0.25, smoothing=0.1, leave=True)

    @property
    def is_bar(self) -> bool:
        """Whether this shows a redrawn bar (a terminal) rather than plain lines."""
        return self._bar is not None

    def update(self, n: int = 1) -> None:
        """``n`` more units finished."""
        if not self.enabled or n <= 0:
            return
        self.done += n
        if self._bar is not None:
            self._bar.update(n)
            return
        now = time.monotonic()
        step = self.done if self.every_unit or self.total is None else self.done * 10 // self.total
        if (step > self._last_step or now - self._last_line >= self.line_every
                or (self.total is not None and self.done >= self.total)):
            self._last_step = step
            self._plain_line(now)

    def advance_to(self, done: int) -> None:
        """Set the count of finished units (a total reported by others)."""
        if done > self.done:
            self.update(done - self.done)

    def info(self, text: str) -> None:
        """The note after the counts (shown with the next redraw or line)."""
        if not self.enabled:
            return
        self.note = text
        if self._bar is not None:
            self._bar.set_postfix_str(text, refresh=False)

    def write(self, text: str) -> None:
        """A line of its own (a generation's summary, a warning), above the bar on a terminal."""
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.write(text, file=self.stream)
        else:
            print(text, file=self.stream, flush=True)

    def close(self) -> None:
        if not self.enabled:
            return
        if self._bar is not None:
            self._bar.close()
            self._bar = None
        elif self.done != self._reported and self.done > 0:
            self._plain_line(time.monotonic())   # the last count, if no line said it yet
        self.enabled = False

    def plain_text(self, now: float | None = None) -> str:
        """``desc: done/total unit (pct%), elapsed, ETA, note``."""
        elapsed = (time.monotonic() if now is None else now) - self.start
        parts = [f"{self.desc}: {self.done}" + (f"/{self.total}" if self.total else "") + f" {self.unit}"]
        if self.total:
            parts[0] += f" ({100 * self.done // self.total}%)"
        parts.append(f"{format_seconds(elapsed)} elapsed")
        if self.total and 0 < self.done < self.total:
            parts.append(f"ETA {format_seconds(elapsed / self.done * (self.total - self.done))}")
        if self.note:
            parts.append(self.note)
        return ", ".join(parts)

    def _plain_line(self, now: float) -> None:
        self._last_line = now
        self._reported = self.done
        print(self.plain_text(now), file=self.stream, flush=True)

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
