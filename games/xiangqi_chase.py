"""Xiangqi's chase rule (the Asian / WXF rules for repetitions): which side chased a piece with
every one of its moves through a repetition cycle.

A move *chases* an opponent's piece when, after it, one of the mover's pieces can legally capture
that piece, could not capture it before the move (a new attack: the moved piece's own, or one it
uncovers), and the capture wins something: the piece is unprotected (no legal recapture on its
square), or the attacker is worth less than it (a horse or cannon on a chariot, an advisor or
elephant on a horse, cannon or chariot). Not chases: attacks by a general or a soldier (both may
chase for ever, WXF rules 28 and 29), attacks on the general (that is check) and on a soldier that
has not crossed the river, and an attack on a piece of the same kind that can capture the attacker
back (WXF rule 24: an offered exchange or sacrifice, not a chase).

A side *chases perpetually* when one and the same opponent piece is chased by every move it makes
in the cycle (the piece followed as it moves); chasing two pieces in turn is allowed (WXF rule 32).
`games.xiangqi` decides with it: perpetual check loses (against a perpetual chase too), a perpetual
chase against a side that does not chase perpetually loses, anything else is a draw. It runs only
when a position occurs for the third time, so an ordinary move costs nothing more.
"""
from __future__ import annotations

from typing import Callable, Sequence

from .xiangqi_moves import (ADVISOR, CANNON, CHARIOT, ELEPHANT, FILES, GENERAL, HORSE, SIGN, SOLDIER,
                            pseudo_moves)

#: moves_of(board, player) -> the legal (from, to) moves of ``player`` on ``board`` (90 codes)
MoveGenerator = Callable[[Sequence[int], int], list]

#: what the chase rule weighs a piece at: a horse and a cannon are equal, so neither chases the other
#: when it is protected; a crossed soldier counts like an advisor or elephant
CHASE_VALUE = {ADVISOR: 2, ELEPHANT: 2, SOLDIER: 2, HORSE: 4, CANNON: 4, CHARIOT: 9}


def _crossed(square: int, player: int) -> bool:
    """Is ``player``'s soldier on ``square`` across the river?"""
    rank = square // FILES
    return rank >= 5 if player == 0 else rank <= 4


def _protected(board: Sequence[int], attacker: int, target: int, defender: int, moves_of: MoveGenerator) -> bool:
    """Could ``defender`` legally recapture on ``target`` after the piece on ``attacker`` took there?"""
    b = list(board)
    b[target], b[attacker] = b[attacker], 0
    return any(t == target for _, t in moves_of(b, defender))


def chased_squares(before: Sequence[int], after: Sequence[int], mover: int, move: tuple[int, int],
                   moves_of: MoveGenerator) -> set[int]:
    """The squares (on ``after``) of the opponent's pieces that ``mover``'s quiet ``move`` from
    ``before`` to ``after`` chases (see the module's docstring)."""
    f, t = move
    s = SIGN[mover]
    defender = 1 - mover
    captures = [(a, x) for a, x in moves_of(after, mover) if after[x] * s < 0]
    if not captures:
        return set()
    # the captures ``mover``'s pieces could make before, by the movement rules alone (a side in
    # check before its move still attacked what it could not take then), each piece known by the
    # square it stands on after the move
    old = {(t if a == f else a, x) for a, x in pseudo_moves(list(before), mover)[0] if before[x] * s < 0}
    replies = None
    out = set()
    for a, x in captures:
        if (a, x) in old or x in out:
            continue
        kind, victim = abs(after[a]), abs(after[x])
        if kind in (GENERAL, SOLDIER) or victim == GENERAL:
            continue
        if victim == SOLDIER and not _crossed(x, defender):
            continue
        if kind == victim:
            if replies is None:
                replies = set(moves_of(after, defender))
            if (x, a) in replies:   # it can take the attacker back: an exchange offered, no chase
                continue
        if CHASE_VALUE[kind] < CHASE_VALUE[victim] or not _protected(after, a, x, defender, moves_of):
            out.add(x)
    return out


def perpetual_chasers(board: Sequence[int], moves: Sequence[tuple[int, int]], first_mover: int,
                      moves_of: MoveGenerator) -> tuple[bool, bool]:
    """(Red, Black): did the side chase one and the same opponent piece with every move it made in
    ``moves``, the quiet (from, to) moves that led to ``board``, the first made by ``first_mover``?
    A side without a move in ``moves`` did not chase."""
    boards = [tuple(board)]
    b = list(board)
    for f, t in reversed(moves):
        b[f], b[t] = b[t], 0
        boards.append(tuple(b))
    boards.reverse()   # boards[i]: the position before moves[i]; boards[-1] is ``board``
    label = {sq: sq for sq, code in enumerate(boards[0]) if code}   # a piece is known by its first square
    chased: list[set[int] | None] = [None, None]                    # per side: pieces chased by every move
    for i, move in enumerate(moves):
        mover = (first_mover + i) % 2
        if chased[mover] != set():   # once empty it stays empty: no need to look further
            now = {label[x] for x in chased_squares(boards[i], boards[i + 1], mover, move, moves_of)}
            chased[mover] = now if chased[mover] is None else chased[mover] & now
        f, t = move
        label[t] = label.pop(f)
    return bool(chased[0]), bool(chased[1])
