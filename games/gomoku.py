"""Gomoku: five stones in a row wins; a full board is a draw.

Three rule sets (the ``rule`` variant, `games.renju`, docs/rules.md): ``freestyle`` (the
default: five or more wins), ``standard`` (exactly five wins) and ``renju`` (black may not
make a double three, a double four or an overline; black wins with exactly five, white with
five or more).

The board is 15x15 by default; any size from 5 to 26 works (9x9 and 8x8 train fast).
Intersections are written as in renju and gomoku records: the column letter
(``a``.. ``o`` on 15x15, ``i`` included) and the row number counted from the
BOTTOM, so ``a1`` is the bottom-left corner and ``h8`` the centre of 15x15.
A position is the space-separated list of moves from the empty board.

Action = row * size + column with row 0 at the TOP (the encoded planes' layout),
which is also the stone's bit in the bitboards.
"""
from __future__ import annotations

import os
import re

import numpy as np

from . import native, renju
from .base import AlternatingState, Game, NotationError, clip_text, dihedral_symmetries, replay, split_move_list

LETTERS = "abcdefghijklmnopqrstuvwxyz"
WIN_LENGTH = 5
_POINT_RE = re.compile(r"([a-z])([0-9]{1,4})")  # a row of at most 4 digits: int() refuses 4300

#: the compiled rules (games/_gomoku_c.c: free-style, exactly five, renju's forbidden points and the
#: threat searches under each rule set), or None where this module's and games.renju's Python runs;
#: tests/test_gomoku_compiled.py and tests/test_renju_compiled.py compare the two
_core = native.load("games._gomoku_c")


def five_through(stones: int, windows: tuple[tuple[int, int], ...]) -> bool:
    """True when ``stones`` has five (or more) in a row inside one of the ``windows``.

    A window is one line through the last stone clipped to four points either side
    (``mask``) and the bit distance between neighbours on it (``d``); four shift-ANDs
    leave a bit only where five stones in a row start.
    """
    for mask, d in windows:
        x = stones & mask
        x &= x >> d
        x &= x >> d
        x &= x >> d
        if x & (x >> d):
            return True
    return False


def winning_points(stones: int, empty: int, windows: tuple[tuple[int, int], ...]) -> int:
    """Bitboard of the ``empty`` points on the ``windows``' lines where one more stone
    would give ``stones`` five in a row."""
    found = 0
    for mask, d in windows:
        if (stones & mask).bit_count() < WIN_LENGTH - 1:
            continue
        cand = empty & mask
        while cand:
            low = cand & -cand
            cand ^= low
            if five_through(stones | low, ((mask, d),)):
                found |= low
    return found


#: the longest victory by continuous fours (VCF) `proven_value` looks for, in attacker moves,
#: and the most attacker moves it tries in one call (a bounded proof search: when it runs out
#: it reports nothing rather than guess)
VCF_DEPTH = 8
VCF_BUDGET = 48


def sum_masks(windows: tuple[tuple[int, int], ...]) -> int:
    """The union of the windows' masks."""
    out = 0
    for mask, _ in windows:
        out |= mask
    return out


def _bits(board: int):
    while board:
        low = board & -board
        yield low
        board ^= low


class ThreatRules:
    """What the threat searches (`_vct`, `_defend`, `_threats`) need of a rule set, with one side
    attacking: where a new stone gives the attacker (``win_a``) or the defender (``win_d``) a point
    to make five (``(stones, empty, action) -> bitboard``: the points on the stone's lines; the
    searches only ask when that side has no other empty five point), and, under renju, which of
    black's moves are forbidden (``bad_a``/``bad_d``: ``(black, white, action) -> bool``, None for a
    side with no forbidden points) and which of black's open-four threats no white stone can turn
    into a forbidden point (``safe_a``, see `renju.stable_open_four`).

    A side's moves only ever change its own five points, so both kinds of answer follow the rule:
    exactly five for black under renju and for both sides under standard (`renju.exact_new_wins`),
    five or more otherwise; a five point is never forbidden (five wins whatever else it makes)."""

    __slots__ = ("game", "attacker", "rule_code", "win_a", "win_d", "bad_a", "bad_d", "safe_a")

    def __init__(self, game: "Gomoku", attacker: int):
        self.game = game
        self.attacker = attacker
        #: the rule set as the compiled search numbers it (`renju.RULES`' order)
        self.rule_code = renju.RULES.index(game.rule)
        windows, geo = game.windows, game.geometry

        def five_or_more(stones: int, empty: int, action: int) -> int:
            return winning_points(stones, empty, windows[action])

        def exactly_five(stones: int, empty: int, action: int) -> int:
            return renju.exact_new_wins(stones, empty, geo, action)

        def forbidden(black: int, white: int, action: int) -> bool:
            return renju.forbidden_kind(black, white, action, geo) is not None

        def safe(black: int, white: int, action: int) -> bool:
            return renju.stable_open_four(black, white, action, geo)

        wins = [exactly_five if exact else five_or_more for exact in game.exact_five]
        self.win_a, self.win_d = wins[attacker], wins[1 - attacker]
        renju_black = (game.rule == "renju", False)
        self.bad_a = forbidden if renju_black[attacker] else None
        self.bad_d = forbidden if renju_black[1 - attacker] else None
        self.safe_a = safe if renju_black[attacker] else None


def _vcf(rules: ThreatRules, a: int, d: int, a_wins: int, d_wins: int, empty: int, depth: int,
         budget: list[int]) -> int | None:
    """A victory by continuous fours for ``a`` (to move) against ``d``: the bit of its first
    move, or None. Every attacker move makes a four, so the defender's reply is forced (the
    one point that stops five); the attacker wins when a move makes two fours at once, or
    when a forced block leaves it five. A defender's four must be blocked first, and only by
    a move that is itself a four. `_vct` with no threes; ``budget[0]`` counts down the moves
    tried, at most ``depth`` fours on a line."""
    return _vct(rules, a, d, a_wins, d_wins, empty, 0, depth, budget)


def _env_budget(name: str, default: int) -> int:
    """A non-negative move budget from the environment variable ``name``; ``default`` when it
    is unset or not a number."""
    try:
        return max(0, int(os.environ.get(name, default)))
    except ValueError:
        return default


#: victories by continuous threats (VCT: fours and open threes) are looked for right below the
#: root (`GomokuState.deep_proven_value`) and at the root (`GomokuState.winning_action`): at most
#: this many threes on a line, and this many attacker moves tried in one call
VCT_THREES = 3
VCT_BUDGET = _env_budget("ZEROBOARD_GOMOKU_VCT_BUDGET", 600)   # 0: measure the search without it
#: a search's proof effort (`SearchConfig.proof_effort`) -> (threes on a line, multiple of
#: `VCT_BUDGET`): each step looks one three deeper with 8 times the moves
VCT_EFFORT = {1: (VCT_THREES, 1), 2: (VCT_THREES + 1, 8), 3: (VCT_THREES + 2, 64)}


def vct_settings(effort: int = 1) -> tuple[int, int]:
    """(threes, budget) of the VCT a search at this proof effort looks for (efforts outside
    `VCT_EFFORT` take the nearest one)."""
    threes, times = VCT_EFFORT[min(max(int(effort), 1), max(VCT_EFFORT))]
    return threes, VCT_BUDGET * times


#: threat-space defence at the root (`GomokuState.threat_defence`, only where `VCT_BUDGET` is on):
#: the opponent's victories by continuous threats are looked for with at most this many threes on
#: a line and `DEFENCE_BUDGET` moves tried, and at most `DEFENCE_TOTAL` moves over one root's
#: candidates. Off by default: against Rapfi it scored 27.5% where the search without it scored
#: 28.5%, over the same 200 games (docs/training.md, 2026-11-26), at 0.1-0.6 s a move; compiled,
#: at 20,000 and 200,000 moves (14 ms a position), it changed 7 results of 160 against Rapfi at
#: 10,000 nodes, 2 for the better and 5 for the worse (docs/performance.md, 2026-11-29). To
#: measure it again: ZEROBOARD_GOMOKU_DEFENCE_BUDGET=20000 ZEROBOARD_GOMOKU_DEFENCE_TOTAL=200000
DEFENCE_THREES = 4
DEFENCE_BUDGET = _env_budget("ZEROBOARD_GOMOKU_DEFENCE_BUDGET", 0)
DEFENCE_TOTAL = _env_budget("ZEROBOARD_GOMOKU_DEFENCE_TOTAL", 60000)


def _vct(rules: ThreatRules, a: int, d: int, a_wins: int, d_wins: int, empty: int, threes: int, fours: int,
         budget: list[int]) -> int | None:
    """A victory by continuous threats for ``a`` (to move) against ``d``: the bit of its first
    move, or None. Each attacker move makes a four (the defender's reply is forced) or a three:
    a move after which the attacker threatens to leave two points to make five (an open four,
    or two fours at once). Every defence of a three is then refuted in turn (`_defend`), so a
    line it returns is a proof. At most ``threes`` threes and ``fours`` fours on a line;
    ``budget[0]`` counts down the moves tried, and when it runs out nothing is reported.
    Under renju (`ThreatRules`) black's forbidden points are neither its threats nor its blocks:
    a white four whose block is forbidden to black wins."""
    game = rules.game
    if _core is not None:   # the compiled search, the same moves tried in the same order
        first, budget[0] = _core.vct(game.size, a, d, a_wins, d_wins, empty, threes, fours, budget[0],
                                     rules.rule_code, rules.attacker)
        return None if first < 0 else 1 << first
    if a_wins & empty:
        return a_wins & empty & -(a_wins & empty)
    forced = d_wins & empty
    win_a, bad_a = rules.win_a, rules.bad_a
    if forced:   # the attacker must stop the defender's five, and its threats must survive that
        if forced & (forced - 1):
            return None  # two defender fives: no single move answers both
        budget[0] -= 1
        if budget[0] < 0:
            return None
        at = forced.bit_length() - 1
        if bad_a is not None and bad_a(a, d, at):
            return None  # black may not block there
        e2 = empty ^ forced
        a2 = a | forced
        a_new = win_a(a2, e2, at)
        if a_new & (a_new - 1):
            return forced
        replies = 0 if a_new or threes <= 0 else _threats(rules, a2, d, e2, game.full)
        if (a_new or (replies and threes > 0)) and _defend(rules, a2, d, a_wins | a_new, d_wins, e2, replies,
                                                           threes - (0 if a_new else 1), fours - 1, budget):
            return forced
        return None
    four_moves = game.four_points(a, d, empty) if fours > 0 else 0
    three_moves = game.three_points(a, d, empty) & ~four_moves if threes > 0 else 0
    bad_d = rules.bad_d
    for p in _bits(four_moves):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        e2 = empty ^ p
        a2 = a | p
        at = p.bit_length() - 1
        new = win_a(a2, e2, at)
        if not new or (bad_a is not None and bad_a(a, d, at)):
            continue
        if new & (new - 1):
            return p  # two points to make five: the defender stops one
        block = new.bit_length() - 1
        if bad_d is not None and bad_d(d, a2, block):
            return p  # black may not stop this five
        e3 = e2 ^ new
        d2 = d | new
        d_wins2 = d_wins | rules.win_d(d2, e3, block)
        if _vct(rules, a2, d2, a_wins | new, d_wins2, e3, threes, fours - 1, budget) is not None:
            return p
    for p in _bits(three_moves):
        budget[0] -= 1
        if budget[0] < 0:
            return None
        at = p.bit_length() - 1
        if bad_a is not None and bad_a(a, d, at):
            continue
        e2 = empty ^ p
        a2 = a | p
        replies = _threats(rules, a2, d, e2, game.lines[at])
        if replies and _defend(rules, a2, d, a_wins, d_wins, e2, replies, threes - 1, fours, budget):
            return p
    return None


def _threats(rules: ThreatRules, a: int, d: int, empty: int, near: int) -> int:
    """The attacker's moves among ``near`` that would leave it two points to make five,
    together with those points: where a defender must play to stop them (0: no threat).
    Under renju only black's threats that no defender stone can make forbidden count."""
    out = 0
    safe = rules.safe_a
    for q in _bits(rules.game.four_points(a, d, empty) & near):
        at = q.bit_length() - 1
        w = rules.win_a(a | q, empty ^ q, at)
        if w & (w - 1) and (safe is None or safe(a, d, at)):
            out |= q | w
    return out


def _defend(rules: ThreatRules, a: int, d: int, a_wins: int, d_wins: int, empty: int, replies: int, threes: int,
            fours: int, budget: list[int]) -> bool:
    """True when the attacker ``a`` still wins by continuous threats with the defender ``d`` to
    move, facing a five to stop (``a_wins``) or the threats whose points are ``replies``.
    Any other defender move that makes no four leaves a threat standing and loses: the
    attacker makes it, and with two points to make five against none, wins. So the defender's
    candidates are ``replies`` and its own fours (less black's forbidden points under renju);
    after such a four and the attacker's forced block the threats are worked out again on the
    whole board."""
    if d_wins & empty:
        return False  # the defender makes five
    bad_a, bad_d = rules.bad_a, rules.bad_d
    pending = a_wins & empty
    if pending:
        if pending & (pending - 1):
            return True
        at = pending.bit_length() - 1
        if bad_d is not None and bad_d(d, a, at):
            return True  # black may not stop this five
        d2 = d | pending
        e2 = empty ^ pending
        new = rules.win_d(d2, e2, at)
        return _vct(rules, a, d2, a_wins, d_wins | new, e2, threes, fours, budget) is not None
    if not replies:
        return False
    game = rules.game
    for r in _bits(replies | game.four_points(d, a, empty)):
        budget[0] -= 1
        if budget[0] < 0:
            return False
        at = r.bit_length() - 1
        if bad_d is not None and bad_d(d, a, at):
            continue  # not a move black may make
        e2 = empty ^ r
        d2 = d | r
        new = rules.win_d(d2, e2, at)
        if new & (new - 1):
            return False  # the defender's own open four
        if new:   # a four: the attacker must block it, then the defender moves again
            block = new.bit_length() - 1
            if bad_a is not None and bad_a(a, d2, block):
                return False  # black may not block it
            e3 = e2 ^ new
            a3 = a | new
            a_new = rules.win_a(a3, e3, block)
            if not _defend(rules, a3, d2, a_wins | a_new, d_wins | new, e3, _threats(rules, a3, d2, e3, game.full),
                           threes, fours, budget):
                return False
        elif _vct(rules, a, d2, a_wins, d_wins, e2, threes, fours, budget) is None:
            return False
    return True

#: see `GomokuState.encode`
NUM_PLANES = 8


class GomokuState(AlternatingState):
    """A gomoku position: black's (player 0) and white's stones as bitboards, and for each
    side the points where it would make five (kept up to date move by move: a point
    joins when a stone makes it a winning point; filled points are masked out on use)."""

    __slots__ = ("_black", "_white", "_wins")

    def __init__(self, game: "Gomoku", black: int = 0, white: int = 0, moves: tuple[int, ...] = (),
                 winner: int | None = None, wins: tuple[int, int] = (0, 0)):
        self.game = game
        self._black = black
        self._white = white
        self._moves = moves
        self._winner = winner
        self._wins = wins

    def _unpack(self, *boards: int) -> np.ndarray:
        g = self.game
        raw = b"".join(b.to_bytes(g.plane_bytes, "little") for b in boards)
        bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
        return bits.reshape(len(boards), g.plane_bytes * 8)[:, :g.cells]

    def legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        g = self.game
        if _core is not None:
            return _core.empty_points(g.size, self._black | self._white)
        return np.flatnonzero(self._unpack(g.full ^ (self._black | self._white))[0]).tolist()

    def apply(self, action: int) -> "GomokuState":
        bit = 1 << action
        g = self.game
        windows = g.windows[action]
        black, white = self._black, self._white
        wins_black, wins_white = self._wins
        if _core is not None:
            me = len(self._moves) & 1
            if me:
                white |= bit
            else:
                black |= bit
            five, new = _core.place(g.size, white if me else black, g.full ^ (black | white), action)
            wins = (wins_black, wins_white | new) if me else (wins_black | new, wins_white)
            return GomokuState(g, black, white, self._moves + (action,), me if five else None, wins)
        if len(self._moves) & 1:
            white |= bit
            winner = 1 if five_through(white, windows) else None
            if winner is None:
                wins_white |= winning_points(white, g.full ^ (black | white), windows)
        else:
            black |= bit
            winner = 0 if five_through(black, windows) else None
            if winner is None:
                wins_black |= winning_points(black, g.full ^ (black | white), windows)
        return GomokuState(g, black, white, self._moves + (action,), winner, (wins_black, wins_white))

    def random_playout(self, rng, max_plies: int) -> tuple[bool, int | None]:
        """Uniformly random moves on bitboards alone (no State objects): (finished, winner),
        the rollout evaluator's fast path; from the same ``rng`` state it plays the very
        game the generic playout would."""
        if self.is_terminal():
            return True, self._winner
        windows = self.game.windows
        empties = self.legal_actions()   # ascending, as the generic playout chooses from
        stones = [self._black, self._white]
        player = len(self._moves) & 1
        for _ in range(max_plies):
            if not empties:
                return True, None
            a = empties.pop(rng.randrange(len(empties)))
            stones[player] |= 1 << a
            if five_through(stones[player], windows[a]):
                return True, player
            player ^= 1
        return not empties, None

    #: whether `proven_value` also looks for a victory by continuous fours (free-style's rules)
    proves_vcf = True

    def _unstoppable(self, threats: int) -> bool:
        """Whether the side to move cannot take every one of the opponent's five points
        ``threats`` (one stone blocks one)."""
        return threats.bit_count() >= 2

    def proven_value(self) -> float | None:
        """1.0 when the side to move makes five at once, or wins by continuous fours (`vcf`,
        where `proves_vcf`); -1.0 when it cannot make five but cannot stop the opponent's
        (`_unstoppable`); None otherwise."""
        if self._winner is not None:
            return None
        empty = self.game.full ^ (self._black | self._white)
        me = len(self._moves) & 1
        if self._wins[me] & empty:
            return 1.0
        if self._unstoppable(self._wins[1 - me] & empty):
            return -1.0
        if not self.proves_vcf:
            return None
        stones = (self._black, self._white)
        found = _vcf(self.game.threat_rules[me], stones[me], stones[1 - me], self._wins[me], self._wins[1 - me],
                     empty, VCF_DEPTH, [VCF_BUDGET])
        return 1.0 if found is not None else None

    def noticeable_actions(self) -> list[int]:
        """The moves a person looks at first: the legal points within two lines of a stone (the
        centre on an empty board); all legal moves where none is."""
        legal = self.legal_actions()
        size = self.game.size
        stones = self._black | self._white
        if not stones:
            centre = (size // 2) * size + size // 2
            return [centre] if centre in legal else legal
        near = set()
        for bit in _bits(stones):
            r, c = divmod(bit.bit_length() - 1, size)
            for rr in range(max(0, r - 2), min(size, r + 3)):
                for cc in range(max(0, c - 2), min(size, c + 3)):
                    near.add(rr * size + cc)
        return [a for a in legal if a in near] or legal

    def wins_at_once(self) -> bool:
        """Whether the side to move makes five (as the rules count it) with its next stone."""
        if self._winner is not None:
            return False
        empty = self.game.full ^ (self._black | self._white)
        return bool(self._wins[len(self._moves) & 1] & empty)

    def proven_plies(self) -> int:
        """Plies to the end of a position `proven_value` decides (for a loser's choice of the
        longest resistance): 1 when the side to move makes five at once, 2 when it cannot
        stop two fives, else at least 3 (a victory by continuous fours)."""
        empty = self.game.full ^ (self._black | self._white)
        me = len(self._moves) & 1
        if self._wins[me] & empty:
            return 1
        return 2 if self._unstoppable(self._wins[1 - me] & empty) else 3

    def tactical_priors(self) -> list[tuple[int, float]]:
        """The points where the side to move makes a four, or where the opponent would make one
        (blocking its three), each with a share of the prior (0.4 split among them, at most 0.1
        each): "extend my line, block theirs" is always tried, whatever the network says
        (`engine.core.mcts.with_tactics`). Fives and forced blocks are proven by `proven_value`."""
        if self._winner is not None:
            return []
        me = len(self._moves) & 1
        stones = (self._black, self._white)
        empty = self.game.full ^ (self._black | self._white)
        points = (self.game.four_points(stones[me], stones[1 - me], empty)
                  | self.game.four_points(stones[1 - me], stones[me], empty))
        count = points.bit_count()
        if not count:
            return []
        share = min(0.1, 0.4 / count)
        return [(p.bit_length() - 1, share) for p in _bits(points)]

    def vcf(self, depth: int = VCF_DEPTH, budget: int = VCF_BUDGET) -> int | None:
        """The first move of a victory by continuous fours for the side to move (found within
        ``depth`` attacker moves and ``budget`` tried moves), or None. Exact when found: every
        defender move but the forced block loses at once."""
        if self._winner is not None:
            return None
        me = len(self._moves) & 1
        stones = (self._black, self._white)
        empty = self.game.full ^ (self._black | self._white)
        bit = _vcf(self.game.threat_rules[me], stones[me], stones[1 - me], self._wins[me], self._wins[1 - me],
                   empty, depth, [budget])
        return None if bit is None else bit.bit_length() - 1

    def vct(self, threes: int = VCT_THREES, budget: int = 600) -> int | None:
        """The first move of a victory by continuous threats (fours and open threes) for the
        side to move, found within ``threes`` threes on a line and ``budget`` tried moves, or
        None. Exact when found: every defence was refuted (`_vct`)."""
        if self._winner is not None:
            return None
        me = len(self._moves) & 1
        bit = self._vct_for(me, threes, [budget])
        return None if bit is None else bit.bit_length() - 1

    def _vct_for(self, attacker: int, threes: int, spent: list[int]) -> int | None:
        """The bit of the first move of a VCT for ``attacker`` (0 black, 1 white) as if it were
        to move, or None; ``spent[0]`` is the budget, counted down (below 0: it ran out)."""
        stones = (self._black, self._white)
        empty = self.game.full ^ (self._black | self._white)
        for most in range(threes + 1):   # fours alone first, then one more three at a time
            bit = _vct(self.game.threat_rules[attacker], stones[attacker], stones[1 - attacker], self._wins[attacker],
                       self._wins[1 - attacker], empty, most, 2 * VCF_DEPTH, spent)
            if bit is not None:
                return bit
            if spent[0] < 0:
                break
        return None

    def threat_defence(self) -> tuple[list[int], list[int]] | None:
        """Threat-space defence for the root (`engine.core.mcts.Tree`): None when the opponent
        would have no victory by continuous threats even if the side to move passed (looked for
        with `DEFENCE_THREES` threes and `DEFENCE_BUDGET` moves), else ``(defences, refuted)``.
        The candidates are the moves that can touch a threat: the points where either side
        makes a three or a four in a five-point segment (a defender stone anywhere else blocks
        none of the attacker's segments and makes no counter-threat). Each is tried: ``refuted``
        lists those after which the opponent still wins by threats (exact: the VCT is a proof),
        ``defences`` the others (unproven: the VCT search has limits; candidates left when
        `DEFENCE_TOTAL` moves have been tried count as defences). Every move outside the
        candidates is presumed lost, since the attack found does not touch it."""
        if not VCT_BUDGET or not DEFENCE_BUDGET or self.is_terminal():
            return None
        me = len(self._moves) & 1
        if self._vct_for(1 - me, DEFENCE_THREES, [DEFENCE_BUDGET]) is None:
            return None
        total = DEFENCE_TOTAL
        defences, refuted = [], []
        for p in _bits(self.defence_candidates()):
            action = p.bit_length() - 1
            if total <= 0 or (child := self.apply(action)).is_terminal():
                defences.append(action)
                continue
            given = min(DEFENCE_BUDGET, total)
            spent = [given]
            found = child._vct_for(1 - me, DEFENCE_THREES, spent)
            total -= given - max(spent[0], 0)
            (refuted if found is not None else defences).append(action)
        return defences, refuted

    def defence_candidates(self) -> int:
        """Bitboard of the moves that can touch a threat (`threat_defence`): the empty points
        where either side makes a three, a four or a five in a five-point segment."""
        g = self.game
        me = len(self._moves) & 1
        mine, theirs = (self._black, self._white) if me == 0 else (self._white, self._black)
        empty = g.full ^ (self._black | self._white)
        return (g.four_points(mine, theirs, empty) | g.three_points(mine, theirs, empty)
                | g.four_points(theirs, mine, empty) | g.three_points(theirs, mine, empty)
                | ((self._wins[0] | self._wins[1]) & empty))   # fives to make or to stop

    def winning_action(self, effort: int = 1) -> int | None:
        """A move proven to win (`vct`, as deep as ``effort`` says: `vct_settings`), or None:
        the search plays it at the root."""
        return self.vct(*vct_settings(effort)) if VCT_BUDGET else None

    def deep_proven_value(self, effort: int = 1) -> float | None:
        """1.0 where the side to move wins by continuous threats (`vct`, as deep as ``effort``
        says), else None: the search's proof for the positions right below its root where
        `proven_value` finds nothing (there it is worth its cost), so a move that lets the
        opponent start a winning attack is known to lose."""
        return None if not VCT_BUDGET or self.vct(*vct_settings(effort)) is None else 1.0

    def is_terminal(self) -> bool:
        return self._winner is not None or len(self._moves) == self.game.cells

    def encode(self) -> np.ndarray:
        """Planes: the stones of the player to move, the opponent's, the last move, all ones
        when the player to move is black (the side with the first-move advantage), then the
        threats a small network cannot count for itself: the empty points where the player to
        move makes five, where the opponent does, and where each makes a four (a five-point
        segment with four of its stones, one empty point and none of the other's)."""
        g = self.game
        to_move = len(self._moves) & 1
        me, opp = (self._white, self._black) if to_move else (self._black, self._white)
        if _core is not None:
            raw = _core.encode(g.size, me, opp, self._wins[to_move], self._wins[1 - to_move],
                               self._moves[-1] if self._moves else -1, to_move == 0)
            return np.frombuffer(raw, np.float32).reshape(NUM_PLANES, g.size, g.size)
        empty = g.full ^ (me | opp)
        fives_me, fives_opp = self._wins[to_move] & empty, self._wins[1 - to_move] & empty
        planes = np.zeros((NUM_PLANES, g.cells), dtype=np.float32)
        planes[[0, 1, 4, 5, 6, 7]] = self._unpack(me, opp, fives_me, fives_opp,
                                                  g.four_points(me, opp, empty) & ~fives_me,
                                                  g.four_points(opp, me, empty) & ~fives_opp)
        if self._moves:
            planes[2, self._moves[-1]] = 1.0
        if to_move == 0:
            planes[3] = 1.0
        return planes.reshape(NUM_PLANES, g.size, g.size)

    def board_array(self) -> np.ndarray:
        bits = self._unpack(self._black, self._white).astype(np.int8)
        return (bits[0] - bits[1]).reshape(self.game.size, self.game.size)

    def ownership(self) -> np.ndarray:
        """The stones: +1 black's (player 0), -1 white's, 0 empty, as ``encode`` lays the board out."""
        return self.board_array()

    def action_to_text(self, action: int) -> str:
        return self.game.point_name(action)

    def parse_action(self, text: str) -> int:
        g = self.game
        t = text.strip().lower()
        m = _POINT_RE.fullmatch(t)
        if m is None:
            raise NotationError(f"bad point {clip_text(text)!r}: expected a column letter and a row number like 'h8'")
        col, row_from_bottom = LETTERS.find(m.group(1)), int(m.group(2))
        if not (0 <= col < g.size and 1 <= row_from_bottom <= g.size):
            raise NotationError(f"point {t!r} is off the {g.size}x{g.size} board "
                                f"(columns a-{LETTERS[g.size - 1]}, rows 1-{g.size})")
        if self.is_terminal():
            raise NotationError(f"point {t}: the game is already over")
        action = (g.size - row_from_bottom) * g.size + col
        if (self._black | self._white) >> action & 1:
            raise NotationError(f"point {t} is already taken")
        return action

    def to_text(self) -> str:
        name = self.game.point_name
        return " ".join(name(a) for a in self._moves)

    def render(self) -> str:
        g = self.game
        board = self.board_array()
        width = len(str(g.size))
        lines = [" " * (width + 1) + " ".join(LETTERS[:g.size])]
        for r in range(g.size):
            label = str(g.size - r).rjust(width)
            lines.append(f"{label} " + " ".join({0: ".", 1: "X", -1: "O"}[v] for v in board[r]))
        return "\n".join(lines)

    def key(self):
        return (self._black, self._white)


class RuledGomokuState(GomokuState):
    """A position under the ``standard`` or ``renju`` rule (`games.renju`). Free-style positions
    are plain `GomokuState`s, so the free-style hot path is untouched.

    Under "exactly five" a side's winning points are kept exact (a point leaves when a stone of
    its own turns it into an overline point). Under renju the points black may not play
    (`forbidden_points`) are worked out once per position, when first asked, and are never
    among black's legal moves; a position where black has no other empty point is a draw.

    The victory-by-continuous-threats proofs (VCF, VCT, threat-space defence) follow the rule
    (`ThreatRules`): a four is a move that leaves a point to make the rule's five, and under
    renju black's forbidden points are neither its threats nor its blocks."""

    __slots__ = ("_forbidden",)

    def __init__(self, game: "Gomoku", black: int = 0, white: int = 0, moves: tuple[int, ...] = (),
                 winner: int | None = None, wins: tuple[int, int] = (0, 0)):
        super().__init__(game, black, white, moves, winner, wins)
        self._forbidden = None

    random_playout = None   # the rollout evaluator's generic playout follows legal_actions

    def forbidden_mask(self) -> int:
        """Bitboard of the empty points the side to move may not play (renju, black to move; else 0)."""
        if self._forbidden is None:
            g = self.game
            if g.rule != "renju" or len(self._moves) & 1 or self._winner is not None:
                self._forbidden = 0
            elif _core is not None:
                self._forbidden = _core.forbidden_points(g.size, self._black, self._white)
            else:
                self._forbidden = renju.forbidden_points(self._black, self._white, g.geometry)
        return self._forbidden

    def forbidden_actions(self) -> list[int]:
        """The empty points the side to move may not play (black's under renju), ascending."""
        return [p.bit_length() - 1 for p in _bits(self.forbidden_mask())]

    def legal_actions(self) -> list[int]:
        if self._winner is not None:
            return []
        g = self.game
        taken = self._black | self._white | self.forbidden_mask()
        if _core is not None:
            return _core.empty_points(g.size, taken)
        return np.flatnonzero(self._unpack(g.full ^ taken)[0]).tolist()

    def apply(self, action: int) -> "RuledGomokuState":
        bit = 1 << action
        g = self.game
        black, white = self._black, self._white
        wins = list(self._wins)
        me = len(self._moves) & 1
        if me:
            white |= bit
        else:
            black |= bit
        stones = white if me else black
        empty = g.full ^ (black | white)
        if _core is not None:
            if g.exact_five[me]:
                five, wins[me] = _core.exact_place(g.size, stones, empty, wins[me], action)
            else:
                five, new = _core.place(g.size, stones, empty, action)
                wins[me] |= new
            return RuledGomokuState(g, black, white, self._moves + (action,), me if five else None, (wins[0], wins[1]))
        if g.exact_five[me]:
            winner = me if renju.exact_five_through(stones, g.geometry.windows6[action]) else None
            wins[me] = renju.update_exact_wins(wins[me], stones, empty, g.geometry, action)
        else:
            windows = g.windows[action]
            winner = me if five_through(stones, windows) else None
            if winner is None:
                wins[me] |= winning_points(stones, empty, windows)
        return RuledGomokuState(g, black, white, self._moves + (action,), winner, (wins[0], wins[1]))

    def is_terminal(self) -> bool:
        if self._winner is not None or len(self._moves) == self.game.cells:
            return True
        if self.game.rule != "renju" or len(self._moves) & 1:
            return False
        g = self.game
        empty = g.full ^ (self._black | self._white)
        if _core is not None:
            candidates = _core.forbidden_candidates(g.size, self._black, empty)
        else:
            candidates = renju.forbidden_candidates(self._black, empty, g.geometry)
        if empty & ~candidates:
            return False   # a point that cannot be forbidden is free: no need to decide the others
        return not empty & ~self.forbidden_mask()

    def parse_action(self, text: str) -> int:
        action = super().parse_action(text)
        self._check_allowed(action)
        return action

    def play(self, action: int) -> "RuledGomokuState":
        if isinstance(action, int) and 0 <= action < self.game.cells and not self.is_terminal():
            self._check_allowed(action)
        return super().play(action)

    def _check_allowed(self, action: int) -> None:
        """NotationError naming the shape when ``action`` is forbidden to the side to move."""
        if self.forbidden_mask() >> action & 1:
            why = renju.forbidden_kind(self._black, self._white, action, self.game.geometry)
            raise NotationError(f"point {self.game.point_name(action)} is forbidden for black under renju "
                                f"({why.replace('-', ' ')})")

    def _unstoppable(self, threats: int) -> bool:
        """Two or more five points, or (renju) one that is forbidden to black."""
        return super()._unstoppable(threats) or bool(threats & self.forbidden_mask())

    def tactical_priors(self) -> list[tuple[int, float]]:
        """As free-style's, without the points black may not play."""
        allowed = ~self.forbidden_mask()
        return [(a, share) for a, share in super().tactical_priors() if allowed >> a & 1]

    def defence_candidates(self) -> int:
        """As free-style's, without the points black may not play."""
        return super().defence_candidates() & ~self.forbidden_mask()


class Gomoku(Game):
    """Gomoku on a ``size`` x ``size`` board (15 by default) under a ``rule`` set: "freestyle"
    (the default), "standard" or "renju" (`games.renju`)."""

    id = "gomoku"
    name = "Gomoku"
    variant_names = ("rule", "size")
    num_planes = NUM_PLANES
    #: a network trained on the first 4 planes alone (before the threat planes) still loads: its
    #: first layer gets zero weights for the new planes, so it plays exactly as it did
    legacy_planes = (4,)

    @property
    def proofs(self) -> str:
        vct = (f"; at the root and its moves, a victory by continuous threats (open threes and fours, "
               f"up to {VCT_THREES} threes deep, {VCT_BUDGET} moves tried)") if VCT_BUDGET else ""
        if VCT_BUDGET and DEFENCE_BUDGET:
            vct += (f"; at the root, the opponent's threats answered (up to {DEFENCE_THREES} threes deep, "
                    f"{DEFENCE_BUDGET} moves tried per move)")
        fives = {"freestyle": "", "standard": " (exactly five)",
                 "renju": " (black: exactly five, its forbidden points neither threats nor blocks)"}[self.rule]
        return (f"a win in one; two threats against the mover; a victory by continuous fours{fives} "
                f"(up to {VCF_DEPTH} fours deep, {VCF_BUDGET} attacker moves tried)" + vct)
    policy_planes = 1

    def __init__(self, size: int = 15, rule: str = "freestyle"):
        if not isinstance(size, int) or not WIN_LENGTH <= size <= len(LETTERS):
            raise ValueError(f"gomoku size must be an integer from {WIN_LENGTH} to {len(LETTERS)}, not {size!r}")
        self.size = size
        self.rule = renju.rule_from_name(rule)
        #: per player (black, white): whether only exactly five wins
        self.exact_five = {"freestyle": (False, False), "standard": (True, True), "renju": (True, False)}[self.rule]
        self.cells = size * size
        self.board_shape = (size, size)
        self.action_size = self.cells
        self.max_game_length = self.cells
        self.full = (1 << self.cells) - 1
        self.plane_bytes = (self.cells + 7) // 8
        self.windows = tuple(self._windows(a) for a in range(self.cells))
        #: per point, the points of its four lines within four steps (its windows together)
        self.lines = tuple(sum_masks(w) for w in self.windows)
        self._segments = self._segment_starts()
        self.geometry = renju.RuleGeometry(size) if self.rule != "freestyle" else None
        #: the threat searches' view of the rule, black attacking and white attacking
        self.threat_rules = (ThreatRules(self, 0), ThreatRules(self, 1))
        if self.rule != "freestyle":
            self.name = f"Gomoku ({self.rule})"

    @classmethod
    def variant_from_key(cls, parts: list[str]) -> dict:
        """The variant of a key's tail (`Game.key`: ``["renju"]``, ``["9"]``, ``["renju", "9"]``);
        ValueError when it names none."""
        variant = {}
        for part in parts:
            if part.isdigit() and "size" not in variant:
                variant["size"] = int(part)
            elif part in renju.RULES and part != "freestyle" and "rule" not in variant:
                variant["rule"] = part
            else:
                raise ValueError(f"bad gomoku variant {part[:20]!r}")
        return variant

    @property
    def network_key(self) -> str:
        """The key of the networks this game plays when none of its own exists: under standard and
        renju, the free-style game's of the same size (renju has its own, ``models/gomoku-renju.pt``,
        which the player loads first)."""
        return self.key if self.rule == "freestyle" else get_freestyle_key(self.size)

    def _segment_starts(self) -> tuple[tuple[int, int], ...]:
        """Per direction: (bit step, bitboard of the points where a five-point segment starts)."""
        n, out = self.size, []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            starts = 0
            for r in range(n):
                for c in range(n):
                    if 0 <= r + 4 * dr < n and 0 <= c + 4 * dc < n:
                        starts |= 1 << (r * n + c)
            out.append((dr * n + dc, starts))
        return tuple(out)

    def four_points(self, mine: int, theirs: int, empty: int) -> int:
        """Bitboard of the empty points where one more of ``mine`` makes a four: a five-point
        segment with four of ``mine``, one empty point and none of ``theirs``."""
        return self._segment_points(mine, theirs, empty, 3)

    def three_points(self, mine: int, theirs: int, empty: int) -> int:
        """Bitboard of the empty points where one more of ``mine`` makes three in a five-point
        segment with the other two points empty and none of ``theirs`` (the moves that may
        make a three; `_vct` keeps those that threaten an open four)."""
        return self._segment_points(mine, theirs, empty, 2)

    def _segment_points(self, mine: int, theirs: int, empty: int, count: int) -> int:
        """The empty points of the five-point segments holding exactly ``count`` (2 or 3) of
        ``mine`` and none of ``theirs``. Counted for all segments at once, bit-sliced (each
        segment's count lives at its start point, in three bit planes)."""
        if _core is not None:
            return _core.segment_points(self.size, mine, theirs, empty, count)
        found = 0
        for d, starts in self._segments:
            ones = twos = fours = 0
            blocked = 0
            for k in range(WIN_LENGTH):
                x = (mine >> (k * d)) & starts
                carry = ones & x
                ones ^= x
                fours |= twos & carry
                twos ^= carry
                blocked |= theirs >> (k * d)
            hit = (ones if count == 3 else ~ones) & twos & ~fours & ~blocked & starts
            if hit:
                spread = 0
                for k in range(WIN_LENGTH):
                    spread |= hit << (k * d)
                found |= spread & empty
        return found

    def _windows(self, action: int) -> tuple[tuple[int, int], ...]:
        """The four lines through ``action``, each clipped to four points either side."""
        n = self.size
        r0, c0 = divmod(action, n)
        out = []
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            mask = 0
            for k in range(-(WIN_LENGTH - 1), WIN_LENGTH):
                r, c = r0 + k * dr, c0 + k * dc
                if 0 <= r < n and 0 <= c < n:
                    mask |= 1 << (r * n + c)
            if mask.bit_count() >= WIN_LENGTH:
                out.append((mask, dr * n + dc))
        return tuple(out)

    @property
    def variant(self) -> dict:
        out = {} if self.size == 15 else {"size": self.size}
        if self.rule != "freestyle":
            out["rule"] = self.rule
        return out

    def point_name(self, action: int) -> str:
        """``h8``-style name of an action (row numbered from the bottom)."""
        row, col = divmod(action, self.size)
        return f"{LETTERS[col]}{self.size - row}"

    def initial_state(self) -> GomokuState:
        return GomokuState(self) if self.rule == "freestyle" else RuledGomokuState(self)

    def state_from_text(self, text: str) -> GomokuState:
        return replay(self, split_move_list(text))

    def symmetries(self):
        return dihedral_symmetries(self.size, self.size, 1)

    def __reduce__(self):
        # pickles (for worker processes) refer to the registry instead of copying the object
        from . import game_from_key
        return (game_from_key, (self.key,))


def get_freestyle_key(size: int) -> str:
    """The key of free-style gomoku on ``size`` x ``size``."""
    return "gomoku" if size == 15 else f"gomoku-{size}"


GAME_CLASS = Gomoku


# --- positions set up by hand (the board editor) ----------------------------------------------
def _runs_of_five(board, sign: int) -> bool:
    """Has ``sign``'s side five or more in a row on ``board`` (+1 black, -1 white)?"""
    mine = np.asarray(board) == sign
    n = mine.shape[0]
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(n):
            for c in range(n):
                if all(0 <= r + k * dr < n and 0 <= c + k * dc < n and mine[r + k * dr, c + k * dc]
                       for k in range(WIN_LENGTH)):
                    return True
    return False


def validate_position(game: Gomoku, board, to_move: int) -> list:
    """Why the stones on ``board`` (+1 black, -1 white, row 0 at the top) with ``to_move`` to
    move cannot be played from: counts that do not fit the side to move (black moves first),
    five in a row already, a full board, stones this game's rules refuse to place in turn."""
    from .base import SetupProblem, count_problems
    flat = np.asarray(board).reshape(-1)
    blacks, whites = int((flat > 0).sum()), int((flat < 0).sum())
    problems = count_problems(blacks, whites, to_move, ("Black", "White"), "stone")
    black_five, white_five = _runs_of_five(board, 1), _runs_of_five(board, -1)
    if black_five and white_five:
        problems.append(SetupProblem("both_won", "both sides have five in a row: no game reaches this"))
    elif black_five or white_five:
        problems.append(SetupProblem("already_won", f"{'Black' if black_five else 'White'} has already won here",
                                     {"side": 0 if black_five else 1}))
    elif blacks + whites == game.cells:
        problems.append(SetupProblem("board_full", "the board is full: the game is over"))
    if not problems:
        state = position_from_setup(game, board, to_move)
        if state is None or state.is_terminal():
            problems.append(SetupProblem("unreachable", "no game reaches this: these rules do not let the stones "
                                         "be placed in turn"))
    return problems


def position_from_setup(game: Gomoku, board, to_move: int):
    """The position, reached by placing the stones alternately, black first (only the stones
    count; None when the rules refuse a placement)."""
    from .base import placement_moves
    flat = np.asarray(board).reshape(-1)
    return placement_moves(game, np.flatnonzero(flat > 0).tolist(), np.flatnonzero(flat < 0).tolist())
