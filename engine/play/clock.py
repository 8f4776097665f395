"""Time controls and game clocks: what a person chooses when a game starts, the two clocks
that run during it, how they are written in records, and how the AI plans its time from its
clock (`clock_budget`).

Kinds of control: none; sudden death (``main`` seconds for the whole game); increment
(Fischer: ``increment`` seconds added after each move); byo-yomi (after the main time,
``periods`` periods of ``period`` seconds each: a move made within a period keeps it, a
period that runs out is lost, and the side that loses its last one loses the game).

Every time here is in seconds and every call that depends on the time takes ``now`` (a
`time.monotonic` value), so the clock is exact in tests and the caller decides when a move
was made (the moment the AI's answer arrived, not the moment it was drawn).
This module imports nothing but the standard library: the window's process uses it.
"""
from __future__ import annotations

import math
import re
from dataclasses import dataclass

__all__ = ["TimeControl", "GameClock", "clock_budget", "moves_to_go", "parse_control", "format_clock",
           "parse_clock", "NO_CONTROL", "BUDGET_RESERVE", "BUDGET_FLOOR", "BUDGET_LAG"]

#: the longest main time, increment and period a control may have (a day), and the most periods
MAX_SECONDS = 86400.0
MAX_PERIODS = 99


@dataclass(frozen=True)
class TimeControl:
    """A time control; all zeros is none."""
    main: float = 0.0        # seconds each side starts with
    increment: float = 0.0   # Fischer increment, added to the mover's clock after each move
    periods: int = 0         # byo-yomi periods after the main time
    period: float = 0.0      # seconds in each byo-yomi period

    @property
    def kind(self) -> str:
        """"none", "sudden", "increment" or "byoyomi"."""
        if self.periods and self.period > 0:
            return "byoyomi"
        if self.main <= 0:
            return "none"
        return "increment" if self.increment > 0 else "sudden"

    @property
    def timed(self) -> bool:
        return self.kind != "none"

    def text(self) -> str:
        """The control as records write it: ``600`` (sudden death), ``600+5`` (increment),
        ``600 3x30`` (byo-yomi), ``-`` (none); `parse_control` reads it back."""
        kind = self.kind
        if kind == "none":
            return "-"
        out = _num(self.main)
        if self.increment > 0:
            out += f"+{_num(self.increment)}"
        if kind == "byoyomi":
            out += f" {self.periods}x{_num(self.period)}"
        return out


NO_CONTROL = TimeControl()


def _num(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else f"{x:.1f}"


_CONTROL_RE = re.compile(r"\s*([0-9]{1,5}(?:\.[0-9])?)\s*(?:\+\s*([0-9]{1,4}(?:\.[0-9])?))?"
                         r"(?:\s*(?:/|\s)\s*([0-9]{1,2})\s*[x×]\s*([0-9]{1,4}(?:\.[0-9])?)"
                         r"(?:\s*(?:byo-?yomi|byoyomi))?)?\s*", re.ASCII | re.IGNORECASE)


def parse_control(text) -> TimeControl | None:
    """The control in ``text`` as `TimeControl.text` writes it (also PGN's ``300+5``), `NO_CONTROL`
    for ``-``, ``""`` or ``none``; None when it is not one (a record's odd value is ignored)."""
    if not isinstance(text, str):
        return None
    s = text.strip()
    if s.lower() in ("", "-", "?", "none"):
        return NO_CONTROL
    m = _CONTROL_RE.fullmatch(s)
    if not m:
        return None
    main = float(m.group(1))
    inc = float(m.group(2) or 0)
    periods = int(m.group(3) or 0)
    period = float(m.group(4) or 0)
    if main > MAX_SECONDS or inc > MAX_SECONDS or period > MAX_SECONDS or periods > MAX_PERIODS:
        return None
    if (m.group(3) is not None) and (periods <= 0 or period <= 0):
        return None
    control = TimeControl(main, inc, periods, period)
    return control if control.timed else NO_CONTROL


def format_clock(seconds: float, tenths: bool = False) -> str:
    """``H:MM:SS`` as PGN's ``[%clk]`` writes it; with ``tenths``, ``M:SS`` (and ``S.s`` below
    ten seconds) for the window's clocks."""
    seconds = max(0.0, float(seconds))
    if tenths:
        if seconds < 10:
            return f"{math.floor(seconds * 10) / 10:.1f}"
        s = int(math.ceil(seconds - 1e-9)) if seconds < 60 else int(seconds)
        h, rest = divmod(s, 3600)
        m, sec = divmod(rest, 60)
        return f"{h}:{m:02d}:{sec:02d}" if h else f"{m}:{sec:02d}"
    s = int(round(seconds))
    h, rest = divmod(s, 3600)
    m, sec = divmod(rest, 60)
    return f"{h}:{m:02d}:{sec:02d}"


_CLK_RE = re.compile(r"\s*(?:([0-9]{1,3}):)?([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,3})?)\s*", re.ASCII)


def parse_clock(text) -> float | None:
    """Seconds from ``H:MM:SS`` (or ``M:SS``, seconds may have a fraction); None otherwise."""
    m = _CLK_RE.fullmatch(str(text))
    if not m:
        return None
    h, mi, s = int(m.group(1) or 0), int(m.group(2)), float(m.group(3))
    if mi >= 60 or s >= 60:
        return None
    return h * 3600 + mi * 60 + s


class GameClock:
    """Two clocks under one control. ``left[p]``: player p's main time left; ``periods_left[p]``:
    byo-yomi periods left; ``used[p]``: seconds of the current period used before a pause. At
    most one clock runs (``running``); `press` ends a move."""

    def __init__(self, control: TimeControl):
        self.control = control
        self.left = [float(control.main)] * 2
        self.periods_left = [int(control.periods)] * 2
        self.used = [0.0, 0.0]
        self.running: int | None = None
        self.since = 0.0
        self.flagged: int | None = None  # the player whose time ran out

    # --- reading ---------------------------------------------------------------------
    def _spend(self, player: int, elapsed: float) -> tuple[float, int, float, bool]:
        """(main left, periods left, the current period's time left, out of time) for ``player``
        after ``elapsed`` more seconds of thinking; nothing changes."""
        c = self.control
        left, periods = self.left[player], self.periods_left[player]
        t = max(0.0, elapsed)
        use = min(left, t)
        left -= use
        t -= use
        if c.kind != "byoyomi":
            return left, 0, 0.0, t > 0
        if left > 0:
            return left, periods, c.period, False
        t += self.used[player]
        lost = int(t // c.period)
        if lost >= periods:
            return 0.0, 0, 0.0, True
        return 0.0, periods - lost, c.period - (t - lost * c.period), False

    def elapsed(self, now: float) -> float:
        return max(0.0, now - self.since) if self.running is not None else 0.0

    def remaining(self, player: int, now: float) -> float:
        """What ``player`` may still think before losing on time: the main time, plus every
        byo-yomi period left (the current one partly used)."""
        e = self.elapsed(now) if self.running == player else 0.0
        left, periods, period_left, out = self._spend(player, e)
        if out or self.flagged == player:
            return 0.0
        if self.control.kind == "byoyomi":
            return left + (period_left + (periods - 1) * self.control.period if periods else 0.0)
        return left

    def display(self, player: int, now: float) -> tuple[float, int | None]:
        """(seconds to show, byo-yomi periods left or None): the main time, or once it is used up
        the current period's time."""
        byo = self.control.kind == "byoyomi"
        e = self.elapsed(now) if self.running == player else 0.0
        left, periods, period_left, out = self._spend(player, e)
        if out or self.flagged == player:
            return 0.0, (0 if byo else None)
        if byo:
            return (left if left > 0 else period_left), periods
        return left, None

    def check_flag(self, now: float) -> int | None:
        """The player whose time has run out (now or before), or None."""
        if self.flagged is None and self.running is not None and self.control.timed:
            if self._spend(self.running, self.elapsed(now))[3]:
                self._charge(self.running, self.elapsed(now))
                self.running = None
        return self.flagged

    # --- running ---------------------------------------------------------------------
    def start(self, player: int, now: float) -> None:
        """``player``'s clock runs from ``now`` (the other's stops, its time charged)."""
        if self.running == player or self.flagged is not None or not self.control.timed:
            return
        self.stop(now)
        self.running = player
        self.since = now

    def stop(self, now: float) -> None:
        """The running clock stops (its time charged); the move is not over (no increment)."""
        if self.running is None:
            return
        self._charge(self.running, self.elapsed(now))
        self.running = None

    def _charge(self, player: int, elapsed: float) -> bool:
        """Charge ``elapsed`` to ``player``; False (and ``flagged``) when it ran out of time."""
        left, periods, period_left, out = self._spend(player, elapsed)
        if out:
            self.flagged = player
            self.left[player], self.periods_left[player], self.used[player] = 0.0, 0, 0.0
            return False
        self.left[player], self.periods_left[player] = left, periods
        byo_time = self.control.kind == "byoyomi" and left <= 0
        self.used[player] = self.control.period - period_left if byo_time else 0.0
        return True

    def press(self, player: int, now: float, next_player: int | None = None) -> bool:
        """``player`` ends a move at ``now``: its time is charged, its increment added (byo-yomi:
        the next period starts afresh), and ``next_player``'s clock starts. False when the move
        came too late (``player`` lost on time)."""
        if self.flagged == player:
            return False
        if self.running == player:
            self.running = None
            if not self._charge(player, max(0.0, now - self.since)):
                return False
        self.left[player] += self.control.increment
        self.used[player] = 0.0
        if next_player is not None:
            self.start(next_player, now)
        return True

    # --- snapshots (take-backs, records, autosave) -------------------------------------
    def snapshot(self) -> tuple[float, float, int, int]:
        """(left 0, left 1, periods left 0, periods left 1) with no clock running."""
        return (self.left[0], self.left[1], self.periods_left[0], self.periods_left[1])

    def restore(self, snap) -> None:
        """Back to a `snapshot` (stopped, nobody out of time); a malformed one is ignored."""
        try:
            l0, l1, p0, p1 = (float(snap[0]), float(snap[1]), int(snap[2]), int(snap[3]))
        except (TypeError, ValueError, IndexError):
            return
        if not all(0 <= x <= MAX_SECONDS * 2 for x in (l0, l1)) or not all(0 <= p <= MAX_PERIODS for p in (p0, p1)):
            return
        self.left = [l0, l1]
        self.periods_left = [p0, p1]
        self.used = [0.0, 0.0]
        self.running = None
        self.flagged = None


#: seconds the AI keeps back for what happens around its search: the request's trip to the AI
#: process, a search step that overruns its deadline on a loaded machine, the answer's trip back
BUDGET_RESERVE = 0.5
#: what a move is expected to cost besides its search (seconds): the request's and the answer's
#: trips between the processes and a search step past the deadline on a loaded machine
BUDGET_LAG = 0.25
#: the least a search is given (it then plays the move its first look prefers)
BUDGET_FLOOR = 0.02


def moves_to_go(game, ply: int) -> int:
    """How many more moves the side to move is planned to make: half the plies the game may
    still last (its ``max_game_length``, at most 120 counted), between 6 and 30."""
    length = min(int(getattr(game, "max_game_length", 0) or 120), 120)
    return int(max(6, min(30, math.ceil((length - ply) / 2) + 2)))


def clock_budget(remaining: float, increment: float = 0.0, moves: int = 20, period: float = 0.0,
                 periods: int = 0, reserve: float = BUDGET_RESERVE, lag: float = BUDGET_LAG) -> float:
    """Seconds to think on this move, from the clock: an even share of the main time over the
    ``moves`` still to play plus most of the increment, less ``lag`` (what a move costs besides
    its search), and never more than a third of what is left after ``reserve``; in byo-yomi
    (``remaining`` the main time, 0 once used up) most of a period. At least `BUDGET_FLOOR`."""
    remaining = max(0.0, float(remaining))
    increment = max(0.0, float(increment))
    moves = max(1, int(moves))
    if periods > 0 and period > 0:
        in_period = max(BUDGET_FLOOR, 0.8 * period - reserve)
        if remaining <= 0:
            return in_period
        return max(BUDGET_FLOOR, remaining / moves + in_period * 0.5)
    share = remaining / moves + 0.8 * increment - lag
    cap = max(0.0, remaining - reserve) / 3 + 0.5 * increment * (remaining > reserve + increment)
    return max(BUDGET_FLOOR, min(share, cap))
