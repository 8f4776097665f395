"""Game rules. One module per game; this registry is the only place that names them.

Adding a game: write ``games/<id>.py`` defining a `Game` subclass exported as
``GAME_CLASS`` and add its id to `GAME_IDS`.
"""
from __future__ import annotations

import importlib

from .base import Game, NotationError, State

#: game ids in the order the app shows them
GAME_IDS = ("tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi")

_cache: dict[tuple, Game] = {}


def get_game(game_id: str, **variant) -> Game:
    """The `Game` for an id, e.g. ``get_game("gomoku", size=9)``; raises ValueError for an unknown id."""
    if game_id not in GAME_IDS:
        raise ValueError(f"unknown game {game_id!r}; choose one of: {', '.join(GAME_IDS)}")
    key = (game_id, tuple(sorted(variant.items())))
    if key not in _cache:
        module = importlib.import_module(f"games.{game_id}")
        game = module.GAME_CLASS(**variant)
        # spellings of one variant (rule="freestyle" or none) give one object
        _cache[key] = _cache.setdefault((game.key,), game)
    return _cache[key]


def game_from_key(key: str) -> Game:
    """Inverse of ``Game.key``: ``"gomoku-9"`` -> the 9x9 gomoku game, ``"gomoku-renju"`` -> renju."""
    game_id, _, rest = key.partition("-")
    if not rest:
        return get_game(game_id)
    module = importlib.import_module(f"games.{game_id}") if game_id in GAME_IDS else None
    if module is None:
        raise ValueError(f"unknown game {game_id!r}")
    parse = getattr(module.GAME_CLASS, "variant_from_key", None)
    if parse is not None:   # variants that are not all numbers (gomoku's rule)
        return get_game(game_id, **parse(rest.split("-")))
    names = getattr(module.GAME_CLASS, "variant_names", ())
    values = rest.split("-")
    if len(names) != len(values):
        raise ValueError(f"bad game key {key!r}")
    return get_game(game_id, **{n: int(v) for n, v in zip(sorted(names), values)})


__all__ = ["GAME_IDS", "Game", "NotationError", "State", "get_game", "game_from_key"]
