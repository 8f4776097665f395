"""The game in progress, kept on disk after every move so that it can be resumed after the
app is closed (or crashes): one JSON file in the user data folder.

It is read through `engine.core.safefile` (a regular file of at most ``LIMITS["autosave"]``
bytes, never waited on); a file that can never be used (a pipe, far too large, not UTF-8,
not JSON, nested too deeply) is set aside as ``autosave.json.bak-<timestamp>``, with one line
in the log, so that the app does not meet it again at every start."""
from __future__ import annotations

import json
import time
from pathlib import Path

import logging

from engine.core.safefile import UnreadableFile, read_json, set_aside, user_path
from games import GAME_IDS, get_game

VERSION = 1


def path() -> Path:
    return user_path("autosave")


def save(controller) -> bool:
    """Write the controller's game (moves, the person's side, the AI level); False on failure."""
    state = controller.state
    data = {"version": VERSION, "game": controller.game.id, "variant": dict(controller.game.variant),
            "position": state.to_text(), "human": int(controller.human), "level": controller.level,
            "side_choice": controller.side_choice, "moves": len(state.moves),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    try:
        from engine.core.checkpoint import atomic_write_bytes
        atomic_write_bytes(path(), json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8"))
        return True
    except OSError:
        return False


def load() -> dict | None:
    """The saved game as {"state", "human", "level", "side_choice", "moves", "game", "variant"},
    or None when there is none or it cannot be read (a damaged file is ignored, not fatal)."""
    p = path()
    try:
        data = read_json(p, "autosave")
    except UnreadableFile as e:
        if e.damaged:
            backup = set_aside(p)
            logging.getLogger("zeroboard.autosave").warning("the saved game %s %s; moved aside to %s", p, e, backup)
        return None
    try:
        if not isinstance(data, dict) or data.get("version") != VERSION or data.get("game") not in GAME_IDS:
            return None
        variant = data.get("variant") or {}
        game = get_game(data["game"], **variant)
        state = game.state_from_text(str(data.get("position", "")))
        if state.is_terminal():
            return None
        human = int(data.get("human", 0))
        if human not in (0, 1):
            return None
        return {"state": state, "human": human, "level": str(data.get("level", "strong")),
                "side_choice": str(data.get("side_choice", "first")), "moves": len(state.moves),
                "game": data["game"], "variant": variant}
    except Exception:  # missing, unreadable, an old format, a game that changed its notation
        return None


def clear() -> None:
    try:
        path().unlink()
    except OSError:
        pass
