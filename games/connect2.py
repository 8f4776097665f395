"""connect2: the 1x4 teaching game.

Players alternately fill any empty cell of a 1x4 strip; two adjacent cells of one
player win; a full strip is a draw. Cells are written ``1``..``4``. Small enough to
solve by hand, which makes it the engine's fastest end-to-end test.
"""
from __future__ import annotations

import numpy as np

from .base import (Game, NotationError, SetupProblem, State, clip_text, count_problems, placement_moves, replay,
                   split_move_list)

N = 4


class Connect2State(State):
    __slots__ = ("game", "cells", "_player", "_moves", "_winner")

    def __init__(self, game, cells=(0,) * N, player=0, moves=(), winner=None):
        self.game = game
        self.cells = cells  # 0 empty, 1 player 0, 2 player 1
        self._player = player
        self._moves = moves
        self._winner = winner

    @property
    def current_player(self) -> int:
        return self._player

    @property
    def moves(self) -> tuple[int, ...]:
        return self._moves

    def legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        return [i for i, c in enumerate(self.cells) if c == 0]

    def apply(self, action: int) -> "Connect2State":
        mark = self._player + 1
        cells = self.cells[:action] + (mark,) + self.cells[action + 1:]
        won = (action > 0 and cells[action - 1] == mark) or (action < N - 1 and cells[action + 1] == mark)
        return Connect2State(self.game, cells, 1 - self._player, self._moves + (action,),
                             self._player if won else None)

    def is_terminal(self) -> bool:
        return self._winner is not None or 0 not in self.cells

    def winner(self) -> int | None:
        return self._winner

    def encode(self) -> np.ndarray:
        me, other = self._player + 1, 2 - self._player
        planes = np.zeros((2, 1, N), dtype=np.float32)
        planes[0, 0] = [c == me for c in self.cells]
        planes[1, 0] = [c == other for c in self.cells]
        return planes

    def board_array(self) -> np.ndarray:
        return np.array([[{0: 0, 1: 1, 2: -1}[c] for c in self.cells]], dtype=np.int8)

    def action_to_text(self, action: int) -> str:
        return str(action + 1)

    def parse_action(self, text: str) -> int:
        t = text.strip()
        if len(t) != 1 or t not in "1234":
            raise NotationError(f"bad cell {clip_text(text)!r}: expected one of 1, 2, 3, 4")
        a = int(t) - 1
        if self.is_terminal():
            raise NotationError(f"cell {t}: the game is already over")
        if self.cells[a] != 0:
            raise NotationError(f"cell {t} is already taken")
        return a

    def to_text(self) -> str:
        return " ".join(str(a + 1) for a in self._moves)

    def render(self) -> str:
        return " ".join(".XO"[c] for c in self.cells)

    def key(self):
        return (self.cells, self._player)


class Connect2(Game):
    id = "connect2"
    name = "Connect 2"
    board_shape = (1, N)
    num_planes = 2
    action_size = N
    policy_planes = 1
    max_game_length = N

    def initial_state(self) -> Connect2State:
        return Connect2State(self)

    def state_from_text(self, text: str) -> Connect2State:
        return replay(self, split_move_list(text, single_chars=True))

    def symmetries(self):
        ident = np.arange(N)
        return [(ident, ident), (ident[::-1].copy(), ident[::-1].copy())]


GAME_CLASS = Connect2


def validate_position(game: Connect2, board, to_move: int) -> list[SetupProblem]:
    """Why the discs on ``board`` (one row: +1 the first player's, -1 the second's) with
    ``to_move`` to move cannot be played from."""
    cells = [int(v) for v in board.reshape(-1)]
    first, second = cells.count(1), cells.count(-1)
    problems = count_problems(first, second, to_move, ("first", "second"), "disc")
    pairs = {cells[i] for i in range(N - 1) if cells[i] and cells[i] == cells[i + 1]}
    if len(pairs) == 2:
        problems.append(SetupProblem("both_won", "both sides have two side by side: no game reaches this"))
    elif pairs:
        side = 0 if 1 in pairs else 1
        problems.append(SetupProblem("already_won", "that side has already won here", {"side": side}))
    elif 0 not in cells:
        problems.append(SetupProblem("board_full", "the board is full: the game is over"))
    return problems


def position_from_setup(game: Connect2, board, to_move: int) -> Connect2State:
    """The position, reached by placing the discs alternately (only the discs count)."""
    cells = [int(v) for v in board.reshape(-1)]
    return placement_moves(game, [i for i, v in enumerate(cells) if v > 0], [i for i, v in enumerate(cells) if v < 0])
