"""Saved games: plain-text records in the user data folder's games/ directory.

A record is a few ``# key: value`` header lines followed by the position in the game's
own notation (``state.to_text()``), so it can be read by people and by
``game.state_from_text``::

    # ZeroBoard game record
    # game: connect4
    # variant: {}
    # date: 2026-11-21 14:03:55
    4 4 3 5
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from pathlib import Path

from engine.core.paths import user_data_dir
from games import GAME_IDS, NotationError, get_game
from gui.i18n import t

HEADER = "# ZeroBoard game record"
MAX_RECORD_BYTES = 1_000_000


class RecordError(ValueError):
    """A record that cannot be read; the message says why."""


@dataclass
class RecordInfo:
    path: Path
    game_id: str
    variant: dict = field(default_factory=dict)
    date: str = ""
    meta: dict = field(default_factory=dict)


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
    person who saved it (the ``you`` header), in the interface language; "" where a record
    (an older one) has neither."""
    parts = []
    moves = str(meta.get("moves", ""))
    if moves.isdigit():
        parts.append(t("load.moves_one") if int(moves) == 1 else t("load.moves", n=int(moves)))
    result = str(meta.get("result", "")).split(" ")[0]
    you = meta.get("you")
    if result == "unfinished":
        parts.append(t("load.unfinished"))
    elif result == "draw":
        parts.append(t("load.drawn"))
    elif result in ("first", "second") and you in ("first", "second"):
        parts.append(t("load.won") if result == you else t("load.lost"))
    return t("home.note.sep").join(parts)


def games_dir() -> Path:
    d = user_data_dir() / "games"
    d.mkdir(parents=True, exist_ok=True)
    return d


def save_record(state, meta: dict | None = None, folder: Path | None = None) -> Path:
    """Write ``state`` as a new timestamped record and return its path."""
    folder = folder or games_dir()
    game = state.game
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{game.key}-{stamp}.txt"
    n = 2
    while path.exists():
        path = folder / f"{game.key}-{stamp}-{n}.txt"
        n += 1
    lines = [HEADER, f"# game: {game.id}", f"# variant: {json.dumps(game.variant, sort_keys=True)}",
             f"# date: {time.strftime('%Y-%m-%d %H:%M:%S')}"]
    for k, v in (meta or {}).items():
        if k not in ("game", "variant", "date"):
            lines.append(f"# {k}: {str(v).replace(chr(10), ' ')}")
    lines.append(state.to_text())
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    tmp.replace(path)
    return path


def _parse(text: str) -> tuple[dict, str]:
    meta: dict = {}
    body = []
    for line in text.splitlines():
        s = line.strip()
        if s.startswith("#"):
            key, sep, value = s[1:].partition(":")
            if sep:
                meta[key.strip().lower()] = value.strip()
        elif s:
            body.append(s)
    return meta, "\n".join(body)


def _variant(meta: dict) -> dict:
    raw = meta.get("variant", "{}") or "{}"
    try:
        variant = json.loads(raw)
    except ValueError:
        raise RecordError(f"bad variant {raw!r}") from None
    if not isinstance(variant, dict) or not all(
            isinstance(k, str) and isinstance(v, int) and not isinstance(v, bool) for k, v in variant.items()):
        raise RecordError(f"bad variant {raw!r}")
    return variant


def read_info(path: Path) -> RecordInfo:
    """The header of a record (cheap; does not replay the moves)."""
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(4096)
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {path.name}: {e}") from None
    meta, _ = _parse(head)
    game_id = meta.get("game", "")
    if game_id not in GAME_IDS:
        raise RecordError(f"{path.name}: unknown game {game_id!r}")
    return RecordInfo(path, game_id, _variant(meta), meta.get("date", ""), meta)


def load_record(path: Path):
    """(state, meta) from a record file; raises RecordError with a readable reason."""
    try:
        if Path(path).stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{Path(path).name} is too large to be a game record")
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"cannot read {Path(path).name}: {e}") from None
    meta, body = _parse(text)
    game_id = meta.get("game", "")
    if game_id not in GAME_IDS:
        raise RecordError(f"{Path(path).name}: unknown game {game_id!r}")
    try:
        game = get_game(game_id, **_variant(meta))
    except RecordError:
        raise
    except Exception as e:
        raise RecordError(f"{Path(path).name}: {e}") from None
    try:
        state = game.state_from_text(body)
    except NotationError as e:
        raise RecordError(f"{Path(path).name}: {e}") from None
    except Exception as e:  # a parser bug must not take the app down
        raise RecordError(f"{Path(path).name}: {type(e).__name__}: {e}") from None
    return state, meta


def list_records(folder: Path | None = None, limit: int = 500) -> list[RecordInfo]:
    """Saved records, newest first; unreadable files are listed with game_id ''."""
    folder = folder or games_dir()
    try:
        paths = sorted(folder.glob("*.txt"), key=lambda p: p.stat().st_mtime, reverse=True)[:limit]
    except OSError:
        return []
    out = []
    for p in paths:
        try:
            out.append(read_info(p))
        except RecordError:
            out.append(RecordInfo(p, ""))
    return out


def history_of(state) -> list:
    """The states from the start to ``state`` when they can be rebuilt, else just ``[state]``."""
    try:
        start = state.game.initial_state()
        states = [start]
        for a in state.moves:
            states.append(states[-1].apply(a))
        if states[-1].key() == state.key():
            return states
    except Exception:
        pass
    return [state]
