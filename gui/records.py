"""Saved games: records in the user data folder's games/ directory (or any folder the Load
dialog browses to), in each game's exchange format (see `games.records`: PGN for xiangqi,
SGF for gomoku and othello, Piskvork's psq, the app's own text record for the others).

Files are read defensively: only regular files, at most `MAX_RECORD_BYTES`, opened without
blocking (a FIFO or a device never stalls the app); a file that cannot be read is listed as
unreadable with its reason instead of hiding the others.
"""
from __future__ import annotations

import errno
import logging
import os
import re
import stat
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.paths import user_data_dir
from games import GAME_IDS
from games.records import (EXTENSIONS, FORMATS, MAX_RECORD_BYTES, RecordFormatError, default_format, load_bytes,
                           peek_record, write_record)
from games.records import decode as decode_bytes
from games.records.zeroboard import HEADER
from engine.core.safefile import UnreadableFile, read_regular_file
from gui.i18n import language, t
from gui.record_errors import in_language

__all__ = ["HEADER", "MAX_RECORD_BYTES", "EXTENSIONS", "RecordError", "RecordInfo", "result_text", "summary",
           "games_dir", "save_record", "load_record", "load_game", "list_records", "list_folder", "read_info",
           "read_file", "history_of", "name_hint", "default_name", "clean_name", "verify"]
#: at most this many directory entries are looked at when a folder is listed
MAX_ENTRIES = 5000


class RecordError(ValueError):
    """A record that cannot be read; the message says why."""


@dataclass
class RecordInfo:
    path: Path
    game_id: str                       # "" when the file cannot be read
    variant: dict = field(default_factory=dict)
    date: str = ""                     # when the file was last written ("YYYY-MM-DD HH:MM")
    meta: dict = field(default_factory=dict)
    error: str = ""                    # why the file cannot be read
    checked: bool = True               # replayed to its end (False: only its header was read, see `verify`)


def result_text(over: bool, winner: int | None, resigned: bool = False) -> str:
    """A record's ``result`` header: "first" or "second" (who won), "draw", or "unfinished";
    " (resigned)" follows a win by resignation."""
    if not over:
        return "unfinished"
    if winner is None:
        return "draw"
    return ("first" if winner == 0 else "second") + (" (resigned)" if resigned else "")


def summary(meta: dict) -> str:
    """The moves and the result of a record from its header, from the point of view of the
    person who saved it (the ``you`` header) when it says, in the interface language; "" where
    a record says neither. Malformed headers are left out, never trusted."""
    parts = []
    moves = str(meta.get("moves", ""))
    if re.fullmatch(r"[0-9]{1,6}", moves, re.ASCII):
        parts.append(t("load.moves_one") if int(moves) == 1 else t("load.moves", n=int(moves)))
    result = str(meta.get("result", "")).split(" ")[0]
    you = meta.get("you")
    if result == "unfinished":
        parts.append(t("load.unfinished"))
    elif result == "draw":
        parts.append(t("load.drawn"))
    elif result in ("first", "second") and you in ("first", "second"):
        parts.append(t("load.won") if result == you else t("load.lost"))
    elif result in ("first", "second"):
        parts.append(t(f"load.won_by_{result}"))
    return t("home.note.sep").join(parts)


def games_dir() -> Path:
    d = user_data_dir() / "games"
    d.mkdir(parents=True, exist_ok=True)
    return d


def default_name(game) -> str:
    """A new record's file name without its extension: the game's key and the time
    (``gomoku-20261128-140355``), the form `name_hint` reads the game from."""
    return f"{game.key}-{time.strftime('%Y%m%d-%H%M%S')}"


#: characters no file name may hold on the systems the app runs on, and control characters
_BAD_NAME_RE = re.compile(r'[<>:"/\\|?*\x00-\x1f\x7f]')


def clean_name(name: str, limit: int = 80) -> str:
    """``name`` as a file name: without path separators and characters Windows refuses, nor
    leading dots (a hidden file is not listed) or trailing dots and spaces; "" when nothing is left."""
    name = _BAD_NAME_RE.sub("", str(name))[:limit]
    return name.lstrip(". ").rstrip(". ")


def save_record(state, meta: dict | None = None, folder: Path | None = None, fmt: str | None = None,
                name: str | None = None, tree=None) -> Path:
    """Write ``state`` as a new record (in the game's exchange format unless ``fmt`` names
    another) named ``name`` (default: `default_name`; the format's extension is added when
    missing) and return its path; ``tree`` (a `games.records.tree.GameTree` whose main line is
    ``state``) adds its variations and comments. An existing file is never replaced: "-2",
    "-3"... is added."""
    folder = Path(folder or games_dir())
    game = state.game
    f = default_format(game.id) if fmt is None else FORMATS[fmt]
    meta = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), **(meta or {})}
    try:
        text = write_record(state, f.id, meta, tree=tree)
    except ValueError:   # a tree that is not this game's (a bug): the game itself is still saved
        if tree is None:
            raise
        logging.getLogger("zeroboard.records").warning("the variations of %s could not be written", game.key)
        text = write_record(state, f.id, meta)
    stem = clean_name(name or "") or default_name(game)
    if stem.lower().endswith(f.extension):
        stem = stem[:-len(f.extension)] or default_name(game)
    path = folder / f"{stem}{f.extension}"
    n = 2
    while path.exists() or path.is_symlink():
        path = folder / f"{stem}-{n}{f.extension}"
        n += 1
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(text.encode("utf-8"))
    tmp.replace(path)
    return path


def read_file(path: Path, limit: int = MAX_RECORD_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes; RecordError otherwise
    (`engine.core.safefile.read_regular_file`: a FIFO or a device is refused, never waited on)."""
    path = Path(path)
    try:
        return read_regular_file(path, limit)
    except UnreadableFile as e:
        if e.kind == "not_file":
            raise RecordError(t("load.err.not_file", name=path.name)) from None
        if e.kind == "too_large":
            raise RecordError(t("load.err.too_large", name=path.name, kb=limit // 1000)) from None
        if e.kind == "loop":
            raise RecordError(t("load.err.link_loop")) from None
        raise RecordError(t("load.err.open", name=path.name, reason=e.detail or e.kind)) from None


def name_hint(path: Path):
    """The game a record's file name names, as the app names its records (``othello-6-20261128-
    140355.sgf``: the game's key, then the date), or None."""
    from games import game_from_key
    m = re.match(r"([a-z0-9]+(?:-[0-9]{1,3})*)-[0-9]{8}-[0-9]{6}", Path(path).name, re.ASCII)
    if not m:
        return None
    try:
        return game_from_key(m.group(1))
    except Exception:  # a name that only looks like one of ours
        return None


def _read(path: Path, game=None):
    """The record in the file ``path``, replayed to its end; RecordError with the reason."""
    data = read_file(path)
    try:
        return load_bytes(data, name_hint(path) or game, path.name)
    except RecordFormatError as e:
        raise RecordError(f"{path.name}: {in_language(str(e))}") from None


def load_record(path: Path, game=None):
    """(state, meta) from a record file in any supported format; raises RecordError with a
    readable reason. The record names its game (a plain move list is recognised by its
    moves, see `games.records.moves`); ``game`` (the one on the board) only decides between
    games whose notation reads the same text, after the game the file's name names."""
    record = _read(Path(path), game)
    return record.state, record.meta


def load_game(path: Path, game=None):
    """The whole `games.records.Record` of a file (with its variations and comments in
    ``tree``), read as `load_record` reads it; RecordError with the reason."""
    return _read(Path(path), game)


#: read_info's answers by (path, size, modification time): a folder listed again is not replayed again
_INFO_CACHE: dict = {}


def read_info(path: Path, replay: bool = True) -> RecordInfo:
    """What the file list shows of a record: its game and header, from the whole record
    replayed to its end, so that one that cannot be opened is known before it is (a
    truncated game, an illegal move); RecordError when it cannot be read. ``replay`` False
    reads the header alone (about a tenth of the time; `verify` replays it later)."""
    path = Path(path)
    try:
        st = os.stat(path)
        stamp = (str(path), st.st_size, st.st_mtime_ns, language())   # the reasons are in the interface language
        modified = time.strftime("%Y-%m-%d %H:%M", time.localtime(st.st_mtime))
    except (OSError, ValueError, OverflowError):
        stamp, modified = None, ""
    cached = _INFO_CACHE.get(stamp) if stamp else None
    if cached is not None:
        if isinstance(cached, RecordError):
            raise cached
        return cached
    if not replay:
        return _peek_info(path, modified)
    try:
        record = _read(path)
        game = record.state.game
        if game.id not in GAME_IDS:
            raise RecordError(f"unknown game {game.id!r}")
        meta = dict(record.meta)
        meta["moves"] = str(len(record.state.moves))
        info = RecordInfo(path, game.id, dict(game.variant), modified, meta)
    except RecordError as e:
        info = RecordError(str(e).removeprefix(f"{path.name}: "))
    if stamp:
        if len(_INFO_CACHE) > 4 * MAX_ENTRIES:
            _INFO_CACHE.clear()
        _INFO_CACHE[stamp] = info
    if isinstance(info, RecordError):
        raise info
    return info


def _peek_info(path: Path, modified: str) -> RecordInfo:
    data = read_file(path)
    texts = decode_bytes(data)
    if not texts:
        raise RecordError(t("load.err.not_text"))
    try:
        game, meta = peek_record(texts[0], name_hint(path), path.name)
    except RecordFormatError as e:
        raise RecordError(in_language(str(e))) from None
    if game.id not in GAME_IDS:
        raise RecordError(f"unknown game {game.id!r}")
    return RecordInfo(path, game.id, dict(game.variant), modified, meta, checked=False)


def verify(info: RecordInfo) -> RecordInfo:
    """``info`` once its record is replayed to its end (the file list checks the rows it
    shows): the same entry when it already was, an unreadable one with the reason when the
    moves do not replay (a truncated game, an illegal move)."""
    if info.checked or not info.game_id:
        return info
    try:
        return read_info(info.path)
    except RecordError as e:
        return RecordInfo(info.path, "", error=str(e))
    except Exception as e:  # one bad file must never break the list
        return RecordInfo(info.path, "", error=type(e).__name__)


def _record_name(name: str) -> bool:
    return name.lower().endswith(EXTENSIONS) and not name.startswith(".") and not name.endswith(".tmp")


def list_folder(folder: Path | None = None, limit: int = 500,
                replay: bool = True) -> tuple[list[Path], list[RecordInfo]]:
    """(sub-folders by name, records newest first) of ``folder``. Every entry is looked at on
    its own: a broken link, a FIFO or a file that cannot be read shows as unreadable with its
    reason (or, if it is no file at all, is left out) and never hides the others. Each record
    is replayed to its end unless ``replay`` is False (then see `verify`)."""
    folder = Path(folder or games_dir())
    dirs: list[Path] = []
    files: list[tuple[float, Path, str]] = []
    try:
        with os.scandir(folder) as it:
            for k, entry in enumerate(it):
                if k >= MAX_ENTRIES:
                    break
                name = entry.name
                try:
                    if entry.is_dir():               # follows links to folders
                        if not name.startswith("."):
                            dirs.append(Path(entry.path))
                        continue
                except OSError:                      # a link loop: listed below, with its reason
                    pass
                if not _record_name(name):
                    continue
                try:
                    st = os.stat(entry.path)         # follows links; a dangling one fails here
                except OSError as e:
                    files.append((0.0, Path(entry.path), t("load.err.link_loop") if e.errno == errno.ELOOP
                                  else t("load.err.broken_link")))
                    continue
                if not stat.S_ISREG(st.st_mode):
                    files.append((st.st_mtime, Path(entry.path), t("load.err.not_file", name=name)))
                    continue
                files.append((st.st_mtime, Path(entry.path), ""))
    except OSError:
        return [], []
    files.sort(key=lambda x: (-x[0], x[1].name))
    out = []
    for _, path, error in files[:limit]:
        if error:
            out.append(RecordInfo(path, "", error=error))
            continue
        try:
            out.append(read_info(path, replay))
        except RecordError as e:
            out.append(RecordInfo(path, "", error=str(e)))
        except Exception as e:  # one bad file must never break the list
            out.append(RecordInfo(path, "", error=f"{type(e).__name__}"))
    return sorted(dirs, key=lambda p: p.name.lower())[:limit], out


def list_records(folder: Path | None = None, limit: int = 500) -> list[RecordInfo]:
    """Saved records, newest first; unreadable files are listed with game_id '' and the reason."""
    return list_folder(folder, limit)[1]


def history_of(state) -> list:
    """The states from the start to ``state`` when they can be rebuilt, else just ``[state]``."""
    from games.records.tree import line_of
    return line_of(state)
