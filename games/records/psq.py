"""Piskvork's ``.psq`` gomoku records (the Gomocup manager's format).

As Piskvork writes it::

    Piskvorky 15x15, 0:4, 0
    8,8,0
    9,9,1203
    ...

The first line gives the board (width x height), each player's computer level (0: a
person) and which player moved first; then one ``x,y,time`` line per move, x the column
and y the row from the top-left, both counted from 1, and the time in milliseconds. After
the moves Piskvork may add the players' program names and an end code; those lines are
read past. Written: the level of the side the person played is 0, the AI's 4 (Piskvork's
one-second level); times are 0. The format has no field for the rule: a standard or renju game
ends with a line ``rule: standard`` or ``rule: renju`` after the moves (where Piskvork's own
trailing lines go, which readers skip), read back as the game's rule (a Gomocup rule number,
``rule: 4``, also reads); without it a record is free-style.
"""
from __future__ import annotations

import re

from .base import Record, RecordFormatError, play_action, stated_result

_HEADER_RE = re.compile(r"\s*Piskvorky\s+([0-9]{1,3})\s*x\s*([0-9]{1,3})\s*,\s*(-?[0-9]{1,6})\s*:\s*(-?[0-9]{1,6})"
                        r"\s*,\s*([0-9]{1,6})\s*$", re.ASCII)
_RULE_RE = re.compile(r"\s*rule\s*[:=]?\s*([A-Za-z0-9-]{1,20})\s*$", re.ASCII | re.IGNORECASE)
_MOVE_RE = re.compile(r"\s*(-?[0-9]{1,6})\s*,\s*(-?[0-9]{1,6})\s*(?:,\s*(-?[0-9]{1,12})\s*)?$", re.ASCII)
AI_LEVEL = 4


def sniff(text: str) -> bool:
    return text.lstrip().startswith("Piskvorky")


def _header(lines: list[str]):
    from .. import get_game
    if not lines or not _HEADER_RE.match(lines[0]):
        raise RecordFormatError("the first line must read like 'Piskvorky 15x15, 11:11, 0'", 1)
    m = _HEADER_RE.match(lines[0])
    width, height, level0, level1, starter = (int(g) for g in m.groups())
    if width != height:
        raise RecordFormatError(f"a {width}x{height} board: only square boards are read", 1)
    try:
        game = get_game("gomoku", size=width, rule=_rule(lines))
    except ValueError as e:
        raise RecordFormatError(str(e), 1) from None
    if starter not in (0, 1):
        raise RecordFormatError(f"the first player must be 0 or 1, not {starter}", 1)
    levels = (level0, level1) if starter == 0 else (level1, level0)   # by order of play
    meta = {}
    if (levels[0] == 0) != (levels[1] == 0):
        meta["you"] = "first" if levels[0] == 0 else "second"
    return game, meta


def _rule(lines: list[str]) -> str:
    """The rule a ``rule: NAME`` line after the header names (the last one), else freestyle;
    RecordFormatError for a name that is not a rule set."""
    from ..renju import rule_from_gomocup, rule_from_name
    for number in range(len(lines) - 1, 0, -1):
        m = _RULE_RE.match(lines[number])
        if m:
            word = m.group(1)
            try:
                return rule_from_gomocup(word) if word.isdigit() else rule_from_name(word)
            except ValueError as e:
                raise RecordFormatError(str(e), number + 1) from None
    return "freestyle"


def read(text: str, hint=None) -> Record:
    lines = text.splitlines()
    game, meta = _header(lines)
    state = game.initial_state()
    count = 0
    ended_at = None
    for number, line in enumerate(lines[1:], start=2):
        if not line.strip():
            continue
        m = _MOVE_RE.match(line)
        if m is None:
            ended_at = ended_at or number   # program names and the end code follow the moves
            continue
        if ended_at is not None:
            raise RecordFormatError(f"a move after the end of the move list (line {ended_at})", number)
        x, y = int(m.group(1)), int(m.group(2))
        count += 1
        if not (1 <= x <= game.size and 1 <= y <= game.size):
            raise RecordFormatError(f"move {count} ({x},{y}) is off the {game.size}x{game.size} board "
                                    f"(1-{game.size})", number)
        action = (y - 1) * game.size + (x - 1)
        state = play_action(state, action, f"{x},{y}", (number, None), count)
    meta["result"] = stated_result(state, None)
    meta["moves"] = str(len(state.moves))
    return Record(state, meta, "psq")


def peek(text: str, hint=None):
    lines = text.splitlines()
    game, meta = _header(lines)
    meta["moves"] = str(sum(1 for line in lines[1:] if _MOVE_RE.match(line)))
    meta["result"] = "unfinished"
    return game, meta


def write(state, meta: dict | None = None) -> str:
    meta = meta or {}
    game = state.game
    if game.id != "gomoku":
        raise ValueError("psq records are written for gomoku only")
    you = meta.get("you")
    levels = (0 if you == "first" else AI_LEVEL, 0 if you == "second" else AI_LEVEL) if you in ("first", "second") \
        else (0, 0)
    lines = [f"Piskvorky {game.size}x{game.size}, {levels[0]}:{levels[1]}, 0"]
    for a in state.moves:
        row, col = divmod(a, game.size)
        lines.append(f"{col + 1},{row + 1},0")
    if getattr(game, "rule", "freestyle") != "freestyle":
        lines.append(f"rule: {game.rule}")
    return "\n".join(lines) + "\n"
