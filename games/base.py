"""The state API every game implements.

A `Game` describes one game variant (its board, action space, network input and
symmetries); a `State` is one immutable position of it. Search, training and the
GUI are written against these two classes only, so they never need to know which
game they are handling.

Conventions shared by every game:
- players are numbered 0 (moves first) and 1;
- actions are ints in ``range(game.action_size)``; ``state.legal_actions()`` lists
  the legal ones; ``state.apply(a)`` returns a new state and leaves ``state`` as it
  was (states are immutable, so copying is free and undo is keeping the old one);
- ``state.encode()`` gives the network input from the point of view of the player
  to move, shape ``(game.num_planes, H, W)``;
- when ``game.policy_planes`` is set, action ``a < policy_planes*H*W`` belongs to
  plane ``a // (H*W)`` and cell ``a % (H*W)`` of the board grid (row-major, row 0 at
  the top of the encoded planes), so a convolutional policy head can produce it;
  actions from ``policy_planes*H*W`` upward (othello's pass) are "extra" actions.

Optional State hooks the engine uses when a game offers them:
- ``heuristic(player) -> float``: a position score (the greedy baseline; self-play
  adjudication when a game's config asks for it);
- ``proven_value() -> 1.0 | 0.0 | -1.0 | None``: an exact result the rules show at once
  for the player to move (a win in one, such as xiangqi's mate in one; or no win in one
  while the opponent has two, of which one move can stop only one; or, where a game can
  afford it, an exact solution of a small endgame, such as connect4's); the search scores such
  positions like finished games instead of asking the network, and passes the results up
  its tree;
- ``wins_at_once() -> bool``: whether the side to move has a move that wins the game at once
  (a five, a four in a row, a mate in one); the glancing weak level (`engine.play.players`)
  never misses such a move and never allows one (without the hook it tries every move);
- ``hanging_loss(action) -> float``: the material ``action`` leaves the opponent to take at
  once, net of what it takes, in ``heuristic``'s units (xiangqi); the glancing level does not
  leave material to be taken where it has a move that does not;
- ``noticeable_actions() -> list[int]``: the legal moves a person looks at first (gomoku: the
  points near the stones); the glancing level draws the moves it notices from these;
- ``proven_plies() -> int``: how many plies away the result ``proven_value`` gave is (at
  least; default 1), so a lost side holds out against the longest proof;
- ``deep_proven_value() -> 1.0 | 0.0 | -1.0 | None``: a slower proof, asked only for the
  positions right below the search's root where ``proven_value`` finds nothing (gomoku: a
  victory by continuous threats);
- ``winning_action() -> action | None``: a move proven to win, which the search's root plays
  (gomoku: the first move of such a victory);
- ``random_playout(rng, max_plies) -> (finished, winner)``: a fast random game for the
  rollout evaluator, drawing from ``rng`` exactly as the generic playout would;
- ``ownership() -> int8 (H, W)``: who holds each cell, +1 player 0, -1 player 1, 0 nobody,
  laid out as the encoded planes are (gomoku's stones, othello's discs): asked of a self-play
  game's final position, it is the auxiliary ownership target of every position of that game
  (KataGo's final-ownership target; a network with ``[net] ownership`` learns it).
- ``material() -> float``: the material balance for player 0 in [-1, 1] (xiangqi:
  tanh(balance / 8) in soldiers): asked of a self-play game's final position, it is the
  auxiliary material target of every position of that game, from each mover's side (a network
  with ``[net] material`` learns it from its value head's hidden layer).
"""
from __future__ import annotations

import sys
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Iterable, Sequence

import numpy as np


class NotationError(ValueError):
    """Raised when text (a move, a position, a FEN...) cannot be parsed or is illegal.

    The message says what is wrong and where.
    """


def clip_text(text: str, limit: int = 40) -> str:
    """``text`` shortened for an error message (a hostile input can be megabytes long)."""
    return text if len(text) <= limit else text[:limit - 1] + "…"


@dataclass(frozen=True)
class SetupProblem:
    """Why a position set up by hand cannot be played: ``code`` names the rule (the GUI says
    it in the interface language from ``code`` and ``fields``), ``message`` says it in English."""
    code: str
    message: str
    fields: dict = field(default_factory=dict)


class SetupError(NotationError):
    """A position set up by hand that no game reaches; ``problems`` says why."""

    def __init__(self, problems: Sequence[SetupProblem]):
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems) or "the position cannot be played")


class Game(ABC):
    """Static description of one game variant.

    A position set up by hand (the board editor) is checked and made by the game module's
    ``validate_position(game, board, to_move)`` and ``position_from_setup(game, board,
    to_move)``, reached through `Game.validate_position` and `Game.from_setup`; ``board`` is
    laid out as `State.board_array` returns it.
    """

    #: registry id, e.g. ``"connect4"``
    id: str = ""
    #: human name, e.g. ``"Connect Four"``
    name: str = ""
    #: (rows, columns) of the board grid the planes and the policy use
    board_shape: tuple[int, int] = (0, 0)
    #: number of input feature planes
    num_planes: int = 0
    #: earlier plane counts whose networks still load (planes added later go after them in
    #: ``encode``): such a network reads only its first planes (``State.encode_planes``) and
    #: plays as it did; training widens it to all planes unless ``[net] in_planes`` keeps it
    legacy_planes: tuple[int, ...] = ()

    @property
    def network_planes(self) -> tuple[int, ...]:
        """The input plane counts a network of this game may read: all planes, or an earlier
        encoding's (``legacy_planes``)."""
        return (self.num_planes, *self.legacy_planes)
    #: size of the fixed action space (the network's policy size)
    action_size: int = 0
    #: planes of the spatial policy layout, or None when actions do not map onto
    #: board cells (connect4's columns); see the module docstring
    policy_planes: int | None = None
    #: an upper bound on the number of plies of one game (for buffers and caps)
    max_game_length: int = 0

    @property
    def proofs(self) -> str:
        """What ``State.proven_value`` proves in this game, in a few words, for strength
        reports ("" when the game has no such hook)."""
        return ""

    @property
    def variant(self) -> dict:
        """Parameters that distinguish this variant (e.g. ``{"size": 15}``); {} when none."""
        return {}

    @property
    def key(self) -> str:
        """Id plus variant, e.g. ``"gomoku-9"``; used to match checkpoints to games."""
        v = self.variant
        if not v:
            return self.id
        return self.id + "-" + "-".join(str(v[k]) for k in sorted(v))

    @property
    def network_key(self) -> str:
        """The key of the networks this variant plays when it has none of its own (a rule
        variant that plays its base game's network; `Game.key` by default)."""
        return self.key

    @abstractmethod
    def initial_state(self) -> "State":
        """The start position."""

    @abstractmethod
    def state_from_text(self, text: str) -> "State":
        """Parse a whole position in the game's notation; raises NotationError."""

    def _setup_module(self):
        module = sys.modules.get(type(self).__module__)
        if not hasattr(module, "validate_position") or not hasattr(module, "position_from_setup"):
            raise NotImplementedError(f"{self.name} has no board editor")
        return module

    def validate_position(self, board, to_move: int) -> list[SetupProblem]:
        """Every reason why the hand-made position ``board`` (as `State.board_array` lays it
        out) with ``to_move`` to move cannot be played from; [] when it can."""
        board = np.asarray(board, dtype=np.int8)
        if board.shape != tuple(self.board_shape):
            return [SetupProblem("shape", f"the board must be {self.board_shape[0]} x {self.board_shape[1]}",
                                 {"rows": self.board_shape[0], "columns": self.board_shape[1]})]
        if to_move not in (0, 1):
            return [SetupProblem("side", "the side to move must be 0 or 1")]
        return list(self._setup_module().validate_position(self, board, int(to_move)))

    def from_setup(self, board, to_move: int) -> "State":
        """The state of the hand-made position; `SetupError` when `validate_position` finds a
        problem. Its ``moves`` are those the game module needs to reach it (none for a game
        whose positions have their own start, like a xiangqi FEN; the stones in an order that
        places them for games where only the stones count, see `placement_moves`)."""
        problems = self.validate_position(board, to_move)
        if problems:
            raise SetupError(problems)
        return self._setup_module().position_from_setup(self, np.asarray(board, dtype=np.int8), int(to_move))

    def symmetries(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """The board symmetries as ``(cell_perm, action_perm)`` pairs, identity first.

        ``planes.reshape(C, H*W)[:, cell_perm]`` is the transformed input and
        ``policy[action_perm]`` the transformed policy (both are gathers).
        """
        h, w = self.board_shape
        return [(np.arange(h * w), np.arange(self.action_size))]

    def augment(self, planes: np.ndarray, policy: np.ndarray) -> list[tuple[np.ndarray, np.ndarray]]:
        """Apply every symmetry to one training example."""
        c, h, w = planes.shape
        flat = planes.reshape(c, h * w)
        return [(flat[:, cp].reshape(c, h, w), policy[ap]) for cp, ap in self.symmetries()]

    def __repr__(self) -> str:
        return f"<Game {self.key}>"


class State(ABC):
    """One immutable position. Subclasses must be cheap to create."""

    game: Game

    # --- turn and rules -------------------------------------------------
    @property
    @abstractmethod
    def current_player(self) -> int:
        """0 or 1: the player to move."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions, sorted ascending; empty exactly when the game is over. (The search
        stores a node's edges by their position in this list, so the order must not vary.)"""

    @abstractmethod
    def apply(self, action: int) -> "State":
        """The position after ``action``. Assumes legality (use `play` for untrusted input)."""

    def apply_nth(self, j: int) -> "State":
        """The position after the ``j``-th of `legal_actions` (how the search tree names its
        edges); a game that holds its legal actions may answer without listing them again."""
        return self.apply(self.legal_actions()[j])

    @abstractmethod
    def is_terminal(self) -> bool:
        """True when the game is over."""

    @abstractmethod
    def winner(self) -> int | None:
        """0 or 1 when that player has won; None for a draw or an unfinished game."""

    def play(self, action: int) -> "State":
        """Like `apply`, but checks legality first and raises NotationError otherwise."""
        if self.is_terminal():
            raise NotationError("the game is over; no move can be played")
        if action not in self.legal_actions():
            raise NotationError(f"illegal move {self.action_to_text(action) if 0 <= action < self.game.action_size else action!r}")
        return self.apply(action)

    def returns(self) -> tuple[float, float]:
        """Outcome for (player 0, player 1): +1 win, -1 loss, 0 draw or unfinished."""
        w = self.winner()
        if w is None:
            return (0.0, 0.0)
        return (1.0, -1.0) if w == 0 else (-1.0, 1.0)

    def terminal_value(self) -> float:
        """Outcome for the player to move in a terminal position (+1, 0 or -1)."""
        w = self.winner()
        if w is None:
            return 0.0
        return 1.0 if w == self.current_player else -1.0

    # --- network ----------------------------------------------------------
    @abstractmethod
    def encode(self) -> np.ndarray:
        """float32 planes ``(num_planes, H, W)`` from the point of view of the player to move."""

    def encode_planes(self, planes: int) -> np.ndarray:
        """The first ``planes`` planes of `encode`: what a network trained on an earlier, shorter
        encoding (``Game.legacy_planes``) reads. A game whose later planes cost time to compute
        overrides this to skip them."""
        full = self.encode()
        return full if planes >= len(full) else full[:planes]

    @classmethod
    def encode_batch(cls, states, planes: int | None = None) -> np.ndarray:
        """The inputs of ``states`` (all of this class) stacked: each one's `encode`, or with
        ``planes`` its `encode_planes(planes)`, as ``np.stack`` stacks them. A game with a
        compiled encoder overrides this to write them into the batch in place."""
        return np.stack([s.encode() if planes is None else s.encode_planes(planes) for s in states])

    def board_array(self) -> np.ndarray:
        """int8 ``(H, W)`` board for renderers: 0 empty, +k a piece of player 0, -k of player 1.

        ``k`` is 1 in games with one kind of piece; xiangqi uses its piece codes.
        Row 0 is the top row as a person sees the board (not the player-relative view).
        """
        raise NotImplementedError

    # --- notation --------------------------------------------------------
    @abstractmethod
    def action_to_text(self, action: int) -> str:
        """The action in the game's standard notation."""

    def action_to_display(self, action: int, lang: str = "en") -> str:
        """The action as a move list shows it; xiangqi gives WXF (en) or Chinese (zh) notation."""
        return self.action_to_text(action)

    @abstractmethod
    def parse_action(self, text: str) -> int:
        """Parse a move in this position; raises NotationError if malformed or illegal."""

    @abstractmethod
    def to_text(self) -> str:
        """The whole position in the game's notation (``game.state_from_text`` reads it back)."""

    @abstractmethod
    def render(self) -> str:
        """A plain-text picture of the board."""

    @property
    @abstractmethod
    def moves(self) -> tuple[int, ...]:
        """The actions played since the start position (or the FEN, for xiangqi)."""

    # --- identity ---------------------------------------------------------
    @abstractmethod
    def key(self):
        """A cheap hashable identity of the position (board + side to move + rule state)."""

    def __hash__(self) -> int:
        return hash(self.key())

    def __eq__(self, other) -> bool:
        return isinstance(other, State) and other.game.key == self.game.key and other.key() == self.key()

    def __repr__(self) -> str:
        return f"<{self.game.key} {self.to_text()!r}>"


class AlternatingState(State):
    """A State for games whose players strictly alternate: the move list decides who is to
    move, and the winner is fixed when the position is made. Subclasses add their board."""

    __slots__ = ("game", "_moves", "_winner")

    @property
    def current_player(self) -> int:
        return len(self._moves) & 1

    @property
    def moves(self) -> tuple[int, ...]:
        return self._moves

    def winner(self) -> int | None:
        return self._winner


def split_move_list(text: str, single_chars: bool = False) -> list[str]:
    """Split a move list on whitespace and commas; with ``single_chars`` also split
    runs like ``4453`` into single characters (connect2, connect4)."""
    parts = [p for p in text.replace(",", " ").split() if p]
    if single_chars:
        return [c for p in parts for c in p]
    return parts


def replay(game: Game, tokens: Iterable[str], start: State | None = None) -> State:
    """Play move texts from ``start`` (default: the start position); the error names the bad move's index."""
    state = start if start is not None else game.initial_state()
    for i, tok in enumerate(tokens):
        try:
            state = state.play(state.parse_action(tok))
        except NotationError as e:
            raise NotationError(f"move {i + 1} ({clip_text(tok)!r}): {e}") from None
    return state


def dihedral_symmetries(h: int, w: int, policy_planes: int, extra: int = 0,
                        which: Sequence[int] | None = None) -> list[tuple[np.ndarray, np.ndarray]]:
    """Symmetries of a square (8) or rectangular (4) grid as index gathers.

    ``which`` picks a subset of the 8 transforms (0 = identity). The action
    permutation maps every spatial plane the same way and leaves extra actions fixed.
    """
    idx = np.arange(h * w).reshape(h, w)
    transforms = [
        lambda a: a,
        lambda a: np.rot90(a, 1),
        lambda a: np.rot90(a, 2),
        lambda a: np.rot90(a, 3),
        lambda a: np.fliplr(a),
        lambda a: np.flipud(a),
        lambda a: a.T,
        lambda a: np.rot90(a, 2).T,
    ]
    if which is None:
        which = range(8) if h == w else (0, 2, 4, 5)
    out = []
    for t in which:
        cell = np.ascontiguousarray(transforms[t](idx)).reshape(-1)
        act = np.concatenate([cell + p * h * w for p in range(policy_planes)] +
                             [np.arange(policy_planes * h * w, policy_planes * h * w + extra)])
        out.append((cell, act))
    return out


def count_problems(first: int, second: int, to_move: int, names: tuple[str, str], unit: str) -> list[SetupProblem]:
    """The side to move a game where players alternate from an empty board allows: the first
    player to move with as many pieces as the second, the second with one fewer."""
    fields = {"first": first, "second": second, "unit": unit}
    if to_move == 0 and first != second:
        return [SetupProblem("count_first", f"{names[0]} moves first, so with {names[0]} to move both sides need "
                             f"the same number of {unit}s ({first} and {second} now)", fields)]
    if to_move == 1 and first != second + 1:
        return [SetupProblem("count_second", f"{names[0]} moves first, so with {names[1]} to move {names[0]} needs "
                             f"one {unit} more than {names[1]} ({first} and {second} now)", fields)]
    return []


def placement_moves(game: Game, first: Sequence[int], second: Sequence[int]) -> State | None:
    """The position with the first player's pieces on ``first`` and the second's on ``second``
    (actions), reached by placing them alternately; None when the rules refuse a placement or
    the game ends before the last one (then no game of these rules reaches it this way)."""
    state = game.initial_state()
    order = [a for pair in zip(first, second) for a in pair] + list(first[len(second):])
    for i, action in enumerate(order):
        if state.is_terminal() or action not in state.legal_actions():
            return None
        state = state.apply(action)
    return state
