"""What every record format shares: the `Record` a reader returns, the error it raises, and
the few helpers (positions in the text, result words, player names) the formats use.

Meta keys (all values are strings; every key is optional):
- ``first_player``, ``second_player``: the players' names (Red/Black, Black/White...);
- ``result``: ``first``, ``second`` (who won), ``draw`` or ``unfinished``, and
  `` (resigned)`` after a win that the board does not show (the loser resigned);
- ``you`` (``first``/``second``) and ``level``: which side the person played and the AI's
  level, for records the app saved (other formats carry them as the AI's player name,
  ``ZeroBoard strong``);
- ``date`` (``YYYY-MM-DD`` with an optional time), ``event``, ``site``, ``app``, ``moves``.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..base import NotationError, State, clip_text

#: a record file larger than this is refused before it is read
MAX_RECORD_BYTES = 1_000_000
#: the AI's player name in records the app writes: "ZeroBoard strong"
AI_NAME = "ZeroBoard"
HUMAN_NAME = "Human"
_AI_NAME_RE = re.compile(r"ZeroBoard(?: \(?([a-z]+)\)?)?")


class RecordFormatError(NotationError):
    """A record that cannot be read; the message names the line (and column) of the fault."""

    def __init__(self, message: str, line: int | None = None, column: int | None = None):
        self.line, self.column, self.reason = line, column, message
        where = ""
        if line is not None:
            where = f"line {line}" + (f", column {column}" if column is not None else "") + ": "
        super().__init__(where + message)


@dataclass
class Record:
    """A game read from (or written to) a record: its final position, with the moves from its
    start position, and the header information (see the module docstring for the keys)."""
    state: State
    meta: dict[str, str] = field(default_factory=dict)
    format: str = ""
    #: the game as a tree (`games.records.tree.GameTree`) when the record holds variations or
    #: comments; its main line ends in ``state``
    tree: object = None
    #: whether the text holds further games after this one (a PGN or SGF collection), which
    #: were not read: one game is read from a file
    more_games: bool = False


def line_col(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of ``offset`` in ``text``."""
    offset = max(0, min(offset, len(text)))
    line = text.count("\n", 0, offset) + 1
    start = text.rfind("\n", 0, offset) + 1
    return line, offset - start + 1


def error_at(text: str, offset: int, message: str) -> RecordFormatError:
    return RecordFormatError(message, *line_col(text, offset))


def play_move(state: State, token: str, where: tuple[int | None, int | None], index: int) -> State:
    """``state`` after the move ``token`` (the game's own notation); a bad or illegal move is a
    RecordFormatError at ``where`` naming the move's number."""
    try:
        return state.play(state.parse_action(token))
    except NotationError as e:
        raise RecordFormatError(f"move {index} ({clip_text(token)!r}): {e}", *where) from None
    except Exception as e:  # a notation bug must not escape a reader as anything but a record error
        raise RecordFormatError(f"move {index} ({clip_text(token)!r}) cannot be read ({type(e).__name__})", *where) from None


def play_action(state: State, action: int, name: str, where: tuple[int | None, int | None], index: int) -> State:
    """``state`` after ``action`` (already decoded from ``name``), checked for legality."""
    try:
        return state.play(action)
    except NotationError as e:
        raise RecordFormatError(f"move {index} ({clip_text(name)!r}): {e}", *where) from None


def result_of(state: State, meta: dict) -> str:
    """The result to write: the board's when the game is over, else the meta's (a resignation),
    else ``unfinished``."""
    if state.is_terminal():
        w = state.winner()
        return "draw" if w is None else ("first" if w == 0 else "second")
    res = str(meta.get("result", "unfinished"))
    return res if res.split(" ")[0] in ("first", "second", "draw") else "unfinished"


def stated_result(state: State, winner: str | None) -> str:
    """The meta ``result`` for a record that says ``winner`` ("first", "second", "draw" or None):
    a win the board does not show is a resignation; a finished board speaks for itself."""
    if state.is_terminal():
        w = state.winner()
        return "draw" if w is None else ("first" if w == 0 else "second")
    if winner in ("first", "second"):
        return winner + " (resigned)"
    if winner == "draw":
        return "draw"
    return "unfinished"


def player_names(meta: dict) -> tuple[str, str]:
    """(first, second) player names to write: the meta's, else "Human" and "ZeroBoard <level>"
    from ``you`` and ``level``, else empty."""
    names = [str(meta.get("first_player", "")), str(meta.get("second_player", ""))]
    you = meta.get("you")
    if you in ("first", "second"):
        ai = AI_NAME + (f" {meta['level']}" if meta.get("level") else "")
        me = 0 if you == "first" else 1
        names[me] = names[me] or HUMAN_NAME
        names[1 - me] = names[1 - me] or ai
    return names[0], names[1]


def who_is_who(meta: dict) -> None:
    """Fill ``you`` and ``level`` from the player names when exactly one is the app's AI."""
    if "you" in meta:
        return
    ai = [bool(_AI_NAME_RE.fullmatch(meta.get(k, "").strip())) for k in ("first_player", "second_player")]
    if ai.count(True) == 1:
        side = ai.index(True)
        meta["you"] = "second" if side == 0 else "first"
        level = _AI_NAME_RE.fullmatch(meta[("first_player", "second_player")[side]].strip()).group(1)
        if level:
            meta["level"] = level


def clean_date(text: str) -> str:
    """``2026-11-25`` from the date spellings records use (``2026.11.25``, ``2026/11/25``,
    ``2026-11-25 14:03:55``); "" when the text holds no date. Unknown parts (``??``) are dropped."""
    m = re.match(r"\s*(\d{4})(?:[.\-/](\d{1,2}|\?\?)(?:[.\-/](\d{1,2}|\?\?))?)?(?:[ T](\d{1,2}:\d{2}(?::\d{2})?))?",
                 text, re.ASCII)
    if not m:
        return ""
    parts = [m.group(1)] + [p.zfill(2) for p in (m.group(2), m.group(3)) if p and p.isdigit()]
    date = "-".join(parts)
    return date + (f" {m.group(4)}" if m.group(4) and len(parts) == 3 else "")


# --- analysis kept in a record ------------------------------------------------------------------
#: a record's analysis (meta ``analysis``): for each analysed position, its ply (moves from the
#: game's start) and fields: ``v`` player 0's expected result (-1..1, written exactly), ``n``
#: the search's visits, ``best`` its best move in the game's notation, ``proven`` an exact result;
#: ``level`` (meta ``analysis_level``) the search level. SGF and PGN carry each position's
#: fields in a comment ``ZeroBoard analysis v=... n=... best=...`` on its move; the text record
#: carries the whole string in its ``# analysis:`` header.
ANALYSIS_PREFIX = "ZeroBoard analysis"
_ANALYSIS_COMMENT_RE = re.compile(re.escape(ANALYSIS_PREFIX) + r"((?:\s+[a-z]+=[^\s;{}\[\]]+)+)")
_FIELD_RES = {"v": re.compile(r"[-+]?(?:[0-9]*\.[0-9]+|[0-9]+)(?:e-?[0-9]+)?", re.ASCII),
              "n": re.compile(r"[0-9]{1,12}", re.ASCII),
              "best": re.compile(r"[A-Za-z0-9+=.\-/]{1,24}", re.ASCII),
              "proven": re.compile(r"[-+]?(?:1|0)(?:\.0)?", re.ASCII),
              "level": re.compile(r"[a-z]{1,16}", re.ASCII)}


def analysis_fields(text: str) -> dict[str, str]:
    """The known, well-formed fields of ``v=... n=...`` text (the others are dropped)."""
    out = {}
    for part in text.split():
        key, sep, value = part.partition("=")
        rx = _FIELD_RES.get(key)
        if sep and rx is not None and rx.fullmatch(value) and key not in out:
            if key == "v" and not -1.0 <= float(value) <= 1.0:
                continue
            out[key] = value
    return out if "v" in out else {}


def unpack_analysis(packed: str) -> dict[int, dict[str, str]]:
    """meta ``analysis`` as {ply: fields}; malformed entries are dropped."""
    out = {}
    for entry in str(packed or "").split(";"):
        ply, _, rest = entry.strip().partition(" ")
        if ply.isdigit() and len(ply) <= 6:
            fields = analysis_fields(rest)
            if fields:
                out[int(ply)] = fields
    return out


def pack_analysis(entries: dict[int, dict[str, str]]) -> str:
    """{ply: fields} as meta ``analysis`` (see `unpack_analysis`)."""
    return ";".join(f"{ply} " + " ".join(f"{k}={v}" for k, v in fields.items() if k != "level")
                    for ply, fields in sorted(entries.items()) if fields)


def analysis_comment(fields: dict[str, str], level: str = "") -> str:
    """A position's analysis as a record's comment."""
    words = [f"{k}={v}" for k, v in fields.items() if k != "level"]
    if level and _FIELD_RES["level"].fullmatch(level):
        words.append(f"level={level}")
    return ANALYSIS_PREFIX + " " + " ".join(words)


def read_analysis_comment(comment: str) -> dict[str, str]:
    """The analysis fields of a comment the app wrote ({} for any other comment)."""
    m = _ANALYSIS_COMMENT_RE.search(comment or "")
    return analysis_fields(m.group(1)) if m else {}


def strip_analysis_comment(comment: str) -> str:
    """A comment without the analysis the app wrote into it (what a person wrote, if anything)."""
    return _ANALYSIS_COMMENT_RE.sub("", comment or "").strip()


def keep_analysis(meta: dict, found: dict[int, dict[str, str]]) -> None:
    """Put the analysis a reader found in comments into ``meta``."""
    level = next((f["level"] for f in found.values() if "level" in f), "")
    packed = pack_analysis(found)
    if packed:
        meta["analysis"] = packed
        if level:
            meta["analysis_level"] = level


# --- clocks kept in a record ----------------------------------------------------------------------
#: meta ``time_control``: the control the game was played under, ``600`` (sudden death, seconds),
#: ``600+5`` (with a Fischer increment) or ``600 3x30`` (byo-yomi: three periods of 30 s);
#: meta ``clocks``: after each timed move, its ply (moves from the game's start) and the mover's
#: time left in seconds (and byo-yomi periods left), ``1 595.2;2 598.7 3``. PGN writes them as
#: ``[TimeControl "600+5"]`` and a ``{[%clk 0:09:55]}`` comment after each move; SGF as ``TM``/``OT``
#: in the root and ``BL``/``WL`` (``OB``/``OW``: periods) on each move; the text record as headers.
#: A game lost on time has the result ``first (time)`` or ``second (time)`` (PGN's Termination
#: "time forfeit", SGF's ``RE[B+T]``).
_CONTROL_RE = re.compile(r"([0-9]{1,5}(?:\.[0-9])?)(?:\+([0-9]{1,4}(?:\.[0-9])?))?(?: ([0-9]{1,2})x([0-9]{1,4}(?:\.[0-9])?))?",
                         re.ASCII)
_CLOCK_ENTRY_RE = re.compile(r"([0-9]{1,6}) ([0-9]{1,6}(?:\.[0-9]{1,3})?)(?: ([0-9]{1,2}))?", re.ASCII)
#: any ``[%clk ...]`` command, well formed or not (taken out of the comment kept as a person's words)
_CLK_ANY_RE = re.compile(r"\[%clk\b[^\]]*\]", re.ASCII)
_CLK_COMMENT_RE = re.compile(r"\[%clk\s+(?:([0-9]{1,3}):)?([0-9]{1,2}):([0-9]{1,2}(?:\.[0-9]{1,3})?)\s*\]", re.ASCII)


def control_parts(text) -> tuple[float, float, int, float] | None:
    """(main, increment, periods, period) of a meta ``time_control``; None when it is not one."""
    m = _CONTROL_RE.fullmatch(str(text or "").strip())
    if not m:
        return None
    main, inc = float(m.group(1)), float(m.group(2) or 0)
    periods, period = int(m.group(3) or 0), float(m.group(4) or 0)
    if main <= 0 and not (periods and period > 0):
        return None
    return main, inc, periods, period


def control_text(main: float, inc: float = 0.0, periods: int = 0, period: float = 0.0) -> str:
    """A meta ``time_control`` from its parts (see `control_parts`)."""
    def num(x):
        return str(int(x)) if float(x).is_integer() else f"{x:.1f}"
    out = num(main) + (f"+{num(inc)}" if inc > 0 else "")
    return out + (f" {int(periods)}x{num(period)}" if periods and period > 0 else "")


def unpack_clocks(packed) -> dict[int, tuple[float, int | None]]:
    """meta ``clocks`` as {ply: (seconds left, periods left or None)}; malformed entries dropped."""
    out = {}
    for entry in str(packed or "").split(";"):
        m = _CLOCK_ENTRY_RE.fullmatch(entry.strip())
        if m:
            out[int(m.group(1))] = (float(m.group(2)), int(m.group(3)) if m.group(3) else None)
    return out


def pack_clocks(entries: dict[int, tuple[float, int | None]]) -> str:
    """{ply: (seconds, periods or None)} as meta ``clocks``."""
    parts = []
    for ply, (seconds, periods) in sorted(entries.items()):
        s = f"{ply} {max(0.0, float(seconds)):.1f}"
        parts.append(s + (f" {int(periods)}" if periods is not None else ""))
    return ";".join(parts)


def clk_comment(seconds: float) -> str:
    """``[%clk 0:09:55]``: time left after a move, as PGN writes it (whole seconds, rounded down)."""
    s = int(max(0.0, float(seconds)))
    return f"[%clk {s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}]"


def read_clk_comment(comment: str) -> float | None:
    """The seconds of a ``[%clk H:MM:SS]`` in a comment, or None."""
    m = _CLK_COMMENT_RE.search(comment or "")
    if not m:
        return None
    minutes, seconds = int(m.group(2)), float(m.group(3))
    if minutes >= 60 or seconds >= 60:
        return None
    return int(m.group(1) or 0) * 3600 + minutes * 60 + seconds


def strip_clk_comment(comment: str) -> str:
    """A comment without its ``[%clk ...]`` commands (what is left of a person's words)."""
    return " ".join(_CLK_ANY_RE.sub(" ", comment or "").split())


def lost_on_time(meta: dict) -> str | None:
    """"first" or "second": the side that won on time, by the meta's ``result``; else None."""
    result = str(meta.get("result", ""))
    return result.split(" ")[0] if result.endswith(" (time)") and result.split(" ")[0] in ("first", "second") \
        else None
