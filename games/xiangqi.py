"""Xiangqi (Chinese chess): 9 files x 10 ranks, Red (player 0) moves first.

Rules. The general steps one point orthogonally inside its palace; advisors step one
point diagonally inside it; elephants move two points diagonally, never across the
river and not when the middle point (the "eye") is occupied; horses step one point
orthogonally then one diagonally outward, not when that first point (the "leg") is
occupied; chariots move like rooks; cannons move like rooks without capturing and
capture by jumping exactly one piece (the screen); soldiers step forward, and also
sideways once across the river. The generals may never face each other on an open
file. A move that leaves the mover's general attacked, or facing the other general,
is illegal. A side with no legal move loses (checkmate and stalemate alike).

Draw and repetition rules (checked after every move, in this order):
1. a side to move without a legal move loses;
2. when a position (board and side to move) occurs for the third time since the
   last capture, look at the moves played since its first occurrence (the Asian / WXF
   rules, as `games.xiangqi_chase` reads them): if every move of one side gave check
   and not every move of the other did, the side giving perpetual check loses (even
   against a perpetual chase); if both always checked, the game is drawn; otherwise,
   if one side chased one and the same piece with every move (attacked it anew where
   it could win it: unprotected, or attacked by a cheaper piece) and the other side did
   not, the chasing side loses ("perpetual chase"); else (a mutual chase, or no
   chase) the game is drawn;
3. after 120 plies (half-moves) in a row without a capture the game is drawn.
When the game is over `legal_actions()` is empty; `end_reason()` names the rule.
`max_game_length` (400 plies) is a cap for the engine's buffers and self-play; the
rules themselves allow longer games.

Network layout (always from the side to move; for Black the board is turned 180°):
row 0 of the planes is the rank farthest from the mover, column 0 the mover's left.
- actions: ``plane * 90 + row * 9 + col`` of the from-square, 52 planes of move
  types (directions in the mover's frame): 0..35 orthogonal, ``dir * 9 + (distance - 1)``
  with dir 0 forward, 1 right, 2 back, 3 left; 36..43 horse jumps; 44..47 one step
  diagonally (advisors); 48..51 two steps diagonally (elephants); see `PLANE_DELTAS`.
- encode(): 20 planes: 0..6 the mover's general, advisors, elephants, horses,
  chariots, cannons, soldiers; 7..13 the opponent's; 14 the plies since the last
  capture / 120 (constant plane); 15 all ones when the current position already
  occurred before (a further repeat ends the game); 16 and 17 how many of the mover's /
  the opponent's pieces attack each point (`attack_map`; 1/3 a piece, at most 1); 18 and
  19 the mover's / the opponent's pieces the other side can win (attacked, and undefended
  or attacked by a cheaper piece; `en_prise`). A small network cannot follow a chariot's
  or cannon's line across the board in a few 3x3 layers; these planes give it what the
  rules already know. Networks from before planes 16..19 (`Game.legacy_planes`) read the
  first 16 (`State.encode_planes`).
- board_array(): absolute orientation, row 0 = Black's back rank (rank 9), Red at
  the bottom; +code Red, -code Black with the codes below.

Notation (see `games.xiangqi_notation`): positions are FEN, optionally followed by
``moves`` and ICCS moves; moves are ICCS (``h2e2``); `action_to_display` gives WXF
(``C2.5``) or Chinese (``炮二平五``); `parse_action` reads all three.
"""
from __future__ import annotations

import math
import random
import struct
from array import array

import numpy as np

from . import native
from .base import Game, NotationError, SetupProblem, State, clip_text, replay, split_move_list
from .xiangqi_chase import perpetual_chasers
from .xiangqi_moves import (ADVISOR, CANNON, CHARIOT, ELEPHANT, FILES, GENERAL, HORSE, NUM_SQUARES, RANKS, SIGN,
                            SOLDIER, attack_map, attacked, capture_gain, en_prise, general_square, has_legal_move,
                            legal_moves, may_give_check, perft_counts, pseudo_moves)
from .xiangqi_notation import (START_FEN, board_to_fen, canonical_move_name, looks_like_move_name,
                               move_to_chinese, move_to_iccs, move_to_wxf, parse_fen, parse_iccs, piece_description,
                               square_name)

__all__ = ["Xiangqi", "XiangqiState", "GAME_CLASS", "GENERAL", "ADVISOR", "ELEPHANT", "HORSE", "CHARIOT",
           "CANNON", "SOLDIER", "NO_CAPTURE_LIMIT", "PLANE_DELTAS", "START_FEN"]

#: plies without a capture after which the game is drawn
NO_CAPTURE_LIMIT = 120
NUM_PLANES = 20
#: the planes before the attack planes (16..19): what networks trained before them read
BOARD_PLANES = 16
POLICY_PLANES = 52
ACTION_SIZE = POLICY_PLANES * NUM_SQUARES

_ORTHO_FRAME = ((-1, 0), (0, 1), (1, 0), (0, -1))  # forward, right, back, left as (drow, dcol)
_HORSE_FRAME = ((-2, -1), (-2, 1), (-1, 2), (1, 2), (2, 1), (2, -1), (1, -2), (-1, -2))
_DIAG_FRAME = ((-1, -1), (-1, 1), (1, 1), (1, -1))
#: (drow, dcol) of each policy plane in the mover's frame (row 0 = the far rank)
PLANE_DELTAS = tuple([(dr * d, dc * d) for dr, dc in _ORTHO_FRAME for d in range(1, 10)]
                     + list(_HORSE_FRAME) + list(_DIAG_FRAME) + [(2 * dr, 2 * dc) for dr, dc in _DIAG_FRAME])


def _from_frame(player: int, row: int, col: int) -> int:
    """Absolute square of (row, col) in ``player``'s frame (Black's frame is turned 180°)."""
    return (9 - row) * FILES + col if player == 0 else row * FILES + (8 - col)


def _action_tables():
    move_of = ([], [])   # [player][action] -> (from, to) or None
    action_of = ({}, {})  # [player][(from, to)] -> action
    for player in (0, 1):
        for plane, (dr, dc) in enumerate(PLANE_DELTAS):
            for cell in range(NUM_SQUARES):
                row, col = divmod(cell, FILES)
                tr, tc = row + dr, col + dc
                if 0 <= tr < RANKS and 0 <= tc < FILES:
                    mv = (_from_frame(player, row, col), _from_frame(player, tr, tc))
                    move_of[player].append(mv)
                    action_of[player][mv] = plane * NUM_SQUARES + cell
                else:
                    move_of[player].append(None)
    return tuple(tuple(m) for m in move_of), action_of


_MOVE_OF, _ACTION_OF = _action_tables()


def _mirror_tables() -> tuple[np.ndarray, np.ndarray]:
    cells = np.array([r * FILES + (FILES - 1 - c) for r in range(RANKS) for c in range(FILES)])
    planes = [PLANE_DELTAS.index((dr, -dc)) for dr, dc in PLANE_DELTAS]
    actions = np.array([planes[a // NUM_SQUARES] * NUM_SQUARES + cells[a % NUM_SQUARES]
                        for a in range(ACTION_SIZE)])
    return cells, actions


#: the compiled rules (games/_xiangqi_c.c), or None where the Python in games.xiangqi_moves runs;
#: each method below that has a compiled path takes it when this is set (tests switch it)
_core = native.load("games._xiangqi_c")

#: a packed board (90 signed bytes, as the compiled core's `child` gives it) as the tuple of piece codes
_UNPACK_BOARD = struct.Struct(f"{NUM_SQUARES}b").unpack

_rng = random.Random(0x5A0B)
#: Zobrist keys: _ZOBRIST[code + 7][square]; _ZOBRIST_BLACK is xored in when Black is to move.
#: The row of code 0 is all zeros, so xoring in "the captured piece" of a quiet move changes nothing.
_ZOBRIST = tuple(tuple(_rng.getrandbits(64) if code != 7 else 0 for _ in range(NUM_SQUARES)) for code in range(15))
_ZOBRIST_BLACK = _rng.getrandbits(64)
if _core is not None:   # its child() hashes the positions it makes with these keys
    _core.set_zobrist([key for row in _ZOBRIST for key in row], _ZOBRIST_BLACK)
_PLANE_CODES = np.array([1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7], dtype=np.int8)[:, None, None]
_SIDE_NAMES = ("Red", "Black")
_MATERIAL = (0.0, 0.0, 2.0, 2.0, 4.0, 9.0, 4.5, 1.0)  # by piece code; the general is priceless


def _zobrist(board, player: int) -> int:
    h = _ZOBRIST_BLACK if player else 0
    for sq, p in enumerate(board):
        if p:
            h ^= _ZOBRIST[p + 7][sq]
    return h


class XiangqiState(State):
    """One immutable xiangqi position with the history its repetition rules need."""

    __slots__ = ("game", "_board", "_packed", "_player", "_clock", "_root", "_moves", "_up", "_hash", "_history",
                 "_checks", "_check", "_legal_ft", "_legal", "_result", "_capture", "_threat", "_mate", "_material")

    def __init__(self, game, board, player, clock, root, moves, zhash, history, checks, check, up=None):
        self.game = game
        # the board as 90 piece codes (`board`), or as the compiled core's 90 signed bytes, which a
        # search's nodes keep (a sixth of the tuple's memory, read by the core without converting
        # 90 ints) and which become the tuple when Python code asks for it
        if type(board) is bytes:
            self._board, self._packed = None, board
        else:
            self._board, self._packed = board, None
        self._player = player
        self._clock = clock        # plies since the last capture
        self._root = root          # (FEN, player, move number) of the position the moves start from
        # the actions played from there (`moves`): a tuple, or None with ``up`` = (the state before,
        # the action from it), as a search's nodes hold them (a tuple each would grow with the game)
        self._moves = moves
        self._up = up
        self._hash = zhash
        self._history = history    # hashes of the positions since the last capture, this one last
        self._checks = checks      # for each of those positions: was its side to move in check?
        self._check = check
        self._legal_ft = None
        self._legal = None
        self._result = None
        self._capture = None
        self._threat = None
        self._mate = None        # can the side to move mate at once (the compiled core's answer)
        self._material = None    # `_material_balance`, once asked

    @classmethod
    def from_fen(cls, game, fen: str) -> "XiangqiState":
        board, player, clock, fullmove = parse_fen(fen)
        root = (board_to_fen(board, player, clock, fullmove), player, fullmove)
        h = _zobrist(board, player)
        check = attacked(board, general_square(board, player), SIGN[player])
        return cls(game, board, player, clock, root, (), h, (h,), (check,), check)

    @property
    def board(self) -> tuple[int, ...]:
        """90 piece codes indexed by ``rank * 9 + file`` (absolute ICCS coordinates)."""
        board = self._board
        if board is None:
            board = self._board = _UNPACK_BOARD(self._packed)
        return board

    @property
    def _native_board(self):
        """The board as the compiled core reads it fastest: its packed bytes where the state has
        them, else the tuple."""
        packed = self._packed
        return packed if packed is not None else self._board

    # --- turn and rules -------------------------------------------------
    @property
    def current_player(self) -> int:
        return self._player

    @property
    def moves(self) -> tuple[int, ...]:
        moves = self._moves
        if moves is None:   # a search's node: the actions up to the nearest state that holds them
            tail, st = [], self
            while st._moves is None:
                st, action = st._up
                tail.append(action)
            tail.reverse()
            moves = self._moves = st._moves + tuple(tail)
            self._up = None
        return moves

    def _legal_moves(self) -> list[tuple[int, int]]:
        """Legal (from, to) squares by the movement rules alone (game-end rules ignored)."""
        if self._legal_ft is None:
            self._legal_ft = (legal_moves(list(self.board), self._player) if _core is None
                              else _core.legal_moves(self._native_board, self._player))
        return self._legal_ft

    def _outcome(self) -> tuple[bool, int | None, str | None]:
        if self._result is None:
            if _core is not None:
                self._fill()
            else:
                self._result = self._judge()
        return self._result

    def _fill(self) -> None:
        """With the compiled core: what a search asks of a new position (the end of the game,
        the legal actions, a mate in one, the winning capture and the material), from one call
        that reads the board once; each is what the method that asks for it would compute."""
        self._set_leaf(*_core.leaf(self._native_board, self._player, self._check, self._clock, self._history,
                                   self._checks))

    def _set_leaf(self, result, actions, mate, gain, capture, material) -> None:
        """The caches `_fill` fills, from the compiled core's answer for this position."""
        if result[2] == "repetition":   # only a repeated position pays for the chase rule (over either way)
            result = self._judge_chases() or result
        self._result = result
        legal = array("H")
        legal.frombytes(actions)
        self._legal = legal
        self._mate = mate
        self._capture = (min(gain, 1000) / 10.0, capture if capture >= 0 else None)
        self._material = material

    def _judge(self) -> tuple[bool, int | None, str | None]:
        """The end of the game by the Python rules (with the compiled core, `_fill` judges)."""
        result = self._judge_by_checks()
        if result[2] == "repetition":   # only a repeated position pays for the chase rule
            return self._judge_chases() or result
        return result

    def _judge_by_checks(self) -> tuple[bool, int | None, str | None]:
        """`_judge` without the chase rule (what the compiled core's ``outcome`` decides)."""
        me = self._player
        if not self._legal_moves():
            return True, 1 - me, "checkmate" if self._check else "stalemate"
        hist = self._history
        if hist.count(self._hash) >= 3:
            first, last = hist.index(self._hash), len(hist) - 1
            # check flags of the positions each side's moves led to, since the first occurrence
            my_checks = all(self._checks[first + 1:last:2])
            their_checks = all(self._checks[first + 2:last + 1:2])
            if my_checks and not their_checks:
                return True, 1 - me, "perpetual check"
            if their_checks and not my_checks:
                return True, me, "perpetual check"
            return True, None, "repetition"
        if self._clock >= NO_CAPTURE_LIMIT:
            return True, None, "no capture in 120 plies"
        return False, None, None

    def _judge_chases(self) -> tuple[bool, int | None, str | None] | None:
        """At a repetition that no perpetual check decides: the side that chased one piece with
        every move since the position's first occurrence loses, unless the other side did too
        (`games.xiangqi_chase`); None when the draw stands."""
        hist = self._history
        first, last = hist.index(self._hash), len(hist) - 1
        if all(self._checks[first + 1:last + 1]):   # both sides always checked: a draw
            return None
        me = self._player
        played = self.moves
        cycle = played[len(played) - (last - first):]
        moves = [_MOVE_OF[(me + i) % 2][a] for i, a in enumerate(cycle)]
        moves_of = _core.legal_moves if _core is not None else (lambda b, p: legal_moves(list(b), p))
        chasers = perpetual_chasers(self.board, moves, me, moves_of)
        if chasers[me] == chasers[1 - me]:
            return None
        return True, (1 - me if chasers[me] else me), "perpetual chase"

    def legal_actions(self) -> list[int]:
        if self._legal is None:
            over = self._outcome()[0]   # with the compiled core, this lists them too (`_fill`)
            if self._legal is None:
                if over:
                    self._legal = array("H")
                elif _core is not None:
                    self._legal = array("H", _core.legal_actions(self._native_board, self._player))
                else:
                    table = _ACTION_OF[self._player]
                    self._legal = array("H", sorted(table[mv] for mv in self._legal_moves()))
            # search trees keep every state they reach: hold the moves as 2-byte actions, not
            # as (from, to) tuples (recomputed on demand if notation parsing needs them)
            self._legal_ft = None
        return list(self._legal)

    def apply_nth(self, j: int) -> "XiangqiState":
        """`apply` of the ``j``-th legal action; with the compiled core, the move and what a search
        asks of the new position (`_fill`) come from one call (a search node is asked at once)."""
        legal = self._legal
        action = legal[j] if legal is not None else self.legal_actions()[j]
        if _core is None:
            return self.apply(action)
        me = self._player
        f, t = _MOVE_OF[me][action]
        board, h, clock, history, checks, check, _, *leaf = _core.child(
            self._native_board, me, f, t, self._hash, self._clock, self._history, self._checks, None, action)
        child = XiangqiState(self.game, board, 1 - me, clock, self._root, None, h, history, checks, check,
                             (self, action))
        child._set_leaf(*leaf)
        return child

    def apply(self, action: int) -> "XiangqiState":
        me = self._player
        f, t = _MOVE_OF[me][action]
        p = self.board[f]
        other = 1 - me
        if _core is not None:
            board, q, check = _core.make_move(self.board, f, t)
        else:
            b = list(self.board)
            q = b[t]
            b[t] = p
            b[f] = 0
            check = attacked(b, b.index(-SIGN[me]), SIGN[other])
            board = tuple(b)
        h = self._hash ^ _ZOBRIST[p + 7][f] ^ _ZOBRIST[p + 7][t] ^ _ZOBRIST[q + 7][t] ^ _ZOBRIST_BLACK
        if q:
            clock, history, checks = 0, (h,), (check,)
        else:
            clock, history, checks = self._clock + 1, self._history + (h,), self._checks + (check,)
        return XiangqiState(self.game, board, other, clock, self._root, self.moves + (action,),
                            h, history, checks, check)

    def is_terminal(self) -> bool:
        return self._outcome()[0]

    def winner(self) -> int | None:
        return self._outcome()[1]

    def end_reason(self) -> str | None:
        """Why the game ended: "checkmate", "stalemate", "perpetual check", "perpetual chase",
        "repetition", "no capture in 120 plies"; None while it goes on."""
        return self._outcome()[2]

    def proven_value(self) -> float | None:
        """1.0 when the side to move can mate at once (a check that leaves no legal reply),
        else None: the search then knows a move that walks into a mate in one is lost
        without having to find the mating reply itself."""
        if self._outcome()[0]:
            return None
        if _core is not None:
            return 1.0 if self._mate else None
        me, other = self._player, 1 - self._player
        b = list(self.board)
        target = b.index(-GENERAL * SIGN[me])
        s = SIGN[other]
        for f, t in self._legal_moves():
            if not may_give_check(b, f, t, target):   # no check, so no mate: not worth making
                continue
            p, q = b[f], b[t]
            b[t], b[f] = p, 0
            mate = attacked(b, target, s) and not has_legal_move(b, other)
            b[f], b[t] = p, q
            if mate:
                return 1.0
        return None

    def wins_at_once(self) -> bool:
        """Whether the side to move can mate at once."""
        return self.proven_value() == 1.0

    def hanging_loss(self, action: int) -> float:
        """The material, in soldiers (`heuristic`), that ``action`` itself puts within the
        opponent's captures: what the opponent wins by captures after it, net of what the move
        takes, beyond what the opponent could already take before it (`threatened`). A piece
        moved where it is taken for less, or a defender moved away, counts; a threat the move
        does not answer does not (not seeing it is another kind of error). 0 for a mate."""
        me = self._player
        child = self.apply(action)
        if child.is_terminal():
            return 0.0
        after = child.heuristic(me) - child.capture_gain()
        return max(0.0, self.heuristic(me) - after - self.threatened())

    def threatened(self) -> float:
        """What the opponent could win by captures, in soldiers, if it were its move now (0 when
        the side to move is in check: every legal move answers that). Computed once a position
        (`hanging_loss` asks it for every move)."""
        if self._threat is None:
            if self._outcome()[0] or self.is_check():
                self._threat = 0.0
            else:
                other = 1 - self._player
                if _core is not None:
                    gain, _ = _core.capture_gain(self._native_board, other)
                else:
                    gain, _ = capture_gain(list(self.board), other)
                self._threat = min(gain, 1000) / 10.0
        return self._threat

    def capture_gain(self) -> float:
        """What the side to move wins by captures alone, in soldiers (chariot 9, cannon 4.5,
        horse 4, advisor and elephant 2, soldier 1; >= 0): a small quiescence search with
        stand-pat. The search adds it to the network's value at its leaves, so that a piece left
        to a capture, or an exchange that loses material, is seen without the network having
        learnt it (`engine.core.mcts.SearchConfig.capture_scale`)."""
        found = self._capture   # a search asks this of every leaf: its cache read first
        return (found if found is not None else self.winning_capture())[0]

    def tactical_priors(self) -> list[tuple[int, float]]:
        """The capture that starts a winning exchange, with a prior share of gain / 20 (a chariot
        0.45, a horse 0.2; at most 0.5): the search tries it even where the network has not
        learnt to (`engine.core.mcts.with_tactics`)."""
        found = self._capture
        gain, action = found if found is not None else self.winning_capture()
        return [] if action is None else [(action, min(0.5, gain / 20.0))]

    def winning_capture(self) -> tuple[float, int | None]:
        """(`capture_gain`, the legal capture that starts it or None): the search makes sure
        this move is tried, whatever the network's prior says."""
        if self._capture is None:
            over = self._outcome()[0]   # with the compiled core, this finds it too (`_fill`)
            if self._capture is None:
                if over:
                    gain, first = 0, None
                elif _core is not None:
                    gain, first = _core.capture_gain(self._native_board, self._player)
                else:
                    gain, first = capture_gain(list(self.board), self._player)
                action = None
                if first is not None:
                    action = _ACTION_OF[self._player].get(first)
                    if action is not None and action not in self.legal_actions():
                        action = None
                self._capture = (min(gain, 1000) / 10.0, action)
        return self._capture

    # --- helpers for players and the GUI ----------------------------------
    def is_check(self) -> bool:
        """Is the side to move in check (or would its general face the other one)?"""
        return self._check

    def piece_at(self, file: int, rank: int) -> int:
        """Piece code at ICCS coordinates (file 0..8 = a..i, rank 0..9 from Red's side): +Red, -Black, 0 empty."""
        return self.board[rank * FILES + file]

    def action_squares(self, action: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """((from_file, from_rank), (to_file, to_rank)) of an action, in ICCS coordinates."""
        f, t = _MOVE_OF[self._player][action]
        return (f % FILES, f // FILES), (t % FILES, t // FILES)

    def moves_from(self, file: int, rank: int) -> dict[tuple[int, int], int]:
        """Legal destinations of the piece on (file, rank) as {(to_file, to_rank): action}; {} if none."""
        out = {}
        for a in self.legal_actions():
            (ff, fr), to = self.action_squares(a)
            if ff == file and fr == rank:
                out[to] = a
        return out

    def captured(self, action: int) -> int:
        """Code of the piece the action captures (0 when it captures nothing)."""
        return self.board[_MOVE_OF[self._player][action][1]]

    def _material_balance(self) -> float:
        """Red's material minus Black's, in soldiers (see `heuristic`), the generals left out."""
        if self._material is None:
            self._material = _core.material(self._native_board) if _core is not None else self._count_material()
        return self._material

    def _count_material(self) -> float:
        """`_material_balance` in Python (the compiled core's `material` keeps to it)."""
        total = 0.0
        for sq, code in enumerate(self.board):
            if code:
                kind = abs(code)
                v = _MATERIAL[kind]
                if kind == 7 and ((code > 0 and sq // 9 >= 5) or (code < 0 and sq // 9 <= 4)):
                    v = 2.0
                total += v if code > 0 else -v
        return total

    def heuristic(self, player: int) -> float:
        """Material balance for ``player`` in conventional piece values (the greedy baseline's
        evaluation): chariot 9, cannon 4.5, horse 4, advisor and elephant 2, soldier 1 (2 once across
        the river); a lost general counts as -1000 (only checkmate positions reach it by rule)."""
        total = self._material if self._material is not None else self._material_balance()
        result = self._result
        if (result[0] if result is not None else self.is_terminal()) and self.winner() is not None:
            total += 1000.0 if self.winner() == 0 else -1000.0
        return total if player == 0 else -total

    def material(self) -> float:
        """The material balance for Red (player 0) squashed into [-1, 1]: tanh(balance / 8),
        the balance in soldiers as `heuristic` counts it without the generals (a chariot up:
        0.81, a horse: 0.46). Asked of a self-play game's final position, it is the target of
        a network's material head (``[net] material``), as the adjudication of an undecided
        game scores the same balance."""
        return math.tanh(self._material_balance() / 8.0)

    def repetitions(self) -> int:
        """How often the current position has occurred since the last capture (1 = first time)."""
        return self._history.count(self._hash)

    @property
    def no_capture_plies(self) -> int:
        """Plies played since the last capture (the 120-ply rule's counter)."""
        return self._clock

    def perft_counts(self, depth: int) -> list[int]:
        """Positions reached at plies 1..depth by pure move generation (repetition and draws ignored)."""
        if _core is not None:
            return _core.perft(self._native_board, self._player, depth)
        return perft_counts(self.board, self._player, depth)

    # --- network ----------------------------------------------------------
    def encode(self) -> np.ndarray:
        return self.encode_planes(NUM_PLANES)

    @classmethod
    def encode_batch(cls, states, planes: int | None = None) -> np.ndarray:
        """`encode_planes` of each of ``states`` (all planes where ``planes`` is None), written
        by the compiled core straight into the batch (the same values as stacking them)."""
        if _core is None or not states:
            return super().encode_batch(states, planes)
        count = NUM_PLANES if planes is None else min(max(int(planes), 0), NUM_PLANES)
        out = np.empty((len(states), count, RANKS, FILES), np.float32)
        _core.encode_states(out, states if type(states) is list else list(states), count)
        return out

    def encode_planes(self, planes: int) -> np.ndarray:
        """The first ``planes`` planes of `encode` (16: without the attack planes, which are
        then not computed)."""
        count = min(max(int(planes), 0), NUM_PLANES)
        if _core is not None:
            x = _core.encode(self._native_board, self._player, self._clock, self.repetitions() > 1, count)
            return np.frombuffer(x, dtype=np.float32).reshape(count, RANKS, FILES)
        arr = np.array(self.board, dtype=np.int8).reshape(RANKS, FILES)
        me = self._player
        rel = arr[::-1] if me == 0 else -arr[:, ::-1]
        out = np.zeros((max(count, BOARD_PLANES), RANKS, FILES), dtype=np.float32)
        out[:14] = rel[None] == _PLANE_CODES
        out[14] = self._clock / NO_CAPTURE_LIMIT
        if self.repetitions() > 1:
            out[15] = 1.0
        if count > BOARD_PLANES:
            counts, cheapest = attack_map(self.board)
            extra = np.array([counts[me], counts[1 - me], en_prise(self.board, counts, cheapest, me),
                              en_prise(self.board, counts, cheapest, 1 - me)], dtype=np.float32)
            extra[:2] = np.minimum(extra[:2], 3.0) / 3.0
            extra = extra.reshape(4, RANKS, FILES)
            out[BOARD_PLANES:] = (extra[:, ::-1] if me == 0 else extra[:, :, ::-1])[:count - BOARD_PLANES]
        return out[:count]

    def board_array(self) -> np.ndarray:
        return np.array(self.board, dtype=np.int8).reshape(RANKS, FILES)[::-1].copy()

    # --- notation --------------------------------------------------------
    def action_to_text(self, action: int) -> str:
        mv = _MOVE_OF[self._player][action]
        if mv is None:  # only for messages: the move type points off the board
            plane, cell = divmod(action, NUM_SQUARES)
            return f"{square_name(_from_frame(self._player, *divmod(cell, FILES)))}/plane{plane}"
        return move_to_iccs(*mv)

    def action_to_display(self, action: int, lang: str = "en") -> str:
        """WXF (``C2.5``) for "en", Chinese (``炮二平五``) for "zh"; call it on the position before the move."""
        mv = _MOVE_OF[self._player][action]
        if mv is None:
            return self.action_to_text(action)
        f, t = mv
        if lang.startswith("zh"):
            return move_to_chinese(self.board, self._player, f, t)
        return move_to_wxf(self.board, self._player, f, t)

    def parse_action(self, text: str) -> int:
        """Read a move in ICCS (``h2e2``, ``H2-E2``), WXF (``C2.5``) or Chinese (``炮二平五``)."""
        if self.is_terminal():
            raise NotationError(f"the game is over ({self.end_reason()}); no move can be played")
        side = _SIDE_NAMES[self._player]
        mv = parse_iccs(text)
        if mv is None:
            return self._parse_move_name(text, side)
        f, t = mv
        p = self.board[f]
        name = text.strip()
        if not p:
            raise NotationError(f"{name}: there is no piece on {square_name(f)}")
        if p * SIGN[self._player] < 0:
            raise NotationError(f"{name}: the piece on {square_name(f)} is {_SIDE_NAMES[1 - self._player]}'s "
                                f"but {side} is to move")
        if mv not in pseudo_moves(list(self.board), self._player)[0]:
            raise NotationError(f"{name}: the {piece_description(p)} on {square_name(f)} "
                                f"cannot move to {square_name(t)}")
        if mv not in self._legal_moves():
            raise NotationError(f"{name}: the move would leave the {side.lower()} general in check "
                                "or facing the other general")
        return _ACTION_OF[self._player][mv]

    def _parse_move_name(self, text: str, side: str) -> int:
        wanted = canonical_move_name(text)
        for a in self.legal_actions():
            if wanted in (canonical_move_name(self.action_to_display(a, "en")),
                          canonical_move_name(self.action_to_display(a, "zh"))):
                return a
        if looks_like_move_name(text):
            raise NotationError(f"{clip_text(text.strip())!r}: no legal move of {side} has this name in this position")
        raise NotationError(f"cannot read move {clip_text(text.strip())!r}: expected ICCS like h2e2, "
                            "WXF like C2.5 or Chinese like 炮二平五")

    def fen(self) -> str:
        """FEN of the current position (``w``/``b`` side to move, plies since capture, move number)."""
        _, root_player, root_fullmove = self._root
        fullmove = root_fullmove + (len(self.moves) + root_player) // 2
        return board_to_fen(self.board, self._player, self._clock, fullmove)

    def to_text(self) -> str:
        """The starting FEN, then ``moves`` and the ICCS moves played from it (when there are any)."""
        fen, player, _ = self._root
        if not self.moves:
            return fen
        texts = []
        for i, a in enumerate(self.moves):
            f, t = _MOVE_OF[(player + i) % 2][a]
            texts.append(move_to_iccs(f, t))
        return fen + " moves " + " ".join(texts)

    def render(self) -> str:
        letters = {GENERAL: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", CHARIOT: "r", CANNON: "c", SOLDIER: "p"}
        lines = []
        for rank in range(RANKS - 1, -1, -1):
            cells = []
            for f in range(FILES):
                p = self.board[rank * FILES + f]
                cells.append("." if not p else letters[abs(p)].upper() if p > 0 else letters[-p])
            lines.append(f"{rank} " + " ".join(cells))
            if rank == 5:
                lines.append("  " + "~" * (2 * FILES - 1))
        lines.append("  " + " ".join("abcdefghi"))
        lines.append(f"{_SIDE_NAMES[self._player]} to move" + (" (in check)" if self._check else ""))
        return "\n".join(lines)

    # --- identity ---------------------------------------------------------
    def key(self):
        return (self.board, self._player, self._clock, self._history)


class Xiangqi(Game):
    id = "xiangqi"
    name = "Xiangqi"
    proofs = "mate in one"
    board_shape = (RANKS, FILES)
    num_planes = NUM_PLANES
    #: networks trained before the attack planes read the first 16 planes
    legacy_planes = (BOARD_PLANES,)
    action_size = ACTION_SIZE
    policy_planes = POLICY_PLANES
    max_game_length = 400

    def __init__(self):
        self._initial = None
        self._symmetries = None

    def initial_state(self) -> XiangqiState:
        if self._initial is None:
            self._initial = XiangqiState.from_fen(self, START_FEN)
        return self._initial

    def state_from_text(self, text: str) -> XiangqiState:
        """Read ``startpos``, a FEN (optionally after ``fen``), either followed by ``moves m1 m2 ...``."""
        tokens = text.split()
        if tokens and tokens[0] == "position":  # UCI-style "position startpos moves ..."
            tokens = tokens[1:]
        cut = tokens.index("moves") if "moves" in tokens else len(tokens)
        head, moves = tokens[:cut], tokens[cut + 1:]
        if not head or head == ["startpos"]:
            state = self.initial_state()
        else:
            if head[0] == "fen":
                head = head[1:]
            state = XiangqiState.from_fen(self, " ".join(head))
        return replay(self, split_move_list(" ".join(moves)), start=state)

    def symmetries(self) -> list[tuple[np.ndarray, np.ndarray]]:
        """Identity and the left-right mirror (orthogonal and diagonal planes swap sides)."""
        if self._symmetries is None:
            cells, actions = _mirror_tables()
            self._symmetries = [(np.arange(NUM_SQUARES), np.arange(ACTION_SIZE)), (cells, actions)]
        return self._symmetries


GAME_CLASS = Xiangqi


# --- positions set up by hand (the board editor) ----------------------------------------------
_PIECE_WORDS = {GENERAL: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse", CHARIOT: "chariot",
                CANNON: "cannon", SOLDIER: "soldier"}
_SQUARE_RULES = {GENERAL: ("general_palace", "stays in its palace"),
                 ADVISOR: ("advisor_square", "stays on the five points of its palace's diagonals"),
                 ELEPHANT: ("elephant_square", "stays on its seven points on its own side of the river"),
                 SOLDIER: ("soldier_behind", "never stands behind its starting rank, nor off its starting "
                                             "files before the river")}


def _squares(board) -> list[int]:
    """``board`` (as `XiangqiState.board_array` lays it out: row 0 is rank 9) as the 90 piece
    codes indexed by ``rank * 9 + file``."""
    return [int(board[RANKS - 1 - rank][f]) for rank in range(RANKS) for f in range(FILES)]


def validate_position(game: Xiangqi, board, to_move: int) -> list[SetupProblem]:
    """Why the pieces on ``board`` with ``to_move`` to move cannot be played from: a missing
    general, more pieces of a kind than a side has, a piece on a point it can never reach
    (a general outside its palace, a soldier behind its start...), generals facing each
    other, the side not to move in check, the side to move without a move (the game is over)."""
    from .xiangqi_notation import _MAX_COUNT, _reachable
    b = _squares(board)
    problems = []
    if any(abs(p) > SOLDIER for p in b):
        return [SetupProblem("unknown_piece", "unknown piece code")]
    for player in (0, 1):
        side = _SIDE_NAMES[player]
        counts = {k: 0 for k in _MAX_COUNT}
        for p in b:
            if p * SIGN[player] > 0:
                counts[p * SIGN[player]] += 1
        if counts[GENERAL] == 0:
            problems.append(SetupProblem("no_general", f"{side} has no general", {"side": player}))
        for kind, n in counts.items():
            if n > _MAX_COUNT[kind]:
                problems.append(SetupProblem("too_many", f"{side} has {n} {_PIECE_WORDS[kind]}s: at most "
                                             f"{_MAX_COUNT[kind]}", {"side": player, "piece": kind, "count": n,
                                                                     "most": _MAX_COUNT[kind]}))
    for sq, p in enumerate(b):
        if p and not _reachable(abs(p), 0 if p > 0 else 1, sq % FILES, sq // FILES):
            code, rule = _SQUARE_RULES[abs(p)]
            side = 0 if p > 0 else 1
            problems.append(SetupProblem(code, f"the {_SIDE_NAMES[side].lower()} {_PIECE_WORDS[abs(p)]} on "
                                         f"{square_name(sq)}: a {_PIECE_WORDS[abs(p)]} {rule}",
                                         {"side": side, "piece": abs(p), "square": square_name(sq)}))
    if problems:
        return problems
    red, black = general_square(b, 0), general_square(b, 1)
    if red % FILES == black % FILES and not any(b[s] for s in range(red + FILES, black, FILES)):
        return [SetupProblem("generals_face", "the two generals face each other on an open file")]
    other = 1 - to_move
    if attacked(b, general_square(b, other), SIGN[other]):
        return [SetupProblem("not_to_move_in_check", f"{_SIDE_NAMES[other]} is in check but it is "
                             f"{_SIDE_NAMES[to_move]}'s turn: the general would be taken",
                             {"side": other, "mover": to_move})]
    state = position_from_setup(game, board, to_move)
    if not state.legal_actions():
        code = "checkmated" if state.is_check() else "stalemated"
        return [SetupProblem(code, f"{_SIDE_NAMES[to_move]} has no legal move ({code}): the game is over",
                             {"side": to_move})]
    return []


def position_from_setup(game: Xiangqi, board, to_move: int) -> XiangqiState:
    """The position as a FEN start (the game's own start when it is the usual one)."""
    from .xiangqi_notation import board_to_fen
    fen = board_to_fen(_squares(board), to_move)
    start = game.initial_state()
    return start if fen == start.fen() else XiangqiState.from_fen(game, fen)
