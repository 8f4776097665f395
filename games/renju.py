"""Gomoku's rule sets beyond free-style: "exactly five" wins, and renju's forbidden points.

Used by `games.gomoku` for its ``rule`` variant (docs/rules.md):

- ``standard``: a row of exactly five wins, for both sides; six or more does not win (the
  game goes on) and is not forbidden.
- ``renju``: black (the first player) wins with exactly five and may not play an overline
  (six or more), a double four or a double three; white wins with five or more and has no
  forbidden points. A move that makes five wins even when it also makes a forbidden shape.

The definitions follow the Renju International Federation's rules:

- a *four* is a line of four stones that one more stone turns into five (exactly five for
  black); a move can make two fours on one line (``X.XXX.X`` with the middle filled);
- a *straight four* is four in a row with both ends empty, each of which makes five;
- a *three* is a line that one more stone, at a point that is itself not forbidden, turns
  into a straight four. That point is judged with the three's stone placed, by these same
  rules, so the test recurses: a double three is not forbidden when one of its threes can
  only become a straight four through a forbidden point. A point where that stone would also
  make five (on another line) does not count either: the move is a five, which ends the game,
  not a straight four. This is how the renju referees decide it (the ForbiddenPointFinder
  code of Piskvork and Gomocup's managers, and Rapfi); it matters only where black already
  has a point to make five.

Everything here works on the same bitboards as `games.gomoku` (bit ``row * size + col``,
``1`` = a stone). The forbidden-point test scans the four lines through one point; the board-
wide set first keeps the empty points that could be forbidden at all (`forbidden_candidates`,
bit-parallel), so only points near black's stones are examined.
"""
from __future__ import annotations

from functools import lru_cache

RULES = ("freestyle", "standard", "renju")
#: the one-line meaning of each rule set (the app's new-game dialog, `--help`)
RULE_HELP = {
    "freestyle": "five or more in a row wins, for both sides",
    "standard": "exactly five in a row wins; six or more does not",
    "renju": "black may not make a double three, a double four or an overline, and wins with exactly five; "
             "white wins with five or more",
}
#: Gomocup's ``INFO rule`` values (bit 0: exactly five, bit 2: renju) and back
GOMOCUP_RULE = {"freestyle": 0, "standard": 1, "renju": 4}

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))
#: a line as `_line` reads it: cells at offsets -REACH..REACH from the point, centre at REACH
REACH = 6
_EMPTY, _BLACK, _BLOCKED = 0, 1, 2   # BLOCKED: a white stone or off the board
#: how deep the recursion of "is this three's completing point forbidden" goes; a position
#: needing more is unheard of (each level adds a black stone and needs two threes again)
MAX_DEPTH = 12


def rule_from_name(name) -> str:
    """A rule name as typed (``"Renju"``, ``"exact"``...) as one of `RULES`; ValueError otherwise."""
    text = str(name).strip().lower()
    text = {"free": "freestyle", "free-style": "freestyle", "exact": "standard", "exact5": "standard",
            "rif": "renju"}.get(text, text)
    if text not in RULES:
        raise ValueError(f"unknown gomoku rule {str(name)[:40]!r}; choose one of: {', '.join(RULES)}")
    return text


#: the caro bit of a Gomocup rule number (five blocked at both ends does not win)
CARO = 8


def rule_from_gomocup(value) -> str:
    """The rule set of a Gomocup ``INFO rule`` value: 0 freestyle, 1 standard, 4 renju (the bit 2,
    "continuous game", is ignored); ValueError for caro (8), which no game here plays, and for
    anything that is not such a number."""
    try:
        code = int(str(value).strip())
    except ValueError:
        raise ValueError(f"INFO rule {str(value)[:20]!r} is not a number") from None
    if code < 0:
        raise ValueError(f"INFO rule {code} is negative")
    if code & CARO:
        raise ValueError(f"rule {code} (caro) is not supported: freestyle (0), exactly five (1) and renju (4) are")
    if code & 4:
        return "renju"
    return "standard" if code & 1 else "freestyle"


class RuleGeometry:
    """What the rule tests need to know of one board size: each point's four lines clipped to
    five points either side (for "exactly five": a run through the point is six or more exactly
    when six of the clipped window are), and the per-direction neighbour masks of
    `forbidden_candidates`."""

    def __init__(self, size: int):
        self.size = n = size
        self.cells = n * n
        self.full = (1 << self.cells) - 1
        self.windows6 = tuple(self._windows(a, 5) for a in range(self.cells))
        #: per point, the union of its clipped lines: the points whose "five" status it can change
        self.lines6 = tuple(_union(w) for w in self.windows6)
        # per direction, per offset k in -4..4 (not 0): (bit shift, mask of the points whose
        # neighbour at k steps is on the board)
        self.neighbours = tuple(tuple((k * (dr * n + dc), self._valid(dr, dc, k)) for k in range(-4, 5) if k)
                                for dr, dc in DIRECTIONS)
        #: per point, per direction: (the other points within four steps, the bits of the cells
        #: at offsets -REACH..REACH with 0 off the board), what `forbidden_kind` reads
        self.rays = tuple(tuple(self._ray(a, dr, dc) for dr, dc in DIRECTIONS) for a in range(self.cells))

    def _windows(self, action: int, reach: int) -> tuple[tuple[int, int], ...]:
        n = self.size
        r0, c0 = divmod(action, n)
        out = []
        for dr, dc in DIRECTIONS:
            mask = 0
            for k in range(-reach, reach + 1):
                r, c = r0 + k * dr, c0 + k * dc
                if 0 <= r < n and 0 <= c < n:
                    mask |= 1 << (r * n + c)
            if mask.bit_count() >= 5:
                out.append((mask, dr * n + dc))
        return tuple(out)

    def _ray(self, action: int, dr: int, dc: int) -> tuple[int, tuple[int, ...]]:
        n = self.size
        r0, c0 = divmod(action, n)
        near, cells = 0, []
        for k in range(-REACH, REACH + 1):
            r, c = r0 + k * dr, c0 + k * dc
            bit = 1 << (r * n + c) if 0 <= r < n and 0 <= c < n else 0
            cells.append(bit)
            if k and abs(k) <= 4:
                near |= bit
        return near, tuple(cells)

    def _valid(self, dr: int, dc: int, k: int) -> int:
        n, mask = self.size, 0
        for r in range(n):
            for c in range(n):
                if 0 <= r + k * dr < n and 0 <= c + k * dc < n:
                    mask |= 1 << (r * n + c)
        return mask


def _union(windows) -> int:
    out = 0
    for mask, _ in windows:
        out |= mask
    return out


# --- exactly five -------------------------------------------------------------------------

def exact_five_through(stones: int, windows6) -> bool:
    """True when ``stones`` has a row of exactly five through the point whose ``windows6``
    (`RuleGeometry.windows6`) these are. Only a run through the point can reach five stones in
    its clipped lines when none did before, so "a five start and no six start" decides it."""
    for mask, d in windows6:
        x = stones & mask
        f = x & (x >> d)
        f &= f >> (2 * d)
        f &= x >> (4 * d)
        if f and not f & (x >> (5 * d)):
            return True
    return False


def exact_winning_points(stones: int, empty: int, geo: RuleGeometry, near: int) -> int:
    """The points of ``empty & near`` where one more of ``stones`` makes exactly five."""
    found = 0
    windows6 = geo.windows6
    cand = empty & near
    while cand:
        low = cand & -cand
        cand ^= low
        if exact_five_through(stones | low, windows6[low.bit_length() - 1]):
            found |= low
    return found


def update_exact_wins(wins: int, stones: int, empty: int, geo: RuleGeometry, action: int) -> int:
    """``wins`` (the points where ``stones`` made exactly five) after ``stones`` gained ``action``:
    points on its lines may join, and under "exactly five" also leave (a stone beyond a four's
    gap turns that gap into an overline)."""
    for mask, _ in geo.windows6[action]:
        old = wins & mask & empty
        if not old and (stones & mask).bit_count() < 4:
            continue   # neither a five to lose nor four stones to make one with
        wins = (wins & ~mask) | exact_winning_points(stones, empty, geo, mask)
    return wins


def exact_new_wins(stones: int, empty: int, geo: RuleGeometry, action: int) -> int:
    """The empty points on the lines through ``action`` (a stone of ``stones``) where one more of
    ``stones`` makes exactly five: the five points the stone made, when ``stones`` had none
    before (the threat searches' question, `games.gomoku.ThreatRules`)."""
    found = 0
    for mask, d in geo.windows6[action]:
        if (stones & mask).bit_count() < 4:
            continue   # a five point needs four stones on the line already
        window = ((mask, d),)
        cand = empty & mask
        while cand:
            low = cand & -cand
            cand ^= low
            if exact_five_through(stones | low, window):
                found |= low
    return found


# --- renju's forbidden points ---------------------------------------------------------------

def forbidden_candidates(black: int, empty: int, geo: RuleGeometry) -> int:
    """The empty points that may be forbidden for black: those with at least four black stones
    within four points on one line (an overline or two fours on one line need that many), or
    at least two on each of two lines (a double three or a double four across lines). A
    superset: `forbidden_kind` decides each."""
    ge2_seen = ge2_twice = ge4 = 0
    for direction in geo.neighbours:
        ones = twos = fours = 0
        for shift, valid in direction:
            x = ((black >> shift) if shift > 0 else (black << -shift)) & valid
            carry = ones & x
            ones ^= x
            carry2 = twos & carry
            twos ^= carry
            fours |= carry2
        ge4 |= fours
        ge2 = twos | fours
        ge2_twice |= ge2_seen & ge2
        ge2_seen |= ge2
    return (ge4 | ge2_twice) & empty


def _line_bits(black: int, white: int, cells: tuple[int, ...]) -> tuple[int, int]:
    """A line as two small bitmasks (bit i = offset i - REACH): its black cells and its blocked
    ones (white, or off the board)."""
    bm = wm = 0
    for i, bit in enumerate(cells):
        if not bit or white & bit:
            wm |= 1 << i
        elif black & bit:
            bm |= 1 << i
    return bm, wm


@lru_cache(maxsize=1 << 16)
def _analyse(bm: int, wm: int) -> tuple[int, int, tuple[int, ...]]:
    """What a line says of its centre stone (black): (the length of its run, the fours it makes
    (`_fours`), the offsets where one more stone makes a straight four with it
    (`_straight_four_points`)). Lines repeat a lot, so the answers are kept."""
    line = [_BLACK if bm >> i & 1 else _BLOCKED if wm >> i & 1 else _EMPTY for i in range(2 * REACH + 1)]
    s, e = _run(line, REACH)
    if e - s >= 4:
        return e - s + 1, 0, ()
    return e - s + 1, _fours(line), tuple(_straight_four_points(line))


def _run(line: list[int], i: int) -> tuple[int, int]:
    """First and last index of the black run through ``line[i]`` (a black cell)."""
    s = e = i
    while s > 0 and line[s - 1] == _BLACK:
        s -= 1
    while e < len(line) - 1 and line[e + 1] == _BLACK:
        e += 1
    return s, e


def _fours(line: list[int]) -> int:
    """How many fours the centre stone makes on this line: the points (within four of it) where
    one more black stone makes exactly five with it; two such points five apart are the ends of
    one straight four."""
    c = REACH
    points = []
    for q in range(c - 4, c + 5):
        if line[q] != _EMPTY:
            continue
        line[q] = _BLACK
        s, e = _run(line, q)
        line[q] = _EMPTY
        if e - s == 4 and s <= c <= e:
            points.append(q)
    count = len(points)
    for i, q in enumerate(points):
        if q + 5 in points[i + 1:]:
            count -= 1
    return count


def _straight_four_points(line: list[int]) -> list[int]:
    """The offsets (from the centre) of the empty points where one more black stone makes a
    straight four with the centre stone: four in a row, both ends empty, each end making
    exactly five. Such a point touches the centre's run, so only its two neighbours qualify."""
    c = REACH
    s, e = _run(line, c)
    out = []
    for q in (s - 1, e + 1):
        if not 2 <= q <= len(line) - 3 or line[q] != _EMPTY:
            continue
        line[q] = _BLACK
        s2, e2 = _run(line, q)
        line[q] = _EMPTY
        if (e2 - s2 == 3 and s2 - 2 >= 0 and e2 + 2 < len(line)
                and line[s2 - 1] == _EMPTY and line[e2 + 1] == _EMPTY
                and line[s2 - 2] != _BLACK and line[e2 + 2] != _BLACK):
            out.append(q - c)
    return out


def forbidden_kind(black: int, white: int, point: int, geo: RuleGeometry, depth: int = MAX_DEPTH) -> str | None:
    """Why black may not play the empty ``point`` under renju: ``"overline"``, ``"double-four"``
    or ``"double-three"``; None when it may (including every move that makes exactly five)."""
    b = black | (1 << point)
    found = []   # (direction, run length, fours, straight-four offsets) of the lines that matter
    for (near, cells), direction in zip(geo.rays[point], DIRECTIONS):
        if (black & near).bit_count() < 2:
            continue   # no five, four or three needs fewer than two more stones within four points
        run, fours, straight = _analyse(*_line_bits(b, white, cells))
        if run == 5:
            return None   # five wins, whatever else the move makes
        found.append((direction, run, fours, straight))
    if any(run >= 6 for _, run, _, _ in found):
        return "overline"
    if sum(fours for _, _, fours, _ in found) >= 2:
        return "double-four"
    threes = [(direction, straight) for direction, _, fours, straight in found if not fours and straight]
    if len(threes) < 2:
        return None
    n = geo.size
    r0, c0 = divmod(point, n)
    real = 0
    for (dr, dc), offsets in threes:
        for k in offsets:
            q = (r0 + k * dr) * n + (c0 + k * dc)
            if exact_five_through(b | (1 << q), geo.windows6[q]):
                continue   # that move is a five, not a straight four (the referees' reading, docs/rules.md)
            if depth <= 0 or forbidden_kind(b, white, q, geo, depth - 1) is None:
                real += 1
                break
        if real >= 2:
            return "double-three"
    return None


def forbidden_points(black: int, white: int, geo: RuleGeometry) -> int:
    """Bitboard of the empty points black may not play under renju."""
    empty = geo.full ^ (black | white)
    out = 0
    cand = forbidden_candidates(black, empty, geo)
    while cand:
        low = cand & -cand
        cand ^= low
        if forbidden_kind(black, white, low.bit_length() - 1, geo) is not None:
            out |= low
    return out


def stable_open_four(black: int, white: int, point: int, geo: RuleGeometry) -> bool:
    """Whether black may play the empty ``point`` now and whatever white stones are added: no
    overline, at most one four, and at most one line where the stone could make a three (a
    straight-four point, with or without a four on that line). White stones only take away
    black's fours and threes, but they can make a three real (its completing point stops being
    forbidden, or its four is blocked), so a move with two possible threes may become a double
    three; the threat search (`games.gomoku._threats`) counts only black's threats that cannot."""
    b = black | (1 << point)
    fours = threes = 0
    for near, cells in geo.rays[point]:
        if (black & near).bit_count() < 2:
            continue
        run, line_fours, straight = _analyse(*_line_bits(b, white, cells))
        if run == 5:
            return True
        if run >= 6:
            return False
        fours += line_fours
        threes += bool(straight)
    return fours < 2 and threes < 2
