"""Games in progress, kept on disk after every move so that they can be resumed after the
app is closed (or crashes): one JSON file per game (``autosave/<game key>.json`` in the user
data folder), so that leaving a tic-tac-toe game to play Connect Four keeps both.

An ``autosave.json`` left by versions that kept a single slot is moved into its game's slot
the first time the slots are read (unless that slot already holds a game, which is newer).

Every slot is read through `engine.core.safefile` (a regular file of at most
``LIMITS["autosave"]`` bytes, never waited on); a file that can never be used (a pipe, far too
large, not UTF-8, not JSON, nested too deeply) is set aside as ``NAME.bak-<timestamp>``, with
one line in the log, so that the app does not meet it again at every start.
"""
from __future__ import annotations

import json
import logging
import re
import time
from pathlib import Path

from engine.core.safefile import UnreadableFile, read_json, set_aside, user_path
from games import GAME_IDS, get_game

VERSION = 1
#: a slot file's name is the game's key: letters, digits and dashes only
_KEY_RE = re.compile(r"[a-z0-9][a-z0-9-]{0,40}", re.ASCII)
#: at most this many slots are read (one per game and variant in practice)
MAX_SLOTS = 24
#: the variations kept in a slot, as move text: far below the slot's size limit (safefile's
#: ``LIMITS["autosave"]``), so a game with many variations never makes its slot unreadable
MAX_TREE_CHARS = 400_000


def folder() -> Path:
    return user_path("autosave slot", game="x").parent


def legacy_path() -> Path:
    """The single autosave file of earlier versions."""
    return user_path("autosave")


def path(key: str) -> Path:
    """The slot of the game whose key (`games.base.Game.key`) is ``key``."""
    if not _KEY_RE.fullmatch(key):
        raise ValueError(f"not a game key: {key!r}")
    return user_path("autosave slot", game=key)


def _write(p: Path, data: dict) -> bool:
    try:
        from engine.core.checkpoint import atomic_write_bytes
        p.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(p, json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
        return True
    except OSError:
        return False


def _tree_text(controller) -> str:
    """The controller's game tree as move text (`games.records.tree.write_rav`), "" when it is
    a single line without comments."""
    from games.records.tree import join_rav, write_rav
    tree = getattr(controller, "tree", None)
    if tree is None or tree.plain:
        return ""
    text = join_rav(write_rav(tree.root, lambda n, _: n.parent.state.action_to_text(n.action)))
    if len(text) > MAX_TREE_CHARS:   # the slot must stay readable: the game is kept, its variations not
        logging.getLogger("zeroboard.autosave").warning("the game's variations (%d characters) are too many to "
                                                        "autosave; its main line is saved", len(text))
        return ""
    return text


def save(controller) -> bool:
    """Write the controller's game (moves, the person's side, the AI level, and its variations
    and comments, ``tree``) into its game's slot; False on failure. The game resumes where it
    was played to (`gui.session.GameSession.game_line`), not in a variation looked at."""
    state = controller.game_line()[-1].state if hasattr(controller, "game_line") else controller.state
    data = {"version": VERSION, "game": controller.game.id, "variant": dict(controller.game.variant),
            "position": state.to_text(), "human": int(controller.human), "level": controller.level,
            "side_choice": controller.side_choice, "moves": len(state.moves),
            "setup": int(getattr(controller, "setup_plies", 0)),
            **(controller.clock_meta() if hasattr(controller, "clock_meta") else {}),
            "from_start": bool(getattr(controller, "from_start", False)),
            "took_back": bool(getattr(controller, "took_back", True)),
            "adaptive": bool(getattr(controller, "adaptive", False)),
            "date": time.strftime("%Y-%m-%d %H:%M:%S"), "time": time.time()}
    tree = _tree_text(controller)
    if tree:
        data["tree"] = tree
    try:
        p = path(controller.game.key)
    except ValueError:
        return False
    return _write(p, data)


def _read(p: Path):
    """The JSON in the slot file ``p``, or None: missing, or damaged (then set aside, with a
    line in the log, so that it is not met again)."""
    try:
        return read_json(p, "autosave")
    except UnreadableFile as e:
        if e.damaged:
            backup = set_aside(p)
            logging.getLogger("zeroboard.autosave").warning("the saved game %s %s; moved aside to %s", p, e, backup)
        return None


def _number(value) -> float:
    try:
        x = float(value)
    except (TypeError, ValueError):
        return 0.0
    return x if x == x and abs(x) < 1e12 else 0.0


def _parse(data) -> dict | None:
    """A slot's saved game as {"state", "human", "level", "side_choice", "moves", "game",
    "variant", "key", "date"}; None when it is not one (a damaged file is ignored, not fatal)."""
    try:
        if not isinstance(data, dict) or data.get("version") != VERSION or data.get("game") not in GAME_IDS:
            return None
        variant = data.get("variant") or {}
        if not isinstance(variant, dict):
            return None
        game = get_game(data["game"], **variant)
        state = game.state_from_text(str(data.get("position", "")))
        if state.is_terminal():
            return None
        human = int(data.get("human", 0))
        if human not in (0, 1):
            return None
        setup = max(0, min(len(state.moves), int(_number(data.get("setup")))))
        return {"state": state, "tree": _parse_tree(data.get("tree"), state, setup), "human": human,
                "level": str(data.get("level", "strong")),
                "side_choice": str(data.get("side_choice", "first")), "moves": len(state.moves),
                "game": data["game"], "variant": variant, "key": game.key, "date": str(data.get("date", ""))[:19],
                "time": _number(data.get("time")), "setup": setup,
                **{k: data[k] for k in ("time_control", "clocks") if isinstance(data.get(k), str)},
                **{k: data[k] for k in ("from_start", "took_back", "adaptive") if isinstance(data.get(k), bool)}}
    except Exception:  # unreadable, an old format, a game that changed its notation
        return None


def _parse_tree(text, state, setup: int):
    """The saved game tree (see `_tree_text`) when it holds ``state``'s line, else None: the
    game resumes without its variations rather than not at all."""
    from games.records import RecordFormatError
    from games.records.tree import line_of, read_rav
    if not isinstance(text, str) or not text or len(text) > MAX_TREE_CHARS:
        return None
    line = line_of(state)
    if len(line) != len(state.moves) + 1 - len(line[0].moves):
        return None
    start = line[min(setup, len(line) - 1)]
    try:
        tree = read_rav(text, start)
    except (RecordFormatError, RecursionError, ValueError):
        logging.getLogger("zeroboard.autosave").warning("the saved game's variations cannot be read; resumed "
                                                        "without them")
        return None
    if tree.find(state.moves[len(start.moves):]) is None:
        return None
    return tree


def _migrate() -> None:
    """Move the single autosave of earlier versions into its game's slot (kept where it is
    when that fails, and dropped when it is not a game any more or its slot is taken)."""
    old = legacy_path()
    if not (old.exists() or old.is_symlink()):
        return
    data = _read(old)   # a damaged one is set aside here
    if data is None:
        return
    saved = _parse(data)
    if saved is not None:
        target = path(saved["key"])
        if not (target.exists() or target.is_symlink()):
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                old.replace(target)
                return
            except OSError:
                return  # tried again next time; the old file still resumes nothing until then
    try:
        old.unlink()   # a finished game, or older than the one in its slot
    except OSError:
        pass


def load(key: str) -> dict | None:
    """The unfinished game saved for the game ``key`` (see `_parse`), or None."""
    _migrate()
    try:
        p = path(key)
    except ValueError:
        return None
    return _parse(_read(p))


def load_all() -> list[dict]:
    """Every unfinished game saved, newest first (at most one per game and variant)."""
    _migrate()
    out = []
    try:
        files = sorted(folder().glob("*.json"))[:MAX_SLOTS]
    except OSError:
        return []
    for p in files:
        saved = _parse(_read(p))
        if saved is not None and saved["key"] == p.stem:
            out.append(saved)
    out.sort(key=lambda s: (s["time"], s["date"]), reverse=True)
    return out


def clear(key: str) -> None:
    """Forget the unfinished game saved for the game ``key``."""
    try:
        path(key).unlink()
    except (OSError, ValueError):
        pass
