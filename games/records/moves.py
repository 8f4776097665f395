"""A game as its plain move text in the game's own notation: the column-digit string of
Connect Four and connect2 (``4453``, columns counted from 1 at the left, as Connect Four
solvers and their test sets write games), and the move lists of the other games
(``b2 a1 c3``, ``f5d6c3``, ``h8 i9``, a xiangqi FEN with ``moves``).

The text does not name its game, so the game is found from the text: the games whose
notation replays the whole text are the candidates, and the first of them in this order
wins: the ``hint`` (the game on the board, or the one a file's name names), then xiangqi,
Connect Four, othello, tic-tac-toe, gomoku, connect2. Only tic-tac-toe and gomoku (``b2 a1``
is a move list of both) and connect2 and Connect Four (``241``) share texts; the app
therefore saves those two small games only as its text record, which names them
(see `games.records.formats_for`)."""
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


#: the order in which a move list that no hint claims is tried
ORDER = ("xiangqi", "connect4", "othello", "tictactoe", "gomoku", "connect2")
#: the games whose move lists other games also read: never saved in this format
AMBIGUOUS = ("tictactoe", "connect2")
_MOVE_NUMBER_RE = re.compile(r"move (\d+)", re.ASCII)


def replay(text: str, game, first_line: int = 1) -> Record:
    """The moves ``text`` of the game ``game`` (a record that names its game); RecordFormatError
    when they do not replay to their end."""
    body = " ".join(line.strip() for line in text.splitlines() if line.strip())
    try:
        state = game.state_from_text(body)
    except NotationError as e:
        raise RecordFormatError(str(e), first_line) from None
    except Exception as e:  # a notation bug must not escape as anything but a record error
        raise RecordFormatError(f"the moves cannot be read ({type(e).__name__})", first_line) from None
    return Record(state, {"result": stated_result(state, None), "moves": str(len(state.moves))}, "moves")


def _candidates(hint):
    from .. import get_game
    out = [hint] if hint is not None else []
    for game_id in ORDER:
        game = get_game(game_id)
        if hint is None or game.key != hint.key:
            out.append(game)
    return out


def read(text: str, game=None, first_line: int = 1) -> Record:
    """The game the move list ``text`` replays to its end, found as the module docstring
    says (``game`` is the hint); RecordFormatError when no game reads all of it, with the
    reason of the hint's game, else of the game that read the most moves."""
    body = " ".join(line.strip() for line in text.splitlines() if line.strip())
    if not body:
        if game is None:
            raise RecordFormatError("the record is empty", first_line)
        return replay(body, game, first_line)   # the start position of the game on the board
    errors = []
    for candidate in _candidates(game):
        try:
            state = candidate.state_from_text(body)
        except NotationError as e:
            errors.append((candidate, str(e)))
            continue
        except Exception as e:  # a notation bug must not escape as anything but a record error
            errors.append((candidate, f"the moves cannot be read ({type(e).__name__})"))
            continue
        return Record(state, {"result": stated_result(state, None), "moves": str(len(state.moves))}, "moves")
    if game is not None:
        raise RecordFormatError(errors[0][1], first_line)

    def reached(item):
        m = _MOVE_NUMBER_RE.match(item[1])
        return int(m.group(1)) if m else 0
    best = max(errors, key=reached)
    if reached(best) <= 1:
        raise RecordFormatError("not a record ZeroBoard knows: no header names the game, and the text is "
                                "no game's moves", first_line)
    raise RecordFormatError(f"{best[0].name}: {best[1]}", first_line)


def peek(text: str, hint=None):
    record = read(text, hint)
    return record.state.game, record.meta
