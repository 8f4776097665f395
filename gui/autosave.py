"""The game in progress, kept on disk after every move so that it can be resumed after the
app is closed (or crashes): one JSON file in the user data folder."""
from __future__ import annotations

import json
import time
from pathlib import Path

from engine.core.paths import user_data_dir
from games import GAME_IDS, get_game

VERSION = 1


def path() -> Path:
    return user_data_dir() / "autosave.json"


def save(controller) -> bool:
    """Write the controller's game (moves, the person's side, the AI level); False on failure."""
    state = controller.state
    data = {"version": VERSION, "game": controller.game.id, "variant": dict(controller.game.variant),
            "position": state.to_text(), "human": int(controller.human), "level": controller.level,
            "side_choice": controller.side_choice, "moves": len(state.moves),
            "date": time.strftime("%Y-%m-%d %H:%M:%S")}
    try:
        p = path()
        p.parent.mkdir(parents=True, exist_ok=True)
        tmp = p.with_suffix(".tmp")
        tmp.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        tmp.replace(p)
        return True
    except OSError:
        return False


def load() -> dict | None:
    """The saved game as {"state", "human", "level", "side_choice", "moves", "game", "variant"},
    or None when there is none or it cannot be read (a damaged file is ignored, not fatal)."""
    try:
        data = json.loads(path().read_text(encoding="utf-8"))
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
