"""Where things live: bundled resources (source tree or PyInstaller bundle) and per-user directories.

Torch-free, so the GUI can import it before the first frame.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

APP_NAME = "ZeroBoard"
APP_AUTHOR = "ZeroBoard"
__version__ = "0.1.0"


def is_frozen() -> bool:
    """True inside a PyInstaller bundle."""
    return bool(getattr(sys, "frozen", False))


def resource_root() -> Path:
    """The folder holding assets/ and models/: the bundle's when frozen, else the source tree."""
    if is_frozen():
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return Path(__file__).resolve().parents[2]


def assets_dir() -> Path:
    return resource_root() / "assets"


def models_dir() -> Path:
    """Shipped models (read-only)."""
    return resource_root() / "models"


def _user_dir(kind: str) -> Path:
    # ZEROBOARD_HOME redirects every per-user directory (tests, portable installs).
    override = os.environ.get("ZEROBOARD_HOME")
    if override:
        path = Path(override) / kind
    else:
        import platformdirs
        getter = {"config": platformdirs.user_config_dir, "data": platformdirs.user_data_dir,
                  "log": platformdirs.user_log_dir, "cache": platformdirs.user_cache_dir}[kind]
        path = Path(getter(APP_NAME, APP_AUTHOR))
    path.mkdir(parents=True, exist_ok=True)
    return path


def user_config_dir() -> Path:
    return _user_dir("config")


def user_data_dir() -> Path:
    """Trained models, saved games, training runs started from the app."""
    return _user_dir("data")


def user_log_dir() -> Path:
    return _user_dir("log")


def user_cache_dir() -> Path:
    """Things rebuilt when missing: ONNX exports of read-only models, measured runtime choices."""
    return _user_dir("cache")


def shipped_model_path(game_key: str) -> Path | None:
    """models/<game key>.pt when it exists."""
    p = models_dir() / f"{game_key}.pt"
    return p if p.exists() else None


def shipped_train_config_path(game_key: str) -> Path | None:
    """models/<game key>.train.toml when it exists: the settings the shipped model's training line
    ended with, which a run continuing that model uses over the game's own (made for a random
    network)."""
    p = models_dir() / f"{game_key}.train.toml"
    return p if p.exists() else None


def user_model_path(game_key: str) -> Path:
    """Where the background trainer saves a game's newest improved model."""
    d = user_data_dir() / "models"
    d.mkdir(parents=True, exist_ok=True)
    return d / f"{game_key}.pt"
