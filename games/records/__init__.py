"""Game records in each game's exchange formats, read and written.

| format | games | file | what other programs write it |
|---|---|---|---|
| ``pgn`` | xiangqi | ``.pgn`` | XQBase, XQ Wizard, ChessDB (ICCS, WXF or Chinese movetext) |
| ``sgf`` | gomoku (GM[4]), othello (GM[2]) | ``.sgf`` | gomoku boards, Edax, Cassio |
| ``psq`` | gomoku | ``.psq`` | Piskvork, the Gomocup manager |
| ``moves`` | all but tic-tac-toe, connect2 (Connect Four's ``4453``) | ``.txt`` | Connect Four solvers |
| ``zeroboard`` | all | ``.txt`` | this app (``# key: value`` headers, then the moves) |

`read_record` finds the format from the text (and the file name's extension), `write_record`
writes one, `load_bytes` decodes a file's bytes first (UTF-8, UTF-16 with a BOM, and the
GB18030 and Big5 encodings Chinese-chess files often use). Every reader raises
`RecordFormatError` (a `NotationError`) naming the line of the fault, and nothing else.
This package needs only the rules and their notation, so the engine and the GUI both use it.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from ..base import Game, State
from . import moves, pgn, psq, sgf, zeroboard
from .base import MAX_RECORD_BYTES, Record, RecordFormatError

__all__ = ["TREE_FORMATS", "FORMATS", "DEFAULT_FORMAT", "EXTENSIONS", "MAX_RECORD_BYTES", "Format", "Record", "RecordFormatError",
           "decode", "default_format", "formats_for", "load_bytes", "peek_record", "read_record", "write_record"]


@dataclass(frozen=True)
class Format:
    id: str
    name: str
    extension: str
    games: tuple[str, ...]
    sniff: Callable[[str], bool]
    read: Callable[..., Record]
    peek: Callable
    write: Callable[..., str]


ALL_GAMES = ("tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi")
FORMATS: dict[str, Format] = {f.id: f for f in (
    Format("zeroboard", "ZeroBoard text", ".txt", ALL_GAMES, zeroboard.sniff, zeroboard.read, zeroboard.peek,
           zeroboard.write),
    Format("sgf", "SGF", ".sgf", ("gomoku", "othello"), sgf.sniff, sgf.read, sgf.peek, sgf.write),
    Format("psq", "Piskvork PSQ", ".psq", ("gomoku",), psq.sniff, psq.read, psq.peek, psq.write),
    Format("pgn", "PGN", ".pgn", ("xiangqi",), pgn.sniff, pgn.read, pgn.peek, pgn.write),
    # tic-tac-toe's and connect2's bare move lists read as gomoku and Connect Four too (see
    # `games.records.moves`): they are saved as the app's text record, which names its game
    Format("moves", "Moves", ".txt", tuple(g for g in ALL_GAMES if g not in moves.AMBIGUOUS), moves.sniff,
           moves.read, moves.peek, moves.write),
)}
#: the format the app saves each game in: the game's exchange format where it has one that
#: keeps the players and the result; Connect Four's column string and tic-tac-toe's move list
#: keep neither, so those games are saved as the app's text record, whose last line is that string
DEFAULT_FORMAT = {"xiangqi": "pgn", "gomoku": "sgf", "othello": "sgf",
                  "connect4": "zeroboard", "connect2": "zeroboard", "tictactoe": "zeroboard"}
#: the formats that keep variations and comments (the others keep the main line)
TREE_FORMATS = ("sgf", "pgn", "zeroboard")
#: file extensions the app lists and opens
EXTENSIONS = (".txt", ".pgn", ".sgf", ".psq")
_BY_EXTENSION = {".pgn": "pgn", ".sgf": "sgf", ".psq": "psq"}


def formats_for(game_id: str) -> list[Format]:
    """The formats that can hold a game of ``game_id``, its default first."""
    first = DEFAULT_FORMAT.get(game_id, "zeroboard")
    return [FORMATS[first]] + [f for f in FORMATS.values() if game_id in f.games and f.id != first]


def default_format(game_id: str) -> Format:
    return FORMATS[DEFAULT_FORMAT.get(game_id, "zeroboard")]


def _strip(text: str) -> str:
    return text[1:] if text.startswith("\ufeff") else text


def detect(text: str, name: str = "") -> Format | None:
    """The format of a record's text: from its content first, then from the file name's extension."""
    text = _strip(text)
    for fid in ("zeroboard", "sgf", "psq", "pgn"):
        if FORMATS[fid].sniff(text):
            return FORMATS[fid]
    ext = name[name.rfind("."):].lower() if "." in name else ""
    if ext in _BY_EXTENSION:
        return FORMATS[_BY_EXTENSION[ext]]
    return None


def read_record(text: str, game: Game | None = None, name: str = "", fmt: str | None = None) -> Record:
    """A record from its text, in any format this package reads. ``game`` is the game to read
    text that does not name its game (a plain move list) for; ``name`` a file name whose
    extension helps when the content does not tell. Raises RecordFormatError only."""
    text = _strip(text)
    if len(text) > MAX_RECORD_BYTES:
        raise RecordFormatError(f"the record is larger than {MAX_RECORD_BYTES // 1000} kB")
    if not text.strip() and game is None:
        raise RecordFormatError("the record is empty")
    f = FORMATS[fmt] if fmt else detect(text, name)
    try:
        if f is None:
            return moves.read(text, game)
        return f.read(text, game)
    except RecordFormatError:
        raise
    except RecursionError:
        raise RecordFormatError("the record is nested too deeply") from None
    except Exception as e:  # a reader bug must still come out as a record error
        raise RecordFormatError(f"the record cannot be read ({type(e).__name__}: {str(e)[:80]})") from None


def peek_record(text: str, game: Game | None = None, name: str = "") -> tuple[Game, dict]:
    """(game, meta) of a record from its header alone, without replaying the moves where the
    format allows (for listing many files quickly). Raises RecordFormatError only."""
    text = _strip(text)
    if len(text) > MAX_RECORD_BYTES:   # the header scan of a huge text costs seconds and GB
        raise RecordFormatError(f"the record is larger than {MAX_RECORD_BYTES // 1000} kB")
    if not text.strip() and game is None:
        raise RecordFormatError("the file is empty")
    f = detect(text, name)
    try:
        return (f or FORMATS["moves"]).peek(text, game)
    except RecordFormatError:
        raise
    except RecursionError:
        raise RecordFormatError("the record is nested too deeply") from None
    except Exception as e:
        raise RecordFormatError(f"the record cannot be read ({type(e).__name__}: {str(e)[:80]})") from None


def write_record(state: State, fmt: str | None = None, meta: dict | None = None, **options) -> str:
    """``state`` (with its moves from the start) as a record in format ``fmt`` (default: the
    game's `DEFAULT_FORMAT`). ``meta`` uses the keys described in `games.records.base`; the
    option ``tree`` (a `games.records.tree.GameTree` whose main line is ``state``) adds its
    variations and comments in the formats that hold them (`TREE_FORMATS`)."""
    f = FORMATS[fmt] if fmt else default_format(state.game.id)
    if state.game.id not in f.games:
        raise ValueError(f"{f.name} records cannot hold {state.game.name}")
    if f.id not in TREE_FORMATS:
        options.pop("tree", None)   # a plain move list keeps the main line only
    return f.write(state, meta or {}, **options)


def decode(data: bytes) -> list[str]:
    """The texts ``data`` may be, most likely first: UTF-8 (with or without a BOM), UTF-16
    with a BOM, else GB18030 and Big5 (Chinese-chess files). Empty when none decodes."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        try:
            return [data.decode("utf-16")]
        except UnicodeDecodeError:
            return []
    try:
        return [data.decode("utf-8-sig")]
    except UnicodeDecodeError:
        pass
    out = []
    for enc in ("gb18030", "big5"):
        try:
            out.append(data.decode(enc))
        except UnicodeDecodeError:
            pass
    return out


def load_bytes(data: bytes, game: Game | None = None, name: str = "") -> Record:
    """A record from a file's bytes (see `decode`); raises RecordFormatError only."""
    if len(data) > MAX_RECORD_BYTES:
        raise RecordFormatError(f"the file is larger than {MAX_RECORD_BYTES // 1000} kB")
    texts = decode(data)
    if not texts:
        raise RecordFormatError("the file is not text (not UTF-8, UTF-16, GB18030 or Big5)")
    first_error = None
    for text in texts:
        try:
            return read_record(text, game, name)
        except RecordFormatError as e:
            first_error = first_error or e
    raise first_error
