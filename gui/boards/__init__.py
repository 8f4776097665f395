"""Board renderers, one module per game: ``gui/boards/<game_id>.py`` defines ``RENDERER``.

`renderer_for(game)` finds a game's renderer by its id; a game without one is drawn by
the generic grid renderer, so a new game is playable before it has a pretty board.
"""
from __future__ import annotations

import importlib

from .base import BoardRenderer, GridRenderer, Overlays


def renderer_for(game, **options) -> BoardRenderer:
    """A new renderer for ``game`` (renderers keep animation state, so one per view)."""
    try:
        module = importlib.import_module(f"gui.boards.{game.id}")
        cls = getattr(module, "RENDERER")
    except (ImportError, AttributeError):
        cls = GridRenderer
    return cls(game, **options)


def renderer_class(game_id: str):
    try:
        return getattr(importlib.import_module(f"gui.boards.{game_id}"), "RENDERER")
    except (ImportError, AttributeError):
        return GridRenderer


__all__ = ["BoardRenderer", "GridRenderer", "Overlays", "renderer_for", "renderer_class"]
