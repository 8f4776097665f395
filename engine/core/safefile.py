"""The one way in for every file the app, the engines and the trainer read from a person's
folders and caches: only a regular file, at most so many bytes for its kind, decoded and
parsed with every failure turned into one plain `UnreadableFile`.

A file is opened without blocking and checked after opening (``fstat``), so a FIFO, a device,
or a file swapped for one between a listing (or a stat) and the read is refused, never waited
on; a symlink loop fails the open. A file whose damage would make the program fail on it at
every start is set aside (`set_aside`: renamed ``NAME.bak-<timestamp>``, kept for the person
to look at) by the caller, which knows whether that is safe.

`USER_FILES` is the code's own list of the paths read from user folders: the reliability
probe (tests/test_reliability_probe.py) plants hostile files in each of them, so a new file
the program reads belongs on that list and is read through this module.
"""
from __future__ import annotations

import errno
import json
import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

#: the most bytes each kind of file may have; anything larger is not one of them
LIMITS = {
    "settings": 1 << 20,         # a few hundred bytes in practice
    "autosave": 1 << 20,         # one position and its moves: a few kB
    "record": 1_000_000,         # games.records.MAX_RECORD_BYTES
    "run_state": 1 << 20,        # state.json: a dozen numbers
    "run_info": 4 << 20,         # run.json: the settings and their changes
    "metrics": 64 << 20,         # metrics.jsonl: about 2 kB a generation
    "samples_stats": 1 << 20,    # buffer/gen_N.stats.json
    "samples": 2 << 30,          # buffer/gen_N.npz: a generation's self-play positions
    "runtime_choice": 4 << 20,   # runtime_choice.json: a few hundred bytes a network shape
    "checkpoint": 512 << 20,     # a model file (ZeroBoard's largest are a few MB)
    "optimizer": 1 << 30,        # optimizer.pt: twice a model's weights
    "export": 512 << 20,         # an ONNX export of a model
    "positions": 64 << 20,       # a positions file given to analyse
    "config": 1 << 20,           # a settings file (TOML) given with --config
    "model_report": 1 << 20,     # models/<game>.json beside a shipped model: a few kB
    "ratings": 1 << 20,          # ratings.json: the person's rating per game, a hundred bytes each
    "log": 0,                    # appended to, never read (APPENDED_FILES)
}


class UnreadableFile(Exception):
    """Why a file was not read. ``kind``: "missing", "open" (``detail``: the OS's reason),
    "not_file", "loop" (a symlink loop), "too_large", "not_text" (``detail``: where), "not_json" (``detail``: the
    parser's words) or "too_deep"; ``str()`` is a plain English sentence without the path."""

    def __init__(self, kind: str, detail: str = "", limit: int = 0):
        self.kind, self.detail, self.limit = kind, detail, limit
        super().__init__(self.reason())

    def reason(self) -> str:
        if self.kind == "missing":
            return "does not exist"
        if self.kind == "not_file":
            return "is not a regular file (a folder, a pipe or a device)"
        if self.kind == "too_large":
            return f"is larger than {self.limit} bytes" if self.limit else "is too large"
        if self.kind == "not_text":
            return f"is not UTF-8 text ({self.detail})" if self.detail else "is not UTF-8 text"
        if self.kind == "not_json":
            return f"is not valid JSON ({self.detail})" if self.detail else "is not valid JSON"
        if self.kind == "too_deep":
            return "is nested too deeply"
        if self.kind == "loop":
            return "is a link that leads back to itself"
        return f"cannot be read ({self.detail or self.kind})"

    @property
    def damaged(self) -> bool:
        """Whether the file is there but can never be used as it is (setting it aside helps)."""
        return self.kind in ("not_file", "loop", "too_large", "not_text", "not_json", "too_deep")


def limit_of(kind: str) -> int:
    return LIMITS[kind]


def open_regular(path, limit: int | None = None) -> int:
    """A read-only descriptor of the regular file ``path`` (the caller closes it); UnreadableFile
    when it is missing, not a regular file, or larger than ``limit``. Never blocks."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    try:
        fd = os.open(Path(path), flags)
    except FileNotFoundError as e:
        raise UnreadableFile("missing", e.strerror or "") from None
    except OSError as e:
        if e.errno == errno.ELOOP:   # a link that leads back to itself
            raise UnreadableFile("loop") from None
        raise UnreadableFile("open", e.strerror or type(e).__name__) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise UnreadableFile("not_file")
        if limit is not None and st.st_size > limit:
            raise UnreadableFile("too_large", limit=limit)
    except BaseException:
        os.close(fd)
        raise
    return fd


def check_regular(path, limit: int | None = None) -> None:
    """Raise UnreadableFile unless ``path`` is a regular file of at most ``limit`` bytes."""
    os.close(open_regular(path, limit))


def read_regular_file(path, limit: int) -> bytes:
    """The bytes of the regular file ``path`` if it has at most ``limit`` of them."""
    fd = open_regular(path, limit)
    try:
        chunks, total = [], 0
        while total <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - total))
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > limit:   # it grew after the fstat
            raise UnreadableFile("too_large", limit=limit)
        return b"".join(chunks)
    except OSError as e:
        raise UnreadableFile("open", e.strerror or type(e).__name__) from None
    finally:
        os.close(fd)


def read_bytes(path, kind: str) -> bytes:
    """The bytes of ``path``, a file of ``kind`` (`LIMITS`)."""
    return read_regular_file(path, LIMITS[kind])


def decode_text(raw: bytes) -> str:
    """UTF-8 text (a byte-order mark is dropped); UnreadableFile("not_text") otherwise."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UnreadableFile("not_text", f"byte {e.start}") from None


def read_text(path, kind: str) -> str:
    """The UTF-8 text of ``path``, a file of ``kind``."""
    return decode_text(read_bytes(path, kind))


def parse_json(text: str):
    """``json.loads`` with its failures as UnreadableFile ("not_json", "too_deep")."""
    try:
        return json.loads(text)
    except RecursionError:
        raise UnreadableFile("too_deep") from None
    except ValueError as e:
        raise UnreadableFile("not_json", str(e)[:80]) from None


def read_json(path, kind: str):
    """The JSON value in ``path``, a file of ``kind``."""
    return parse_json(read_text(path, kind))


def model_report(*keys: str) -> dict:
    """The shipped models/<key>.json of the first of ``keys`` (a game's key, then its network's
    for a rule variant) that can be read, as a dict; empty where none can."""
    from .paths import models_dir
    for key in dict.fromkeys(keys):
        try:
            data = read_json(models_dir() / f"{key}.json", "model_report")
        except (UnreadableFile, OSError):
            continue
        return data if isinstance(data, dict) else {}
    return {}


def read_json_lines(path, kind: str) -> tuple[list, int]:
    """(values, bad): the JSON value of each non-blank line of ``path`` (a JSON-lines file of
    ``kind``), and how many lines were not UTF-8 JSON (left out)."""
    values, bad = [], 0
    for raw in read_bytes(path, kind).splitlines():
        if not raw.strip():
            continue
        try:
            values.append(parse_json(decode_text(raw)))
        except UnreadableFile:
            bad += 1
    return values, bad


def open_append(path, encoding: str = "utf-8"):
    """A log file opened for appending text, never blocking: OSError when ``path`` is not a
    regular file (a FIFO with no reader would otherwise block the open for ever)."""
    flags = os.O_WRONLY | os.O_APPEND | os.O_CREAT | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(Path(path), flags, 0o666)   # ENXIO for a FIFO nobody reads
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise OSError(errno.EINVAL, "not a regular file", str(path))
    except BaseException:
        os.close(fd)
        raise
    return os.fdopen(fd, "a", encoding=encoding, errors="replace", buffering=1)


def set_aside(path) -> Path | None:
    """Rename a damaged file out of the way, keeping it for the person to look at
    (``NAME.bak-<timestamp>``); the new path, or None when it could not be moved."""
    path = Path(path)
    stamp = time.strftime("%Y%m%d-%H%M%S")
    for n in range(100):
        backup = path.with_name(f"{path.name}.bak-{stamp}" + (f"-{n}" if n else ""))
        if backup.exists() or backup.is_symlink():
            continue
        try:
            os.replace(path, backup)
        except OSError:
            return None
        return backup
    return None


def file_sha256(path, kind: str = "checkpoint") -> str:
    """The SHA-256 of the regular file ``path`` (read in pieces, never blocking)."""
    import hashlib
    h = hashlib.sha256()
    fd = open_regular(path, LIMITS[kind])
    try:
        while True:
            chunk = os.read(fd, 1 << 20)
            if not chunk:
                break
            h.update(chunk)
    finally:
        os.close(fd)
    return h.hexdigest()


# --- the paths the program reads ------------------------------------------------------------

@dataclass(frozen=True)
class UserFile:
    """A file the program reads from a person's folders: ``root`` is "config", "data",
    "cache" (`engine.core.paths`) or "run" (a training run's folder: runs/<game> for the
    command line, the user data folder's runs/<game> for the app); ``pattern`` is relative
    to it, with ``{game}`` the game key and ``{n}`` a generation number; ``on_damage`` is what
    a damaged one leads to: "set_aside" (renamed, the program goes on without it),
    "listed" (shown as unreadable among the others), "refused" (a plain error, the file kept)
    or, for a log (`APPENDED_FILES`, root "log"), "not_written" (the line is dropped)."""
    name: str
    root: str
    pattern: str
    kind: str
    on_damage: str


USER_FILES: tuple[UserFile, ...] = (
    UserFile("settings", "config", "settings.json", "settings", "set_aside"),
    UserFile("autosave", "data", "autosave.json", "autosave", "set_aside"),   # the single slot of earlier versions
    UserFile("autosave slot", "data", "autosave/{game}.json", "autosave", "set_aside"),
    UserFile("record", "data", "games/{file}", "record", "listed"),
    UserFile("player ratings", "data", "ratings.json", "ratings", "set_aside"),
    UserFile("trained model", "data", "models/{game}.pt", "checkpoint", "refused"),
    UserFile("trained model export", "data", "models/{game}.onnx", "export", "set_aside"),
    UserFile("runtime choice", "cache", "runtime_choice.json", "runtime_choice", "set_aside"),
    UserFile("run state", "run", "state.json", "run_state", "refused"),
    UserFile("run settings", "run", "run.json", "run_info", "refused"),
    UserFile("run metrics", "run", "metrics.jsonl", "metrics", "set_aside"),
    UserFile("run checkpoint", "run", "checkpoints/gen_{n:06d}.pt", "checkpoint", "refused"),
    UserFile("run optimizer", "run", "optimizer.pt", "optimizer", "set_aside"),
    UserFile("run samples", "run", "buffer/gen_{n:06d}.npz", "samples", "set_aside"),
    UserFile("run samples statistics", "run", "buffer/gen_{n:06d}.stats.json", "samples_stats", "set_aside"),
)


#: files the program appends to (never reads) in a person's folders: opened with `open_append`,
#: so a pipe or a device there is refused, never waited on; probed like USER_FILES
APPENDED_FILES: tuple[UserFile, ...] = (
    UserFile("log", "log", "zeroboard.log", "log", "not_written"),
    UserFile("app error log", "log", "gui.log", "log", "not_written"),
)


def user_file(name: str) -> UserFile:
    return next(f for f in USER_FILES + APPENDED_FILES if f.name == name)


def user_path(name: str, base=None, **fields) -> Path:
    """Where the file ``name`` of `USER_FILES` is: under ``base`` (a run folder for "run"
    files) or the user folder its root names."""
    f = user_file(name)
    if base is None:
        from . import paths
        base = {"config": paths.user_config_dir, "data": paths.user_data_dir,
                "cache": paths.user_cache_dir, "log": paths.user_log_dir}[f.root]()
    return Path(base) / f.pattern.format(**fields)


__all__ = ["APPENDED_FILES", "LIMITS", "UnreadableFile", "USER_FILES", "UserFile", "check_regular", "decode_text",
           "file_sha256", "limit_of", "open_append", "open_regular", "parse_json", "read_bytes", "read_json",
           "read_json_lines", "read_regular_file", "read_text", "set_aside", "user_file", "user_path"]
