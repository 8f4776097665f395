"""Tic-tac-toe: three in a row on a 3x3 grid wins; a full board is a draw.

Cells are written ``a1``..``c3``: the column letter, then the row number counted
from the top, so ``a1`` is the top-left corner and ``b2`` the centre. A position
is the space-separated list of cells played from the empty board (``"b2 a1 c3"``).
Action = row * 3 + column, which is also the cell's bit in the stone bitboards.
"""
from __future__ import annotations

import re

import numpy as np

from .base import (AlternatingState, Game, NotationError, SetupProblem, clip_text, count_problems, dihedral_symmetries,
                   placement_moves, replay, split_move_list)

N = 3
CELLS = N * N
FULL = (1 << CELLS) - 1
COLUMNS = "abc"

_ROWS = [sum(1 << (r * N + c) for c in range(N)) for r in range(N)]
_COLS = [sum(1 << (r * N + c) for r in range(N)) for c in range(N)]
_DIAGONALS = [sum(1 << (i * N + i) for i in range(N)), sum(1 << (i * N + N - 1 - i) for i in range(N))]
#: for each cell, the winning lines through it (the only ones a move there can complete)
LINES_THROUGH: tuple[tuple[int, ...], ...] = tuple(
    tuple(line for line in _ROWS + _COLS + _DIAGONALS if line >> cell & 1) for cell in range(CELLS))
#: occupancy bitboard -> the empty cells, ascending
_EMPTY_CELLS: tuple[tuple[int, ...], ...] = tuple(
    tuple(a for a in range(CELLS) if not occ >> a & 1) for occ in range(1 << CELLS))
#: bitboard -> its nine cells as 0.0/1.0, for encode()
_BIT_PLANES = np.array([[(b >> a) & 1 for a in range(CELLS)] for b in range(1 << CELLS)], dtype=np.float32)

_CELL_RE = re.compile(r"([a-z])([0-9]{1,4})")  # a row of at most 4 digits: int() refuses 4300


def completes_line(stones: int, cell: int) -> bool:
    """True when ``stones`` (a bitboard containing ``cell``) has three in a row through ``cell``."""
    for line in LINES_THROUGH[cell]:
        if stones & line == line:
            return True
    return False


def cell_name(action: int) -> str:
    """``a1``-style name of a cell index."""
    return f"{COLUMNS[action % N]}{action // N + 1}"


class TicTacToeState(AlternatingState):
    """A tic-tac-toe position: two 9-bit bitboards (player 0's X, player 1's O)."""

    __slots__ = ("_x", "_o")

    def __init__(self, game: "TicTacToe", x: int = 0, o: int = 0, moves: tuple[int, ...] = (),
                 winner: int | None = None):
        self.game = game
        self._x = x
        self._o = o
        self._moves = moves
        self._winner = winner

    def legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        return list(_EMPTY_CELLS[self._x | self._o])

    def apply(self, action: int) -> "TicTacToeState":
        bit = 1 << action
        x, o = self._x, self._o
        if len(self._moves) & 1:
            o |= bit
            won = 1 if completes_line(o, action) else None
        else:
            x |= bit
            won = 0 if completes_line(x, action) else None
        return TicTacToeState(self.game, x, o, self._moves + (action,), won)

    def is_terminal(self) -> bool:
        return self._winner is not None or (self._x | self._o) == FULL

    def encode(self) -> np.ndarray:
        """Plane 0: the stones of the player to move; plane 1: the opponent's."""
        me, opp = (self._o, self._x) if len(self._moves) & 1 else (self._x, self._o)
        return _BIT_PLANES[[me, opp]].reshape(2, N, N)

    def board_array(self) -> np.ndarray:
        return (_BIT_PLANES[self._x] - _BIT_PLANES[self._o]).astype(np.int8).reshape(N, N)

    def action_to_text(self, action: int) -> str:
        return cell_name(action)

    def parse_action(self, text: str) -> int:
        t = text.strip().lower()
        m = _CELL_RE.fullmatch(t)
        if m is None:
            raise NotationError(f"bad cell {clip_text(text)!r}: expected a column letter a-c and a row number 1-3, like 'b2'")
        col, row = COLUMNS.find(m.group(1)), int(m.group(2)) - 1
        if col < 0 or not 0 <= row < N:
            raise NotationError(f"cell {t!r} is off the 3x3 board (columns a-c, rows 1-3)")
        if self.is_terminal():
            raise NotationError(f"cell {t}: the game is already over")
        action = row * N + col
        if (self._x | self._o) >> action & 1:
            raise NotationError(f"cell {t} is already taken")
        return action

    def to_text(self) -> str:
        return " ".join(cell_name(a) for a in self._moves)

    def render(self) -> str:
        lines = ["  " + " ".join(COLUMNS)]
        for r in range(N):
            cells = []
            for c in range(N):
                a = r * N + c
                cells.append("X" if self._x >> a & 1 else "O" if self._o >> a & 1 else ".")
            lines.append(f"{r + 1} " + " ".join(cells))
        return "\n".join(lines)

    def key(self):
        return (self._x, self._o)

    def perft_counts(self, depth: int) -> list[int]:
        """Fast perft on raw bitboards (see games.perft); the leaves are counted in bulk."""
        nodes = [0] * depth
        if depth <= 0 or self.is_terminal():
            return nodes
        last = depth - 1

        def walk(me: int, opp: int, ply: int) -> None:
            occupied = me | opp
            empty = _EMPTY_CELLS[occupied]
            nodes[ply] += len(empty)
            if ply == last:
                return
            for a in empty:
                mine = me | (1 << a)
                if not completes_line(mine, a) and (occupied | mine) != FULL:
                    walk(opp, mine, ply + 1)

        me, opp = (self._o, self._x) if len(self._moves) & 1 else (self._x, self._o)
        walk(me, opp, 0)
        return nodes


class TicTacToe(Game):
    """Tic-tac-toe; see the module docstring for the notation."""

    id = "tictactoe"
    name = "Tic-tac-toe"
    board_shape = (N, N)
    num_planes = 2
    action_size = CELLS
    policy_planes = 1
    max_game_length = CELLS

    def initial_state(self) -> TicTacToeState:
        return TicTacToeState(self)

    def state_from_text(self, text: str) -> TicTacToeState:
        return replay(self, split_move_list(text))

    def symmetries(self):
        return dihedral_symmetries(N, N, 1)

    def __reduce__(self):
        # pickles (for worker processes) refer to the registry instead of copying the object
        from . import game_from_key
        return (game_from_key, (self.key,))


def _stones(board) -> tuple[list[int], list[int]]:
    flat = [int(v) for v in board.reshape(-1)]
    return [a for a, v in enumerate(flat) if v > 0], [a for a, v in enumerate(flat) if v < 0]


def validate_position(game: TicTacToe, board, to_move: int) -> list[SetupProblem]:
    """Why X's and O's on ``board`` (+1 X, -1 O) with ``to_move`` to move cannot be played
    from: counts that do not fit the side to move, a line already made, a full board."""
    xs, os_ = _stones(board)
    problems = count_problems(len(xs), len(os_), to_move, ("X", "O"), "mark")
    x_line = any(completes_line(sum(1 << a for a in xs), a) for a in xs)
    o_line = any(completes_line(sum(1 << a for a in os_), a) for a in os_)
    if x_line and o_line:
        problems.append(SetupProblem("both_won", "both sides have three in a row: no game reaches this"))
    elif x_line or o_line:
        problems.append(SetupProblem("already_won", f"{'X' if x_line else 'O'} has already won here",
                                     {"side": 0 if x_line else 1}))
    elif len(xs) + len(os_) == CELLS:
        problems.append(SetupProblem("board_full", "the board is full: the game is over"))
    return problems


def position_from_setup(game: TicTacToe, board, to_move: int) -> TicTacToeState:
    """The position, reached by placing the marks alternately (only the marks count)."""
    return placement_moves(game, *_stones(board))


GAME_CLASS = TicTacToe
