"""A game as its plain move text in the game's own notation: the column-digit string of
Connect Four and connect2 (``4453``, columns counted from 1 at the left, as Connect Four
solvers and their test sets write games), and the move lists of the other games
(``b2 a1 c3``, ``f5d6c3``, ``h8 i9``, a xiangqi FEN with ``moves``). The text says nothing
of which game it is, so reading needs the game (the one on the board, or Connect Four for
a string of digits 1-7)."""
from __future__ import annotations

import re

from ..base import NotationError
from .base import Record, RecordFormatError, stated_result

_DIGITS_RE = re.compile(r"[1-7]+", re.ASCII)


def sniff(text: str) -> bool:
    """Is ``text`` a column-digit string (Connect Four's exchange form)?"""
    return bool(_DIGITS_RE.fullmatch("".join(text.split())))


def write(state, meta: dict | None = None) -> str:
    if state.game.id in ("connect4", "connect2"):
        return "".join(state.action_to_text(a) for a in state.moves) + "\n"
    return state.to_text() + "\n"


def read(text: str, game=None, first_line: int = 1) -> Record:
    from .. import get_game
    if game is None:
        if not text.strip():
            raise RecordFormatError("the record is empty", first_line)
        if not sniff(text):
            raise RecordFormatError("not a record ZeroBoard knows: no header names the game", first_line)
        game = get_game("connect4")
    body = " ".join(line.strip() for line in text.splitlines() if line.strip())
    try:
        state = game.state_from_text(body)
    except NotationError as e:
        raise RecordFormatError(str(e), first_line) from None
    except Exception as e:  # a notation bug must not escape as anything but a record error
        raise RecordFormatError(f"the moves cannot be read ({type(e).__name__})", first_line) from None
    return Record(state, {"result": stated_result(state, None), "moves": str(len(state.moves))}, "moves")


def peek(text: str, hint=None):
    record = read(text, hint)
    return record.state.game, record.meta
