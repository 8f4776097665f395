"""Othello (Reversi) on an 8x8 board, or a smaller even-sized one (6x6 for quick training).

Black (player 0) moves first from the standard start: with rows numbered from the
top, d4 and e5 white, d5 and e4 black. A move must flip at least one line of
opponent discs; a player with no such move must pass, and pass is then the only
legal action; the game ends when neither player can move. Most discs wins.

Squares are written ``a1``..``h8`` (column letter, row number from the top) and
the pass as ``pass``. A position is the transcript from the start, e.g.
``f5d6c3d3c4``; spaces between moves are optional when reading. A position set up by hand
(the board editor) is written ``setup`` and its board row by row from the top (``x`` black,
``o`` white, ``-`` empty, rows separated by ``/``) and ``b`` or ``w`` to move, then
``moves`` and the transcript from it: ``setup --------/.../-------- b moves f5d6``.
Action = row * size + column (also the square's bit in the bitboards); the pass
is action ``size * size``.
"""
from __future__ import annotations

import os
import re

import numpy as np

from . import native
from .base import Game, NotationError, SetupProblem, State, clip_text, dihedral_symmetries, replay

COLUMNS = "abcdefgh"
PLAYER_NAMES = ("Black", "White")
_SQUARE_RE = re.compile(r"([a-z])([0-9]{1,4})")  # a row of at most 4 digits: int() refuses 4300
#: one move of a transcript: "pass", a square, or any other single character (reported as bad)
_TOKEN_RE = re.compile(r"pass|[a-z][0-9]*|[^\s,]", re.IGNORECASE)

#: the compiled rules and endgame solvers (games/_othello_c.c), or None where this module's Python
#: runs; tests/test_othello_compiled.py compares the two
_core = native.load("games._othello_c")


def move_mask(me: int, opp: int, full: int, shifts: tuple[tuple[int, int], ...]) -> int:
    """Bitboard of the empty squares where ``me`` flips at least one of ``opp``'s discs.

    Flood fill along each direction: from my discs through runs of opponent discs
    (run lengths doubling per step) onto an empty square. ``shifts`` pairs each
    direction's bit distance with the mask of squares an opponent run may occupy
    in it, which keeps runs from wrapping round the board's edge.
    """
    moves = 0
    for d, inner in shifts:
        o = opp & inner
        d2 = d + d
        x = o & (me << d)
        x |= o & (x << d)  # runs of 1-2 discs; each doubling step below adds 2: up to 6, an 8x8 line's most
        pairs = o & (o << d)
        x |= pairs & (x << d2)
        x |= pairs & (x << d2)
        moves |= x << d
        x = o & (me >> d)
        x |= o & (x >> d)
        pairs = o & (o >> d)
        x |= pairs & (x >> d2)
        x |= pairs & (x >> d2)
        moves |= x >> d
    return moves & (full ^ (me | opp))


def flips(me: int, opp: int, square: int, up_rays: tuple, down_rays: tuple) -> int:
    """The opponent discs that ``me`` flips by playing on ``square`` (not including it).

    Each ray lists the squares from ``square`` to the edge in one direction; the
    first square on it that is not the opponent's decides whether the run between flips.
    """
    flipped = 0
    not_opp = ~opp
    for ray in up_rays[square]:  # rays towards higher bits: the nearest blocker is the lowest bit
        b = ray & not_opp
        b &= -b
        if b & me:
            flipped |= ray & (b - 1)
    for ray in down_rays[square]:  # rays towards lower bits: the nearest blocker is the highest bit
        b = ray & not_opp
        if b:
            b = 1 << (b.bit_length() - 1)
            if b & me:
                flipped |= ray & -(b << 1)
    return flipped


def _bits(mask: int) -> list[int]:
    """The indices of the set bits, ascending."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


#: positions with at most this many empty squares are solved exactly by `proven_value`
#: (win, draw or loss with perfect play, `solve`). Against Egaroucid at level 5 it raised the
#: strong level from 43.5% to 53.8% over the same 200 games' openings (docs/training.md,
#: 2026-11-25). With the compiled solver (docs/performance.md, "Othello's solver threshold",
#: 2026-11-29; CPU on the shipped network's own endgames) a cold solve takes 0.1 ms on average
#: at 12 empty squares, 1.0 ms at worst (14: 0.7 and 6.5 ms; 16: 4.1 and 40 ms; 18: 31 and
#: 232 ms; 20: 181 ms and 1.26 s; the Python's about a hundred times more). 14 was tried in play:
#: over the same 40 openings against Egaroucid at level 7 it scored no worse than 12 (77.5%
#: against 74.4%), but the strong level's 2,100-visit search then took up to 2.3 s CPU at 21-27
#: empty squares (12: 1.3 s at most), past the level's second; from 16 on it is slower still.
SOLVE_EMPTIES = 12
#: the most the environment may ask for: past it one solve can take seconds
_SOLVE_EMPTIES_LIMIT = 20 if _core is not None else 16
try:   # to measure the network and search without it: ZEROBOARD_OTHELLO_SOLVE_EMPTIES=0
    SOLVE_EMPTIES = min(_SOLVE_EMPTIES_LIMIT,
                        max(0, int(os.environ.get("ZEROBOARD_OTHELLO_SOLVE_EMPTIES", SOLVE_EMPTIES))))
except ValueError:
    pass   # not a number: keep the default

#: solved positions, (mover's discs, opponent's discs) -> (lower, upper) bound on the result;
#: cleared when it outgrows its limit (200,000 entries: about 60 MB)
_SOLVED: dict[tuple[int, int], tuple[int, int]] = {}
_SOLVED_LIMIT = 200_000
#: nodes with at least this many empty squares keep their bounds and try the moves that leave
#: the opponent the fewest replies first; below it a node costs less than that bookkeeping
_ORDER_EMPTIES = 6


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def solve(game: "Othello", me: int, opp: int) -> int:
    """The exact result for the side to move (discs ``me``, opponent's discs ``opp``) with
    perfect play by both: 1 a win, 0 a draw, -1 a loss (more discs at the end wins).

    A win/draw/loss alpha-beta search (a null window around the draw): the moves that leave
    the opponent the fewest replies are tried first, corners before them, and results and
    bounds of the larger positions are kept between calls, so the searches of neighbouring
    positions share their work. Its cost grows steeply with the empty squares: meant for
    the last ten or so."""
    if _core is not None:   # its own table of solved positions, kept between calls like _SOLVED
        return _core.solve(game.size, me, opp)
    if len(_SOLVED) > _SOLVED_LIMIT:
        _SOLVED.clear()
    empties = (game.full ^ (me | opp)).bit_count()
    return _negamax(game, me, opp, -1, 1, empties, False)


def _negamax(game: "Othello", me: int, opp: int, alpha: int, beta: int, empties: int, passed: bool) -> int:
    full = game.full
    if empties == 1:
        return _last_square(game, me, opp)
    mask = move_mask(me, opp, full, game.shifts)
    if not mask:
        if passed or not move_mask(opp, me, full, game.shifts):
            return _sign(me.bit_count() - opp.bit_count())
        return -_negamax(game, opp, me, -beta, -alpha, empties, True)
    up, down = game.up_rays, game.down_rays
    if empties < _ORDER_EMPTIES:
        best = -2
        while mask:
            bit = mask & -mask
            mask ^= bit
            f = flips(me, opp, bit.bit_length() - 1, up, down)
            v = -_negamax(game, opp ^ f, me | f | bit, -beta, -alpha, empties - 1, False)
            if v > best:
                if v >= beta:
                    return v
                best = v
                if v > alpha:
                    alpha = v
        return best
    key = (me, opp)
    bounds = _SOLVED.get(key)
    if bounds is not None:
        lo, hi = bounds
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
    first_alpha, first_beta = alpha, beta
    children = []
    shifts = game.shifts
    while mask:
        bit = mask & -mask
        mask ^= bit
        square = bit.bit_length() - 1
        f = flips(me, opp, square, up, down)
        new_me, new_opp = opp ^ f, me | f | bit
        replies = move_mask(new_me, new_opp, full, shifts).bit_count()
        children.append((replies - (4 if bit & game.corners else 0), new_me, new_opp))
    children.sort(key=_first)
    best = -2
    for _, new_me, new_opp in children:
        v = -_negamax(game, new_me, new_opp, -beta, -alpha, empties - 1, False)
        if v > best:
            best = v
            if v >= beta:
                break
            if v > alpha:
                alpha = v
    if best <= first_alpha:
        _SOLVED[key] = (-1, best)            # failed low: an upper bound
    elif best >= first_beta:
        _SOLVED[key] = (best, 1)             # failed high: a lower bound
    else:
        _SOLVED[key] = (best, best)
    return best


def _first(item: tuple) -> int:
    return item[0]


def _last_square(game: "Othello", me: int, opp: int) -> int:
    """The result with one empty square left: the mover fills it if it flips, else the
    opponent does if it can, else the game ends with it empty."""
    empty = game.full ^ (me | opp)
    square = empty.bit_length() - 1
    f = flips(me, opp, square, game.up_rays, game.down_rays)
    if f:
        return _sign(2 * (me.bit_count() + f.bit_count()) + 2 - game.cells)
    f = flips(opp, me, square, game.up_rays, game.down_rays)
    if f:
        return _sign(game.cells - 2 * (opp.bit_count() + f.bit_count()) - 2)
    return _sign(me.bit_count() - opp.bit_count())


#: positions with at most this many empty squares get their exact final disc margin
#: (`solve_margin`) for the study panel; see docs/studying-games.md for its cost
MARGIN_EMPTIES = 10


class SolveBudgetExceeded(Exception):
    """A margin solve (`solve_margin`) visited more positions than it was allowed."""


def solve_margin(game: "Othello", me: int, opp: int, budget: int | list = 200_000) -> int:
    """The final disc margin for the side to move (its discs minus the opponent's when the
    game ends, empty squares counting for nobody) with perfect play by both, each playing
    for the largest margin. An alpha-beta search over the whole range (fewest replies first,
    bounds of the larger positions kept for this call); raises `SolveBudgetExceeded` past
    ``budget`` positions (a one-item list: a budget shared with other calls, counted down)."""
    counter = budget if isinstance(budget, list) else [budget]
    if _core is not None and native.fits_budget(counter[0]):
        value, counter[0] = _core.solve_margin(game.size, me, opp, counter[0])
        if value is None:
            raise SolveBudgetExceeded
        return value
    table: dict[tuple[int, int], tuple[int, int]] = {}
    empties = (game.full ^ (me | opp)).bit_count()
    return _margin(game, me, opp, -game.cells, game.cells, empties, False, table, counter)


def _margin(game, me: int, opp: int, alpha: int, beta: int, empties: int, passed: bool, table, counter) -> int:
    counter[0] -= 1
    if counter[0] < 0:
        raise SolveBudgetExceeded
    full = game.full
    mask = move_mask(me, opp, full, game.shifts)
    if not mask:
        if passed or not move_mask(opp, me, full, game.shifts):
            return me.bit_count() - opp.bit_count()
        return -_margin(game, opp, me, -beta, -alpha, empties, True, table, counter)
    up, down = game.up_rays, game.down_rays
    key = None
    if empties >= _ORDER_EMPTIES:
        key = (me, opp)
        bounds = table.get(key)
        if bounds is not None:
            lo, hi = bounds
            if lo >= beta or lo == hi:
                return lo
            if hi <= alpha:
                return hi
            alpha, beta = max(alpha, lo), min(beta, hi)
    first_alpha, first_beta = alpha, beta
    children = []
    while mask:
        bit = mask & -mask
        mask ^= bit
        f = flips(me, opp, bit.bit_length() - 1, up, down)
        new_me, new_opp = opp ^ f, me | f | bit
        order = move_mask(new_me, new_opp, full, game.shifts).bit_count() if key is not None else 0
        children.append((order - (4 if bit & game.corners else 0), new_me, new_opp))
    if key is not None:
        children.sort(key=_first)
    best = -game.cells - 1
    for _, new_me, new_opp in children:
        v = -_margin(game, new_me, new_opp, -beta, -alpha, empties - 1, False, table, counter)
        if v > best:
            best = v
            if v >= beta:
                break
            if v > alpha:
                alpha = v
    if key is not None:
        if best <= first_alpha:
            table[key] = (-game.cells, best)
        elif best >= first_beta:
            table[key] = (best, game.cells)
        else:
            table[key] = (best, best)
    return best


class OthelloState(State):
    """An Othello position: the discs of the player to move and of the opponent, as bitboards."""

    __slots__ = ("game", "_me", "_opp", "_player", "_moves", "_mask", "_legal", "start")

    def __init__(self, game: "Othello", me: int, opp: int, player: int = 0, moves: tuple[int, ...] = (),
                 start: tuple[int, int, int] | None = None):
        self.game = game
        #: (black's discs, white's discs, player to move) of a position set up by hand that
        #: the moves start from; None for the usual start
        self.start = start
        self._me = me
        self._opp = opp
        self._player = player
        self._moves = moves
        self._mask = -1  # legal-move bitboard, computed on first use
        self._legal: tuple[int, ...] | None = None

    @property
    def current_player(self) -> int:
        return self._player

    @property
    def moves(self) -> tuple[int, ...]:
        return self._moves

    def discs(self) -> tuple[int, int]:
        """(player 0's disc count, player 1's)."""
        mine, theirs = self._me.bit_count(), self._opp.bit_count()
        return (mine, theirs) if self._player == 0 else (theirs, mine)

    def heuristic(self, player: int) -> float:
        """Disc difference for ``player`` (the greedy baseline's evaluation)."""
        d = self.discs()
        return float(d[player] - d[1 - player])

    def legal_mask(self) -> int:
        """Bitboard of the squares the player to move may play on (0 when it must pass)."""
        if self._mask < 0:
            g = self.game
            if _core is not None:
                self._mask = _core.move_mask(g.size, self._me, self._opp)
            else:
                self._mask = move_mask(self._me, self._opp, g.full, g.shifts)
        return self._mask

    def _legal_tuple(self) -> tuple[int, ...]:
        if self._legal is None:
            if _core is not None:
                self._mask, self._legal = _core.legal(self.game.size, self._me, self._opp)
                return self._legal
            mask = self.legal_mask()
            if mask:
                self._legal = tuple(_bits(mask))
            elif move_mask(self._opp, self._me, self.game.full, self.game.shifts):
                self._legal = (self.game.pass_action,)
            else:
                self._legal = ()
        return self._legal

    def legal_actions(self) -> list[int]:
        return list(self._legal_tuple())

    def apply(self, action: int) -> "OthelloState":
        g = self.game
        if action == g.pass_action:
            return OthelloState(g, self._opp, self._me, 1 - self._player, self._moves + (action,), self.start)
        if _core is not None:
            me, opp = _core.play(g.size, self._me, self._opp, action)
            return OthelloState(g, me, opp, 1 - self._player, self._moves + (action,), self.start)
        bit = 1 << action
        flipped = flips(self._me, self._opp, action, g.up_rays, g.down_rays)
        return OthelloState(g, self._opp ^ flipped, self._me | flipped | bit, 1 - self._player,
                            self._moves + (action,), self.start)

    def random_playout(self, rng, max_plies: int) -> tuple[bool, int | None]:
        """Play uniformly random legal moves from here on bitboards alone (no State objects):
        (finished, winner), the rollout evaluator's fast path. ``rng`` is a `random.Random`;
        from the same seed this plays the very game the generic playout would."""
        g = self.game
        if _core is not None:
            return self._random_playout_compiled(rng, max_plies)
        full, shifts, up, down = g.full, g.shifts, g.up_rays, g.down_rays
        me, opp, player = self._me, self._opp, self._player
        for _ in range(max_plies):
            mask = move_mask(me, opp, full, shifts)
            if not mask:
                if not move_mask(opp, me, full, shifts):
                    break
                rng.randrange(1)   # as choosing among one legal action: the same random stream as a generic playout
                me, opp, player = opp, me, 1 - player   # a pass
                continue
            for _ in range(rng.randrange(mask.bit_count())):
                mask &= mask - 1
            square = (mask & -mask).bit_length() - 1
            flipped = flips(me, opp, square, up, down)
            me, opp, player = opp ^ flipped, me | flipped | (1 << square), 1 - player
        else:
            if move_mask(me, opp, full, shifts) or move_mask(opp, me, full, shifts):
                return False, None
        mine, theirs = me.bit_count(), opp.bit_count()
        if mine == theirs:
            return True, None
        return True, player if mine > theirs else 1 - player

    def _random_playout_compiled(self, rng, max_plies: int) -> tuple[bool, int | None]:
        """`random_playout` on the compiled rules: the same moves from the same random stream."""
        size, move_mask_of, play = self.game.size, _core.move_mask, _core.play
        me, opp, player = self._me, self._opp, self._player
        for _ in range(max_plies):
            mask = move_mask_of(size, me, opp)
            if not mask:
                if not move_mask_of(size, opp, me):
                    break
                rng.randrange(1)
                me, opp, player = opp, me, 1 - player
                continue
            for _ in range(rng.randrange(mask.bit_count())):
                mask &= mask - 1
            me, opp = play(size, me, opp, (mask & -mask).bit_length() - 1)
            player = 1 - player
        else:
            if move_mask_of(size, me, opp) or move_mask_of(size, opp, me):
                return False, None
        mine, theirs = me.bit_count(), opp.bit_count()
        if mine == theirs:
            return True, None
        return True, player if mine > theirs else 1 - player

    def proven_value(self) -> float | None:
        """With `SOLVE_EMPTIES` empty squares or fewer, the exact result (1.0, 0.0 or -1.0,
        `solve`). Otherwise 1.0 when the side to move can win at once: a move that takes every
        opposing disc, or one that fills the board with a majority; None otherwise (a game that
        ends because neither side can move, with squares left, is not looked for: it is rare,
        and checking both sides' moves after every move would cost more than the search gains)."""
        g = self.game
        me, opp = self._me, self._opp
        if (g.full ^ (me | opp)).bit_count() <= SOLVE_EMPTIES and not self.is_terminal():
            return float(solve(g, me, opp))
        if _core is not None:
            return 1.0 if _core.wins_at_once(g.size, me, opp) else None
        return 1.0 if self._wins_at_once() else None

    def wins_at_once(self) -> bool:
        """Whether the side to move has a move that ends the game in its favour at once (a
        wipe-out, or the last square with a majority); the game's end by two passes with squares
        left is not looked for (as in `proven_value`)."""
        if self.is_terminal():
            return False
        if _core is not None:
            return bool(_core.wins_at_once(self.game.size, self._me, self._opp))
        return self._wins_at_once()

    def _wins_at_once(self) -> bool:
        g = self.game
        me, opp = self._me, self._opp
        mask = self.legal_mask()
        fills = (me | opp).bit_count() == g.cells - 1
        while mask:
            bit = mask & -mask
            mask ^= bit
            flipped = flips(me, opp, bit.bit_length() - 1, g.up_rays, g.down_rays)
            if flipped == opp:
                return True   # a wipe-out
            if fills and (me | flipped | bit).bit_count() * 2 > g.cells:
                return True
        return False

    def exact_move_margins(self, budget: int = 200_000) -> dict[int, int] | None:
        """With `MARGIN_EMPTIES` empty squares or fewer, each legal move's final disc margin
        for the side to move with perfect play after it (`solve_margin`; a pass too); None
        otherwise, for a finished game, or past ``budget`` positions for them all."""
        g = self.game
        if (g.full ^ (self._me | self._opp)).bit_count() > MARGIN_EMPTIES or self.is_terminal():
            return None
        counter = [budget]
        out = {}
        try:
            for a in self._legal_tuple():
                child = self.apply(a)
                if child.is_terminal():   # the mover's discs are the child's opponent's
                    out[a] = child._opp.bit_count() - child._me.bit_count()
                else:
                    out[a] = -solve_margin(g, child._me, child._opp, counter)
        except SolveBudgetExceeded:
            return None
        return out

    def is_terminal(self) -> bool:
        return not self._legal_tuple()

    def end_reason(self) -> str | None:
        """Why the game ended: "full board", or "no moves" (squares are left but neither side
        can play); None while it goes on. The winner is whoever has more discs either way."""
        if not self.is_terminal():
            return None
        return "full board" if (self._me | self._opp).bit_count() == self.game.cells else "no moves"

    def winner(self) -> int | None:
        if not self.is_terminal():
            return None
        black, white = self.discs()
        if black == white:
            return None
        return 0 if black > white else 1

    def encode(self) -> np.ndarray:
        """Planes: the discs of the player to move, the opponent's, and the squares it may play on."""
        g = self.game
        if _core is not None:
            raw = _core.encode(g.size, self._me, self._opp, self.legal_mask())
            return np.frombuffer(raw, np.float32).reshape(3, g.size, g.size)
        nb = g.plane_bytes
        raw = (self._me.to_bytes(nb, "little") + self._opp.to_bytes(nb, "little")
               + self.legal_mask().to_bytes(nb, "little"))
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(3, nb * 8)
        return bits[:, :g.cells].astype(np.float32).reshape(3, g.size, g.size)

    def board_array(self) -> np.ndarray:
        g = self.game
        black, white = (self._me, self._opp) if self._player == 0 else (self._opp, self._me)
        raw = black.to_bytes(g.plane_bytes, "little") + white.to_bytes(g.plane_bytes, "little")
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(2, -1)[:, :g.cells]
        return (bits[0].astype(np.int8) - bits[1].astype(np.int8)).reshape(g.size, g.size)

    def ownership(self) -> np.ndarray:
        """The discs: +1 black's (player 0), -1 white's, 0 empty, as ``encode`` lays the board out."""
        return self.board_array()

    def action_to_text(self, action: int) -> str:
        return self.game.square_name(action)

    def parse_action(self, text: str) -> int:
        g = self.game
        t = text.strip().lower()
        if t == "pass":
            if self.is_terminal():
                raise NotationError("pass: the game is already over")
            if self.legal_mask():
                first = g.square_name(self._legal_tuple()[0])
                raise NotationError(f"pass is illegal: {PLAYER_NAMES[self._player]} has a move (e.g. {first})")
            return g.pass_action
        m = _SQUARE_RE.fullmatch(t)
        if m is None:
            raise NotationError(f"bad square {clip_text(text)!r}: expected a column letter and a row number "
                                f"like 'f5', or 'pass'")
        col, row = g.columns.find(m.group(1)), int(m.group(2)) - 1
        if col < 0 or not 0 <= row < g.size:
            raise NotationError(f"square {t!r} is off the {g.size}x{g.size} board "
                                f"(columns a-{g.columns[-1]}, rows 1-{g.size})")
        if self.is_terminal():
            raise NotationError(f"square {t}: the game is already over")
        action = row * g.size + col
        if (self._me | self._opp) >> action & 1:
            raise NotationError(f"square {t} is occupied")
        if not self.legal_mask() >> action & 1:
            if not self.legal_mask():
                raise NotationError(f"square {t} is illegal: {PLAYER_NAMES[self._player]} has no move and must pass")
            raise NotationError(f"square {t} is illegal: it flips no disc")
        return action

    def to_text(self) -> str:
        name = self.game.square_name
        moves = "".join(name(a) for a in self._moves)
        if self.start is None:
            return moves
        head = self.game.setup_text(*self.start)
        return head + " moves " + moves if moves else head

    def render(self) -> str:
        g = self.game
        board = self.board_array()
        lines = ["  " + " ".join(g.columns)]
        for r in range(g.size):
            lines.append(f"{r + 1} " + " ".join({0: ".", 1: "X", -1: "O"}[v] for v in board[r]))
        return "\n".join(lines)

    def key(self):
        return (self._me, self._opp, self._player)

    def perft_counts(self, depth: int) -> list[int]:
        """Fast perft on raw bitboards (see games.perft); a pass is a ply, leaves are counted in bulk."""
        if _core is not None:
            return _core.perft(self.game.size, self._me, self._opp, depth)
        nodes = [0] * depth
        if depth <= 0 or self.is_terminal():
            return nodes
        g = self.game
        full, shifts, up, down = g.full, g.shifts, g.up_rays, g.down_rays
        last = depth - 1

        def walk(me: int, opp: int, ply: int) -> None:
            moves = move_mask(me, opp, full, shifts)
            if moves:
                nodes[ply] += moves.bit_count()
                if ply == last:
                    return
                while moves:
                    b = moves & -moves
                    moves ^= b
                    f = flips(me, opp, b.bit_length() - 1, up, down)
                    walk(opp ^ f, me | f | b, ply + 1)
            elif move_mask(opp, me, full, shifts):
                nodes[ply] += 1
                if ply != last:
                    walk(opp, me, ply + 1)

        walk(self._me, self._opp, 0)
        return nodes


class Othello(Game):
    """Othello on a ``size`` x ``size`` board (8 by default; 4 and 6 for small experiments)."""

    id = "othello"
    name = "Othello"
    variant_names = ("size",)
    num_planes = 3

    @property
    def proofs(self) -> str:
        solved = f"; exact results with {SOLVE_EMPTIES} or fewer empty squares" if SOLVE_EMPTIES else ""
        return "a win in one (a wipe-out, or the last square with a majority)" + solved
    policy_planes = 1

    def __init__(self, size: int = 8):
        if size not in (4, 6, 8):  # move_mask's flood fill covers runs of at most 6 discs
            raise ValueError(f"othello size must be 4, 6 or 8, not {size!r}")
        self.size = size
        self.cells = size * size
        self.board_shape = (size, size)
        self.action_size = self.cells + 1
        self.pass_action = self.cells
        # every pass is followed by a move, so at most one pass per disc placed
        self.max_game_length = 2 * (self.cells - 4)
        self.columns = COLUMNS[:size]
        self.full = (1 << self.cells) - 1
        self.plane_bytes = (self.cells + 7) // 8
        edge_columns = sum((1 << (r * size)) | (1 << (r * size + size - 1)) for r in range(size))
        inner = self.full ^ edge_columns
        # bit distances of E, S, SW and SE (their opposites are the right shifts)
        self.shifts = ((1, inner), (size, self.full), (size - 1, inner), (size + 1, inner))
        self.up_rays, self.down_rays = self._rays()
        last = self.cells - 1
        self.corners = (1 << 0) | (1 << (size - 1)) | (1 << (last - size + 1)) | (1 << last)

    def _rays(self) -> tuple[tuple, tuple]:
        n = self.size
        up, down = [], []
        for sq in range(self.cells):
            r0, c0 = divmod(sq, n)
            ups, downs = [], []
            for dr, dc in ((0, 1), (1, -1), (1, 0), (1, 1), (0, -1), (-1, 1), (-1, 0), (-1, -1)):
                ray, r, c = 0, r0 + dr, c0 + dc
                while 0 <= r < n and 0 <= c < n:
                    ray |= 1 << (r * n + c)
                    r, c = r + dr, c + dc
                if ray.bit_count() >= 2:  # a flip needs an opponent disc and one of mine beyond it
                    (ups if ray > (1 << sq) else downs).append(ray)
            up.append(tuple(ups))
            down.append(tuple(downs))
        return tuple(up), tuple(down)

    @property
    def variant(self) -> dict:
        return {} if self.size == 8 else {"size": self.size}

    def square_name(self, action: int) -> str:
        """``f5``-style name of an action (``pass`` for the pass)."""
        if action == self.pass_action:
            return "pass"
        row, col = divmod(action, self.size)
        return f"{self.columns[col]}{row + 1}"

    def initial_state(self) -> OthelloState:
        n, h = self.size, self.size // 2
        white = (1 << ((h - 1) * n + h - 1)) | (1 << (h * n + h))
        black = (1 << (h * n + h - 1)) | (1 << ((h - 1) * n + h))
        return OthelloState(self, black, white)

    def state_from_text(self, text: str) -> OthelloState:
        head, _, moves = text.partition(" moves ")
        if head.split()[:1] == ["setup"]:
            return replay(self, _TOKEN_RE.findall(moves), start=self._read_setup(head))
        return replay(self, _TOKEN_RE.findall(text))

    def setup_text(self, black: int, white: int, player: int) -> str:
        """A position set up by hand as ``to_text`` writes it (see the module docstring)."""
        rows = []
        for r in range(self.size):
            rows.append("".join("x" if black >> (r * self.size + c) & 1 else "o" if white >> (r * self.size + c) & 1
                                else "-" for c in range(self.size)))
        return "setup " + "/".join(rows) + (" b" if player == 0 else " w")

    def _read_setup(self, text: str) -> OthelloState:
        fields = text.split()
        if len(fields) != 3 or fields[2] not in ("b", "w"):
            raise NotationError(f"bad setup {clip_text(text)!r}: expected 'setup', the rows and b or w to move")
        rows = fields[1].split("/")
        if len(rows) != self.size or any(len(r) != self.size or set(r) - set("xo-") for r in rows):
            raise NotationError(f"bad setup board {clip_text(fields[1])!r}: expected {self.size} rows of "
                                f"{self.size} of x, o and -")
        board = np.array([[{"x": 1, "o": -1, "-": 0}[ch] for ch in r] for r in rows], dtype=np.int8)
        try:
            return self.from_setup(board, 0 if fields[2] == "b" else 1)
        except NotationError as e:
            raise NotationError(f"bad setup: {e}") from None

    def symmetries(self):
        return dihedral_symmetries(self.size, self.size, 1, extra=1)

    def __reduce__(self):
        # pickles (for worker processes) refer to the registry instead of copying the object
        from . import game_from_key
        return (game_from_key, (self.key,))


def validate_position(game: Othello, board, to_move: int) -> list[SetupProblem]:
    """Why the discs on ``board`` (+1 black, -1 white, row 0 at the top) with ``to_move`` to
    move cannot be played from: an empty centre square (the game starts with four discs there
    and discs are never taken off), a disc out of touch with the others (each is placed next
    to one), a game already over (neither side can move)."""
    n = game.size
    problems = []
    h = n // 2
    for r, c in ((h - 1, h - 1), (h - 1, h), (h, h - 1), (h, h)):
        if not board[r][c]:
            problems.append(SetupProblem("centre_empty", f"the centre square {game.square_name(r * n + c)} is empty: "
                                         "othello starts with four discs there and never takes one off",
                                         {"square": game.square_name(r * n + c)}))
    occupied = {(r, c) for r in range(n) for c in range(n) if board[r][c]}
    if occupied and not problems:
        seen, todo = set(), [(h, h)]
        while todo:
            r, c = todo.pop()
            if (r, c) in seen or (r, c) not in occupied:
                continue
            seen.add((r, c))
            todo += [(r + dr, c + dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc]
        apart = sorted(occupied - seen)
        if apart:
            square = game.square_name(apart[0][0] * n + apart[0][1])
            problems.append(SetupProblem("apart", f"the disc on {square} touches no other: every disc is placed "
                                         "next to one", {"square": square}))
    if not problems:
        state = position_from_setup(game, board, to_move)
        if state.is_terminal():
            problems.append(SetupProblem("no_moves", "neither side can move: the game is over"))
    return problems


def position_from_setup(game: Othello, board, to_move: int) -> OthelloState:
    """The position with its own start (``OthelloState.start``); the usual start is the game's."""
    n = game.size
    black = sum(1 << (r * n + c) for r in range(n) for c in range(n) if board[r][c] > 0)
    white = sum(1 << (r * n + c) for r in range(n) for c in range(n) if board[r][c] < 0)
    initial = game.initial_state()
    if to_move == 0 and (black, white) == (initial._me, initial._opp):
        return initial
    me, opp = (black, white) if to_move == 0 else (white, black)
    return OthelloState(game, me, opp, to_move, (), (black, white, to_move))


GAME_CLASS = Othello
