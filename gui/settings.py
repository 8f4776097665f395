"""User settings: a versioned JSON file in the user's config directory.

Reading never fails: unknown keys are ignored, values of the wrong type are replaced by
their defaults, and a file that cannot be used (not UTF-8, not JSON, nested too deeply, far
too large, not a regular file) is moved aside as ``settings.json.bak-<timestamp>`` before
the defaults are used; the app says so once. Writes are atomic
(a temporary file in the same folder, then `os.replace`).
"""
from __future__ import annotations

import json
import os
from pathlib import Path

from engine.core.safefile import LIMITS, UnreadableFile, read_regular_file, set_aside, user_path
from engine.core.parallel import MAX_THREADS

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
    # search threads of the AI: 0 is automatic (every core but one, at least one)
    "ai_threads": 0,
    # self-play workers of background training: 0 is automatic (`gui.training.default_workers`);
    # a count above the cores is used as all of them (`gui.training.workers_for`)
    "train_workers": 0,
    "demo_levels": ["strong", "strong"],
    "last_game": "tictactoe",
    # game key -> "shipped" or "trained": which model the AI uses
    "models": {},
    # the time control of new games (`engine.play.clock.TimeControl.text`; "-": no clock)
    "time_control": "-",
    # the clocks stop while the window is not in front
    "clock_pause": True,
    # games with take-backs count for the player's rating
    "rate_takebacks": False,
}

# keys whose value must be one of a fixed set
_CHOICES = {
    "language": LANGUAGES,
    "window": WINDOW_PRESETS,
    "side": ("first", "second", "random"),
}


def settings_path() -> Path:
    return user_path("settings")


def _valid(key: str, value) -> bool:
    default = DEFAULTS[key]
    if key == "time_control":
        from engine.play.clock import parse_control
        return isinstance(value, str) and parse_control(value) is not None
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, str):
        return isinstance(value, str) and (key not in _CHOICES or value in _CHOICES[key])
    if isinstance(default, list):
        return (isinstance(value, list) and len(value) == len(default)
                and all(isinstance(v, str) for v in value))
    if key in ("ai_threads", "train_workers"):
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_THREADS
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


#: a settings file is a few hundred bytes; anything far larger is not one
MAX_SETTINGS_BYTES = LIMITS["settings"]


class SettingsProblem(Exception):
    """Why a settings file could not be used (a short English reason, for the log)."""


def _read(path: Path) -> dict | None:
    """The settings object in ``path``; None when there is no file; SettingsProblem when
    there is one that is not usable settings."""
    try:
        raw = read_regular_file(path, MAX_SETTINGS_BYTES)
    except UnreadableFile as e:
        if e.kind == "missing":
            return None
        if e.kind == "not_file":  # a folder, a FIFO (which would block), a device
            raise SettingsProblem("is not a regular file") from None
        if e.kind == "too_large":
            raise SettingsProblem(f"is larger than {MAX_SETTINGS_BYTES} bytes") from None
        raise SettingsProblem(str(e)) from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark, as some editors write, is fine
    except UnicodeDecodeError as e:
        raise SettingsProblem(f"is not UTF-8 text (byte {e.start})") from None
    try:
        data = json.loads(text)
    except RecursionError:
        raise SettingsProblem("is nested too deeply") from None
    except ValueError as e:
        raise SettingsProblem(f"is not valid JSON ({str(e)[:80]})") from None
    if not isinstance(data, dict):
        raise SettingsProblem("is not a JSON object")
    return data


def load_checked(path: Path | None = None) -> tuple[dict, str | None]:
    """(settings, problem): the settings on disk, or the defaults; ``problem`` is None when
    the file was fine or absent, else the name the unusable file was moved aside to (or its
    own name when it could not be moved). Never raises: settings must not stop the app."""
    path = path or settings_path()
    try:
        data = _read(path)
    except SettingsProblem as e:
        import logging
        backup = set_aside(path)
        logging.getLogger("zeroboard.settings").warning("settings file %s %s; moved aside to %s, using defaults",
                                                       path, e, backup)
        return sanitize({}), (backup or path).name
    return sanitize(data if data is not None else {}), None


def load(path: Path | None = None) -> dict:
    """The settings on disk, or the defaults (a corrupt file is moved aside first)."""
    return load_checked(path)[0]


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
        #: the name an unusable settings file was moved aside to, for one message at start-up
        self.problem: str | None = None
        if self.path:
            self.data, self.problem = load_checked(self.path)
        else:
            self.data = sanitize({})

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
