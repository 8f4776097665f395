"""Connect Four: 7 columns x 6 rows with gravity; four in a row in any direction wins.

Action = column 0..6, written as the digit ``1``..``7``. A position is the string
of column digits played from the empty board, e.g. ``"4453"`` (the convention of
the Connect Four solver benchmarks); spaces are allowed when reading.

Bitboards are Python ints with 7 bits per column: 6 cells from the bottom up plus
an always-empty sentinel bit, so that shifts never carry a line from one column
into the next. Bit ``col * 7 + row`` is the cell ``row`` rows above the bottom.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import numpy as np

from . import native
from .base import (AlternatingState, Game, NotationError, SetupProblem, clip_text, count_problems, replay,
                   split_move_list)

#: the compiled rules and endgame solvers (games/_connect4_c.c), or None where this module's Python
#: runs; tests/test_connect4_compiled.py compares the two
_core = native.load("games._connect4_c")

WIDTH = 7
HEIGHT = 6
STRIDE = HEIGHT + 1  # bits per column, the sentinel included
CELLS = WIDTH * HEIGHT

BOTTOM: tuple[int, ...] = tuple(1 << (c * STRIDE) for c in range(WIDTH))
TOP: tuple[int, ...] = tuple(1 << (c * STRIDE + HEIGHT - 1) for c in range(WIDTH))
TOP_ROW = sum(TOP)
BOTTOM_ROW = sum(BOTTOM)
BOARD = sum(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))

#: top-row occupancy -> the columns that are not full, ascending
_OPEN_COLUMNS: dict[int, tuple[int, ...]] = {
    sum(TOP[c] for c in range(WIDTH) if full >> c & 1): tuple(c for c in range(WIDTH) if not full >> c & 1)
    for full in range(1 << WIDTH)}
#: encoded-plane cell (row from the top, column) -> its bit, for encode()
_CELL_BITS = np.array([c * STRIDE + HEIGHT - 1 - r for r in range(HEIGHT) for c in range(WIDTH)])
_BYTES = (WIDTH * STRIDE + 7) // 8
_SYMBOLS = {0: ".", 1: "X", -1: "O"}


def has_four(stones: int) -> bool:
    """True when the bitboard holds four in a row in some direction."""
    m = stones & (stones >> STRIDE)  # horizontal
    if m & (m >> 2 * STRIDE):
        return True
    m = stones & (stones >> (STRIDE - 1))  # diagonal going down to the right
    if m & (m >> 2 * (STRIDE - 1)):
        return True
    m = stones & (stones >> (STRIDE + 1))  # diagonal going up to the right
    if m & (m >> 2 * (STRIDE + 1)):
        return True
    m = stones & (stones >> 1)  # vertical
    return bool(m & (m >> 2))


def winning_cells(stones: int, mask: int) -> int:
    """The empty cells (any height) where one more stone would give ``stones`` four in a row."""
    r = (stones << 1) & (stones << 2) & (stones << 3)  # vertical: only three below can make four
    for d in (STRIDE, STRIDE - 1, STRIDE + 1):
        p = (stones << d) & (stones << 2 * d)
        r |= p & (stones << 3 * d)
        r |= p & (stones >> d)
        p = (stones >> d) & (stones >> 2 * d)
        r |= p & (stones << d)
        r |= p & (stones >> 3 * d)
    return r & (BOARD ^ mask)


#: positions with at most this many empty cells are solved exactly by `proven_value`. On
#: positions from the shipped network's own games a solve took 0.1-0.3 ms at 8-13 empty
#: cells and 0.6 ms at 14 (a few ms at 18): at 14 a whole 800-visit search took no longer than
#: without it (25-30 empty cells: 3% longer; 13-20: 2.7 times faster, the solved nodes need
#: no network), and the searches chose fewer losing moves (docs/training.md, 2026-11-22).
SOLVE_EMPTIES = 14
try:   # to measure the network and search without it: ZEROBOARD_CONNECT4_SOLVE_EMPTIES=0
    # (at most 20: each further empty cell multiplies a solve's cost about three times)
    SOLVE_EMPTIES = min(20, max(0, int(os.environ.get("ZEROBOARD_CONNECT4_SOLVE_EMPTIES", SOLVE_EMPTIES))))
except ValueError:
    pass   # not a number: keep the default

#: how many times as many positions a second the compiled solver visits as the Python one
#: (2026-12-01, AMD EPYC: 24 million against 366,000 on positions of 26 empty cells, 65x)
PURE_SOLVE_SHARE = 64

_COLUMN_CELLS: tuple[int, ...] = tuple(((1 << HEIGHT) - 1) << (c * STRIDE) for c in range(WIDTH))
_CENTRE_FIRST = (3, 2, 4, 1, 5, 0, 6)
#: solved positions, (own stones + all stones) -> (lower, upper) bound on the result;
#: cleared when it outgrows its limit (100,000 entries: about 22 MB)
_SOLVED: dict[int, tuple[int, int]] = {}
_SOLVED_LIMIT = 100_000


def solve(cur: int, mask: int) -> int:
    """The exact result for the side to move (stones ``cur``, all stones ``mask``) of a
    position nobody has won yet: 1 a win, 0 a draw, -1 a loss, with perfect play.

    A win/draw/loss alpha-beta search: a move that wins at once ends the search, an
    opponent's threat must be blocked (two lose), a move under an opponent's winning cell
    is never tried, and the rest are tried centre first, the moves that make the most
    threats before the others. Results and bounds are kept between calls, so the searches
    of neighbouring positions share their work. Its cost grows steeply with the empty
    cells: meant for the last dozen or so."""
    if _core is not None:   # its own table of solved positions, kept between calls like _SOLVED
        return _core.solve(cur, mask)
    if len(_SOLVED) > _SOLVED_LIMIT:
        _SOLVED.clear()
    return _solve_root(cur, mask, None)


def solve_within(cur: int, mask: int, budget: int) -> tuple[int | None, int]:
    """`solve` allowed to visit at most ``budget`` positions (each call of its search counts
    one): (result, budget left), or (None, -1) past the budget, with no bound of the unfinished
    search kept. The compiled solver's table differs from this one's (two slots a bucket,
    replaced when positions meet), so past its first solve the two may count different
    positions; their results never differ."""
    if _core is not None and native.fits_budget(budget):
        return _core.solve_within(cur, mask, budget)
    if budget < 0:
        return None, -1
    if len(_SOLVED) > _SOLVED_LIMIT:
        _SOLVED.clear()
    counter = [budget]
    try:
        v = _solve_root(cur, mask, counter)
    except SolveBudgetExceeded:
        return None, -1
    return v, counter[0]


def _solve_root(cur: int, mask: int, counter: list | None) -> int:
    """Two null-window searches: is it a win? if not, is it a loss? (Faster than one search
    with the whole window: each proves only one bound, 2026-12-02.)"""
    wins, opp_wins = winning_cells(cur, mask), winning_cells(cur ^ mask, mask)
    if _negamax(cur, mask, 0, 1, wins, opp_wins, counter) >= 1:
        return 1
    return 0 if _negamax(cur, mask, -1, 0, wins, opp_wins, counter) >= 0 else -1


def _negamax(cur: int, mask: int, alpha: int, beta: int, wins: int, opp_wins: int,
             counter: list | None = None) -> int:
    """``wins``/``opp_wins``: the empty cells that would complete a four for the side to move
    and for its opponent (each node hands its children theirs, so none is computed twice).
    ``counter``: [positions it may still visit] for `solve_within` (None: no bound)."""
    if counter is not None:
        _count(counter)
    if mask == BOARD:
        return 0
    playable = (mask + BOTTOM_ROW) & BOARD
    if wins & playable:
        return 1
    moves = opp_wins & playable
    if moves & (moves - 1):
        return -1                             # two threats: one stone blocks one
    if not moves:
        moves = playable
    moves &= ~(opp_wins >> 1)                 # a stone under the opponent's winning cell lets it win
    if not moves:
        return -1
    key = cur + mask                          # unique: each column's stones plus its height
    bounds = _SOLVED.get(key)
    if bounds is not None:
        lo, hi = bounds
        if lo >= beta or lo == hi:
            return lo
        if hi <= alpha:
            return hi
        alpha, beta = max(alpha, lo), min(beta, hi)
    else:
        lo, hi = -1, 1
    first_alpha = alpha
    ordered = []
    for c in _CENTRE_FIRST:
        cell = moves & _COLUMN_CELLS[c]
        if cell:
            new_wins = winning_cells(cur | cell, mask | cell)
            ordered.append((-new_wins.bit_count(), len(ordered), cell, new_wins))
    ordered.sort()
    opp = cur ^ mask
    best = -1
    for _, _, cell, new_wins in ordered:
        v = -_negamax(opp, mask | cell, -beta, -alpha, opp_wins & ~cell, new_wins, counter)
        if v > best:
            best = v
            if v > alpha:
                alpha = v
                if alpha >= beta:
                    break
    if best <= first_alpha:
        hi = min(hi, best)                    # failed low: at most this
    elif best >= beta:
        lo = max(lo, best)                    # failed high: at least this
    else:
        lo = hi = best
    _SOLVED[key] = (lo, hi)
    return best


def clear_solved() -> None:
    """Forgets the positions `solve` keeps between calls (the compiled core's too)."""
    _SOLVED.clear()
    if _core is not None:
        _core.solve_clear()


#: the exact results of every position of Connect Four's first plies, solved by this module's
#: own solver (tools/connect4_book.py): what the max level knows of the opening, where a solve
#: takes minutes (docs/levels.md, "Connect Four's max level plays the opening from a book")
BOOK_PATH = Path(__file__).with_name("data") / "connect4_book.txt"
BOOK_HEADER = "# zeroboard connect4 book 1"
_book: dict[int, int] | None = None


def mirror_key(key: int) -> int:
    """A position's key (``cur + mask``: each column's 7 bits on their own) with the columns
    in reverse order: the key of the mirrored position."""
    out = 0
    for c in range(WIDTH):
        out |= ((key >> (c * STRIDE)) & 0x7F) << ((WIDTH - 1 - c) * STRIDE)
    return out


def book_key(cur: int, mask: int) -> int:
    """The key a position has in the book: the smaller of its own and its mirror's."""
    key = cur + mask
    return min(key, mirror_key(key))


def parse_book(text: str) -> dict[int, int]:
    """The book's text: its header line, then one line a position, its `book_key` in
    hexadecimal and its exact result for the side to move (1, 0 or -1); ``#`` lines are
    comments. Raises ValueError, naming the line, on anything else."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != BOOK_HEADER:
        raise ValueError(f"not a Connect Four book (its first line is not {BOOK_HEADER!r})")
    out: dict[int, int] = {}
    for number, line in enumerate(lines[1:], 2):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split()
        try:
            key, result = int(parts[0], 16), int(parts[1])
        except (ValueError, IndexError):
            raise ValueError(f"line {number}: not a key and a result: {clip_text(line)}") from None
        columns = [(key >> (c * STRIDE)) & 0x7F for c in range(WIDTH)]
        if len(parts) != 2 or result not in (-1, 0, 1) or key >> (WIDTH * STRIDE) or max(columns) > 0x7E:
            raise ValueError(f"line {number}: not a key and a result: {clip_text(line)}")
        out[key] = result
    return out


def book_result(cur: int, mask: int) -> int | None:
    """The book's exact result for the side to move, or None where the book has no such
    position. A missing or damaged book is no book (one line on stderr)."""
    global _book
    if _book is None:
        try:
            _book = parse_book(BOOK_PATH.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            print(f"connect4: no opening book ({exc})", file=sys.stderr)
            _book = {}
    return _book.get(book_key(cur, mask))


def _known_after(child: "Connect4State") -> int | None:
    """The mover's exact result after the move that made ``child``, where no solve is needed: a
    four 1, a full board 0, else minus the book's result for ``child``; None where the book has
    no such position."""
    if child._winner is not None:
        return 1
    if child._mask == BOARD:
        return 0
    found = book_result(child._cur, child._mask)
    return None if found is None else -found


class SolveBudgetExceeded(Exception):
    """A bounded solve (`solve_distance`, `solve_within`) visited more positions than it was allowed."""


def solve_distance(cur: int, mask: int, budget: int = 200_000) -> tuple[int, int]:
    """The exact result for the side to move of a position nobody has won yet, with how far
    away it is: (1, plies) a win whose last stone is that many plies away with the winner
    fastest and the loser slowest, (-1, plies) a loss, (0, 0) a draw. Plies count both
    sides' stones; the winner's own moves are ``(plies + 1) // 2``.

    The result comes from `solve`; then "does the mover win within d plies?" (or "does
    it lose within d plies?") is asked for d = 1, 3, 5... (2, 4...) until it holds: a proof
    search that only looks d plies ahead, with the same forced-move rules as `solve`.
    Raises `SolveBudgetExceeded` past ``budget`` positions (about 2 s in plain Python)."""
    if _core is not None and native.fits_budget(budget):
        found, _ = _core.solve_distance(cur, mask, budget)
        if found is None:
            raise SolveBudgetExceeded
        return found
    result = solve(cur, mask)
    if result == 0:
        return 0, 0
    counter = [budget]
    known: dict[tuple[int, int], bool] = {}
    empties = CELLS - mask.bit_count()
    d = 1 if result > 0 else 2
    while d <= empties:
        held = _wins_within(cur, mask, d, known, counter) if result > 0 else _loses_within(cur, mask, d, known, counter)
        if held:
            return result, d
        d += 2
    raise AssertionError("a solved win or loss is within the empty cells")   # solve said otherwise


def _count(counter: list) -> None:
    counter[0] -= 1
    if counter[0] < 0:
        raise SolveBudgetExceeded


def _wins_within(cur: int, mask: int, plies: int, known: dict, counter: list) -> bool:
    """Can the side to move (stones ``cur``) force four with its stone at most ``plies`` plies away?"""
    playable = (mask + BOTTOM_ROW) & BOARD
    if winning_cells(cur, mask) & playable:
        return True
    if plies < 3 or not playable:
        return False
    key = (cur + mask, plies)
    hit = known.get(key)
    if hit is not None:
        return hit
    _count(counter)
    opp = cur ^ mask
    opp_wins = winning_cells(opp, mask)
    moves = opp_wins & playable
    if moves & (moves - 1):
        found = False                         # two threats: one stone blocks one
    else:
        moves = (moves or playable) & ~(opp_wins >> 1)   # under an opponent's winning cell: it wins first
        found = False
        while moves and not found:
            cell = moves & -moves
            moves ^= cell
            found = _loses_within(opp, mask | cell, plies - 1, known, counter)
    known[key] = found
    return found


def _loses_within(cur: int, mask: int, plies: int, known: dict, counter: list) -> bool:
    """Does every move of the side to move let the opponent make four at most ``plies`` plies away?"""
    if mask == BOARD:
        return False
    playable = (mask + BOTTOM_ROW) & BOARD
    if winning_cells(cur, mask) & playable:
        return False
    opp = cur ^ mask
    opp_wins = winning_cells(opp, mask)
    forced = opp_wins & playable
    if forced & (forced - 1):
        return plies >= 2                     # one stone blocks one threat; the other wins next
    if plies < 2:
        return False
    key = (cur + mask, -plies)
    hit = known.get(key)
    if hit is not None:
        return hit
    _count(counter)
    moves = forced or playable
    lost = True
    while moves and lost:
        cell = moves & -moves
        moves ^= cell
        if opp_wins & (cell << 1):
            continue                          # a stone under its winning cell: it wins next ply
        lost = _wins_within(opp, mask | cell, plies - 1, known, counter)
    known[key] = lost
    return lost


class Connect4State(AlternatingState):
    """A Connect Four position: the stones of the player to move and all stones, as bitboards."""

    __slots__ = ("_cur", "_mask")

    def __init__(self, game: "Connect4", cur: int = 0, mask: int = 0, moves: tuple[int, ...] = (),
                 winner: int | None = None):
        self.game = game
        self._cur = cur
        self._mask = mask
        self._moves = moves
        self._winner = winner

    def legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        return list(_OPEN_COLUMNS[self._mask & TOP_ROW])

    def apply(self, action: int) -> "Connect4State":
        if _core is not None:
            cur, mask, won = _core.play(self._cur, self._mask, action)
            return Connect4State(self.game, cur, mask, self._moves + (action,),
                                 len(self._moves) & 1 if won else None)
        mask = self._mask
        new_mask = mask | (mask + BOTTOM[action])  # the carry lands on the column's lowest empty cell
        mover = self._cur | (new_mask ^ mask)
        winner = len(self._moves) & 1 if has_four(mover) else None
        return Connect4State(self.game, mover ^ new_mask, new_mask, self._moves + (action,), winner)

    def proven_value(self) -> float | None:
        """1.0 when the side to move connects four at once; -1.0 when it cannot but the
        opponent could in two columns (one stone blocks only one); with `SOLVE_EMPTIES`
        empty cells or fewer, the exact result (1.0, 0.0 or -1.0, `solve`); None otherwise."""
        mask = self._mask
        if self._winner is not None or mask == BOARD:
            return None
        if CELLS - mask.bit_count() <= SOLVE_EMPTIES:
            return float(solve(self._cur, mask))
        if _core is not None:
            shortcut = _core.shortcut(self._cur, mask)
            return float(shortcut) if shortcut else None
        playable = (mask + BOTTOM_ROW) & BOARD   # the lowest empty cell of each open column
        cur, opp = self._cur, self._cur ^ mask
        threats = 0
        while playable:
            cell = playable & -playable
            playable ^= cell
            if has_four(cur | cell):
                return 1.0
            threats += has_four(opp | cell)
        return -1.0 if threats >= 2 else None

    def is_terminal(self) -> bool:
        return self._winner is not None or self._mask == BOARD

    def wins_at_once(self) -> bool:
        """Whether the side to move connects four with its next stone."""
        if self._winner is not None:
            return False
        playable = (self._mask + BOTTOM_ROW) & BOARD
        while playable:
            cell = playable & -playable
            playable ^= cell
            if has_four(self._cur | cell):
                return True
        return False

    def proven_distance(self, budget: int = 200_000) -> tuple[int, int] | None:
        """With `SOLVE_EMPTIES` empty cells or fewer, the exact result for the side to move and
        the plies to its end with best play (`solve_distance`: (1, 3) wins with its second stone
        from now); with more, a win at once (1, 1) or two threats against it (-1, 2); None
        otherwise, for a finished game, or past ``budget`` positions."""
        mask = self._mask
        if self._winner is not None or mask == BOARD:
            return None
        if CELLS - mask.bit_count() > SOLVE_EMPTIES:   # only the shortcuts: a win now, two threats
            shortcut = self.proven_value()
            return None if shortcut is None else (1, 1) if shortcut > 0 else (-1, 2)
        try:
            return solve_distance(self._cur, mask, budget)
        except SolveBudgetExceeded:
            return None

    def exact_result(self, budget: int) -> tuple[int | None, int]:
        """The exact result for the side to move with perfect play (1 a win, 0 a draw, -1 a
        loss) and the positions of ``budget`` left: from the opening book where it has this
        position or every position after one of its moves (nothing spent), else from
        `solve_within`; (None, -1) past the budget or for a
        finished game. With `exact_move_result`, what the max level proves its move with
        (`engine.play.players.MCTSPlayer.solve_budget`). Without the compiled core the budget is
        `PURE_SOLVE_SHARE` times smaller, so that a solve takes about as long either way."""
        if self.is_terminal():
            return None, -1
        found = book_result(self._cur, self._mask)
        if found is not None:
            return found, budget
        results = []   # the book may know the position after every move instead
        for a in self.legal_actions():
            found = _known_after(self.apply(a))
            if found is None:
                break
            results.append(found)
        else:
            return max(results), budget
        if _core is None:
            found, left = solve_within(self._cur, self._mask, budget // PURE_SOLVE_SHARE)
            return found, -1 if found is None else left * PURE_SOLVE_SHARE
        return solve_within(self._cur, self._mask, budget)

    def exact_move_result(self, action: int, budget: int) -> tuple[int | None, int]:
        """The exact result for the side to move here if it plays ``action`` (a four at once 1,
        a full board 0, else minus `exact_result` of the position after it), with the budget
        left; (None, -1) past it."""
        child = self.apply(action)
        known = _known_after(child)
        if known is not None:
            return known, budget
        found, left = child.exact_result(budget)
        return (None, -1) if found is None else (-found, left)

    def _planes(self, first: int, second: int) -> np.ndarray:
        raw = np.frombuffer(first.to_bytes(_BYTES, "little") + second.to_bytes(_BYTES, "little"), np.uint8)
        return np.unpackbits(raw, bitorder="little").reshape(2, _BYTES * 8)[:, _CELL_BITS]

    def encode(self) -> np.ndarray:
        """Plane 0: the stones of the player to move; plane 1: the opponent's."""
        if _core is not None:
            return np.frombuffer(_core.encode(self._cur, self._mask), np.float32).reshape(2, HEIGHT, WIDTH)
        return self._planes(self._cur, self._cur ^ self._mask).astype(np.float32).reshape(2, HEIGHT, WIDTH)

    def board_array(self) -> np.ndarray:
        cur, opp = self._cur, self._cur ^ self._mask
        p0, p1 = (opp, cur) if len(self._moves) & 1 else (cur, opp)
        planes = self._planes(p0, p1).astype(np.int8)
        return (planes[0] - planes[1]).reshape(HEIGHT, WIDTH)

    def action_to_text(self, action: int) -> str:
        return str(action + 1)

    def parse_action(self, text: str) -> int:
        t = text.strip()
        if len(t) != 1 or t not in "1234567":
            raise NotationError(f"bad column {clip_text(text)!r}: expected a digit 1-7")
        if self.is_terminal():
            raise NotationError(f"column {t}: the game is already over")
        action = int(t) - 1
        if self._mask & TOP[action]:
            raise NotationError(f"column {t} is full")
        return action

    def to_text(self) -> str:
        return "".join(str(a + 1) for a in self._moves)

    def render(self) -> str:
        board = self.board_array()
        rows = [" ".join(_SYMBOLS[v] for v in row) for row in board]
        return "\n".join(rows + [" ".join(str(c + 1) for c in range(WIDTH))])

    def key(self):
        return (self._mask, self._cur)

    def perft_counts(self, depth: int) -> list[int]:
        """Fast perft on raw bitboards (see games.perft).

        Each node computes its winning cells once, so a child's "game over" test is
        one AND; the last ply is counted in bulk from each parent's open columns.
        """
        nodes = [0] * depth
        if depth <= 0 or self.is_terminal():
            return nodes
        if _core is not None:
            return _core.perft(self._cur, self._mask, depth)
        last = depth - 1

        def walk(cur: int, mask: int, ply: int) -> None:
            columns = _OPEN_COLUMNS[mask & TOP_ROW]
            nodes[ply] += len(columns)
            if ply == last:
                return
            opp = cur ^ mask
            wins = winning_cells(cur, mask)
            if ply + 1 == last:
                # children are the last ply's parents: count their open columns without recursing
                n, leaves = len(columns), 0
                for c in columns:
                    cell = (mask + BOTTOM[c]) & ~mask
                    if not cell & wins and mask | cell != BOARD:
                        leaves += n - 1 if cell & TOP_ROW else n
                nodes[last] += leaves
                return
            for c in columns:
                cell = (mask + BOTTOM[c]) & ~mask
                if not cell & wins and mask | cell != BOARD:
                    walk(opp, mask | cell, ply + 1)

        walk(self._cur, self._mask, 0)
        return nodes


class Connect4(Game):
    """Connect Four; see the module docstring for the notation."""

    id = "connect4"
    name = "Connect Four"
    board_shape = (HEIGHT, WIDTH)
    num_planes = 2
    action_size = WIDTH
    policy_planes = None  # actions are columns, not cells
    max_game_length = CELLS

    @property
    def proofs(self) -> str:
        solved = f"; exact results with {SOLVE_EMPTIES} or fewer empty cells" if SOLVE_EMPTIES else ""
        return "a win in one; two threats against the mover" + solved

    def initial_state(self) -> Connect4State:
        return Connect4State(self)

    def state_from_text(self, text: str) -> Connect4State:
        return replay(self, split_move_list(text, single_chars=True))

    def symmetries(self):
        cells = np.arange(CELLS).reshape(HEIGHT, WIDTH)
        columns = np.arange(WIDTH)
        return [(cells.reshape(-1), columns),
                (np.ascontiguousarray(cells[:, ::-1]).reshape(-1), columns[::-1].copy())]

    def __reduce__(self):
        # pickles (for worker processes) refer to the registry instead of copying the object
        from . import game_from_key
        return (game_from_key, (self.key,))


def _columns(board) -> list[list[int]]:
    """Each column's cells from the bottom up (+1 Red, -1 Yellow, 0 empty) of a board laid
    out as `Connect4State.board_array` (row 0 at the top)."""
    return [[int(board[HEIGHT - 1 - r][c]) for r in range(HEIGHT)] for c in range(WIDTH)]


def _drop_order(columns: list[list[int]]) -> list[int] | None:
    """Columns to drop the discs in so that the colours alternate from Red's first (each
    column's discs go in from the bottom up), or None when no order does."""
    stacks = [[v for v in col if v] for col in columns]
    total = sum(len(st) for st in stacks)
    dead: set[tuple[int, ...]] = set()
    order: list[int] = []

    def search(heights: list[int]) -> bool:
        ply = sum(heights)
        if ply == total:
            return True
        key = tuple(heights)
        if key in dead:
            return False
        colour = 1 if ply % 2 == 0 else -1
        for c in range(WIDTH):
            if heights[c] < len(stacks[c]) and stacks[c][heights[c]] == colour:
                heights[c] += 1
                order.append(c)
                if search(heights):
                    return True
                order.pop()
                heights[c] -= 1
        dead.add(key)
        return False

    return order if search([0] * WIDTH) else None


def validate_position(game: Connect4, board, to_move: int) -> list[SetupProblem]:
    """Why the discs on ``board`` (+1 Red, -1 Yellow, row 0 at the top) with ``to_move`` to
    move cannot be played from: a disc above an empty cell, counts that do not fit the side
    to move, four in a row already, a full board, discs no order of drops stacks so."""
    columns = _columns(board)
    problems = []
    for c, col in enumerate(columns):
        if any(col[r] and not col[r - 1] for r in range(1, HEIGHT)):
            problems.append(SetupProblem("floating", f"a disc floats in column {c + 1}: discs fall to the lowest "
                                         "free cell", {"column": c + 1}))
    flat = [v for col in columns for v in col]
    red, yellow = flat.count(1), flat.count(-1)
    problems += count_problems(red, yellow, to_move, ("Red", "Yellow"), "disc")
    red_bits = sum(1 << (c * STRIDE + r) for c, col in enumerate(columns) for r, v in enumerate(col) if v > 0)
    yellow_bits = sum(1 << (c * STRIDE + r) for c, col in enumerate(columns) for r, v in enumerate(col) if v < 0)
    red_four, yellow_four = has_four(red_bits), has_four(yellow_bits)
    if red_four and yellow_four:
        problems.append(SetupProblem("both_won", "both sides have four in a row: no game reaches this"))
    elif red_four or yellow_four:
        problems.append(SetupProblem("already_won", f"{'Red' if red_four else 'Yellow'} has already won here",
                                     {"side": 0 if red_four else 1}))
    elif red + yellow == CELLS:
        problems.append(SetupProblem("board_full", "the board is full: the game is over"))
    if not problems and _drop_order(columns) is None:
        problems.append(SetupProblem("unreachable", "no game reaches this: the discs cannot be dropped in turn "
                                     "(Red first) to stack this way"))
    return problems


def position_from_setup(game: Connect4, board, to_move: int) -> Connect4State:
    """The position, reached by dropping the discs in turn (the board alone decides the game)."""
    state = game.initial_state()
    for c in _drop_order(_columns(board)) or ():
        state = state.apply(c)
    return state


GAME_CLASS = Connect4
