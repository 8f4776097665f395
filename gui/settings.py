"""User settings: a versioned JSON file in the user's config directory.

Reading never fails: unknown keys are ignored, values of the wrong type are replaced by
their defaults, and a file that cannot be parsed is moved aside as
``settings.json.bak-<timestamp>`` before the defaults are used. Writes are atomic
(a temporary file in the same folder, then `os.replace`).
"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

from engine.core.paths import user_config_dir

VERSION = 1
LANGUAGES = ("en", "zh")
WINDOW_PRESETS = ("1024x640", "1280x800", "1440x900", "1680x1050")

DEFAULTS: dict = {
    "version": VERSION,
    "sound": True,
    "animations": True,
    "language": "en",
    "colorblind": False,
    "window": "1280x800",
    "fullscreen": False,
    "hints": False,
    "side": "first",
    "level": "strong",
    "demo_levels": ["strong", "strong"],
    "last_game": "tictactoe",
    # game key -> "shipped" or "trained": which model the AI uses
    "models": {},
}

# keys whose value must be one of a fixed set
_CHOICES = {
    "language": LANGUAGES,
    "window": WINDOW_PRESETS,
    "side": ("first", "second", "random"),
}


def settings_path() -> Path:
    return user_config_dir() / "settings.json"


def _valid(key: str, value) -> bool:
    default = DEFAULTS[key]
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str) and (key not in _CHOICES or value in _CHOICES[key])
    if isinstance(default, list):
        return (isinstance(value, list) and len(value) == len(default)
                and all(isinstance(v, str) for v in value))
    if isinstance(default, dict):
        return isinstance(value, dict) and all(
            isinstance(k, str) and v in ("shipped", "trained") for k, v in value.items())
    return isinstance(value, type(default))


def sanitize(data) -> dict:
    """Defaults overlaid with every known, well-typed value of ``data``."""
    out = json.loads(json.dumps(DEFAULTS))  # deep copy
    if not isinstance(data, dict):
        return out
    for key in DEFAULTS:
        if key != "version" and key in data and _valid(key, data[key]):
            out[key] = data[key]
    out["version"] = VERSION
    return out


def load(path: Path | None = None) -> dict:
    """The settings on disk, or the defaults (a corrupt file is moved aside first)."""
    path = path or settings_path()
    try:
        raw = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return sanitize({})
    except OSError:
        return sanitize({})
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError("settings must be a JSON object")
    except ValueError:
        backup = path.with_name(f"{path.name}.bak-{time.strftime('%Y%m%d-%H%M%S')}")
        try:
            os.replace(path, backup)
        except OSError:
            pass
        return sanitize({})
    return sanitize(data)


def save(settings: dict, path: Path | None = None) -> None:
    """Write the settings atomically; errors are swallowed (settings are a convenience)."""
    path = path or settings_path()
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(sanitize(settings), indent=2, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        try:
            tmp.unlink()
        except OSError:
            pass


class Settings:
    """The live settings of the app; `set` saves at once."""

    def __init__(self, path: Path | None = None, autosave: bool = True):
        self.autosave = autosave
        self.path = path or (settings_path() if autosave else None)
        self.data = load(self.path) if self.path else sanitize({})

    @classmethod
    def in_memory(cls) -> "Settings":
        """Defaults that are never written to disk (self-test, screenshots)."""
        return cls(autosave=False)

    def __getitem__(self, key):
        return self.data[key]

    def get(self, key, default=None):
        return self.data.get(key, default)

    def set(self, key, value) -> None:
        if key in DEFAULTS and _valid(key, value):
            self.data[key] = value
            if self.autosave and self.path:
                save(self.data, self.path)

    def model_choice(self, game_key: str) -> str:
        return self.data["models"].get(game_key, "shipped")

    def set_model_choice(self, game_key: str, choice: str) -> None:
        models = dict(self.data["models"])
        models[game_key] = choice
        self.set("models", models)
