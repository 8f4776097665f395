"""Xiangqi move generation on a flat 90-square board: tables, attacks, legal moves, perft.

Squares are ``rank * 9 + file`` in absolute ICCS coordinates: files 0..8 are a..i
from Red's left, ranks 0..9 count from Red's back rank. A board is a sequence of 90
ints: 0 empty, +k a Red piece, -k a Black piece (k from the piece codes below).
Sides are written as the player (0 Red, 1 Black) or as the sign ``s`` (+1, -1).

Everything here works on plain lists and precomputed tables so that the hot loops
(legal moves, perft) stay inside the Python bytecode fast paths; the `State` class in
`games.xiangqi` wraps it in the immutable state API.
"""
from __future__ import annotations

#: piece codes (a Red piece is +code, a Black piece -code)
GENERAL, ADVISOR, ELEPHANT, HORSE, CHARIOT, CANNON, SOLDIER = 1, 2, 3, 4, 5, 6, 7
PIECE_NAMES = {GENERAL: "general", ADVISOR: "advisor", ELEPHANT: "elephant", HORSE: "horse",
               CHARIOT: "chariot", CANNON: "cannon", SOLDIER: "soldier"}
FILES, RANKS = 9, 10
NUM_SQUARES = FILES * RANKS

SIGN = (1, -1)  # player -> sign of its pieces


def square(file: int, rank: int) -> int:
    """The square index of ICCS coordinates (file 0..8 = a..i, rank 0..9)."""
    return rank * FILES + file


def _on_board(file: int, rank: int) -> bool:
    return 0 <= file < FILES and 0 <= rank < RANKS


def _in_palace(player: int, file: int, rank: int) -> bool:
    return 3 <= file <= 5 and (rank <= 2 if player == 0 else rank >= 7)


def _own_half(player: int, rank: int) -> bool:
    return rank <= 4 if player == 0 else rank >= 5


# --- move tables ------------------------------------------------------------
# Orthogonal rays from each square, in absolute directions (rank+1, file+1, rank-1, file-1).
ORTHO = ((1, 0), (0, 1), (-1, 0), (0, -1))  # (drank, dfile)
HORSE_JUMPS = ((2, -1), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2))
DIAGONALS = ((1, -1), (1, 1), (-1, 1), (-1, -1))


def _ray(s: int, dr: int, df: int) -> tuple[int, ...]:
    f, r = s % FILES + df, s // FILES + dr
    out = []
    while _on_board(f, r):
        out.append(square(f, r))
        f, r = f + df, r + dr
    return tuple(out)


#: RAYS_V[s] / RAYS_H[s]: the vertical / horizontal rays from s, nearest square first
RAYS_V = tuple((_ray(s, 1, 0), _ray(s, -1, 0)) for s in range(NUM_SQUARES))
RAYS_H = tuple((_ray(s, 0, 1), _ray(s, 0, -1)) for s in range(NUM_SQUARES))
RAYS = tuple(RAYS_V[s] + RAYS_H[s] for s in range(NUM_SQUARES))


def _horse_moves(s: int) -> tuple[tuple[int, int], ...]:
    f, r = s % FILES, s // FILES
    out = []
    for dr, df in HORSE_JUMPS:
        if _on_board(f + df, r + dr):
            # the leg is the orthogonal step along the long side of the jump
            leg = square(f, r + dr // 2) if abs(dr) == 2 else square(f + df // 2, r)
            out.append((leg, square(f + df, r + dr)))
    return tuple(out)


#: HORSE_MOVES[s]: (leg, destination) pairs of a horse on s
HORSE_MOVES = tuple(_horse_moves(s) for s in range(NUM_SQUARES))


def _step_table(player: int, deltas, allowed) -> tuple[tuple[int, ...], ...]:
    table = []
    for s in range(NUM_SQUARES):
        f, r = s % FILES, s // FILES
        table.append(tuple(square(f + df, r + dr) for dr, df in deltas
                           if _on_board(f + df, r + dr) and allowed(player, f + df, r + dr)))
    return tuple(table)


def _elephant_table(player: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    table = []
    for s in range(NUM_SQUARES):
        f, r = s % FILES, s // FILES
        table.append(tuple((square(f + df, r + dr), square(f + 2 * df, r + 2 * dr)) for dr, df in DIAGONALS
                           if _on_board(f + 2 * df, r + 2 * dr) and _own_half(player, r + 2 * dr)))
    return tuple(table)


def _soldier_table(player: int) -> tuple[tuple[int, ...], ...]:
    forward = 1 if player == 0 else -1
    table = []
    for s in range(NUM_SQUARES):
        f, r = s % FILES, s // FILES
        steps = [(forward, 0)] + ([] if _own_half(player, r) else [(0, -1), (0, 1)])
        table.append(tuple(square(f + df, r + dr) for dr, df in steps if _on_board(f + df, r + dr)))
    return tuple(table)


#: per player: GENERAL_MOVES[p][s], ADVISOR_MOVES[p][s], SOLDIER_MOVES[p][s] destinations;
#: ELEPHANT_MOVES[p][s] (eye, destination) pairs
GENERAL_MOVES = tuple(_step_table(p, ORTHO, _in_palace) for p in (0, 1))
ADVISOR_MOVES = tuple(_step_table(p, DIAGONALS, _in_palace) for p in (0, 1))
ELEPHANT_MOVES = tuple(_elephant_table(p) for p in (0, 1))
SOLDIER_MOVES = tuple(_soldier_table(p) for p in (0, 1))


def _invert_horses() -> tuple[tuple[tuple[int, int], ...], ...]:
    att: list[list[tuple[int, int]]] = [[] for _ in range(NUM_SQUARES)]
    for src in range(NUM_SQUARES):
        for leg, dst in HORSE_MOVES[src]:
            att[dst].append((leg, src))
    return tuple(tuple(a) for a in att)


def _invert_soldiers(player: int) -> tuple[tuple[int, ...], ...]:
    att: list[list[int]] = [[] for _ in range(NUM_SQUARES)]
    for src in range(NUM_SQUARES):
        for dst in SOLDIER_MOVES[player][src]:
            att[dst].append(src)
    return tuple(tuple(a) for a in att)


#: HORSE_ATTACKS[s]: (leg, source) pairs of horses that would attack s
HORSE_ATTACKS = _invert_horses()
#: SOLDIER_ATTACKS[p][s]: squares from which a soldier of the player *opposing* p attacks s
SOLDIER_ATTACKS = (_invert_soldiers(1), _invert_soldiers(0))


def _relevance(g: int) -> bytes:
    # squares whose change can expose a general on g: its rank, its file (chariots,
    # cannons and the facing generals) and its diagonal neighbours (horse legs)
    f, r = g % FILES, g // FILES
    rel = bytearray(NUM_SQUARES)
    for s in range(NUM_SQUARES):
        sf, sr = s % FILES, s // FILES
        if sf == f or sr == r or (abs(sf - f) == 1 and abs(sr - r) == 1):
            rel[s] = 1
    return bytes(rel)


RELEVANT = tuple(_relevance(g) for g in range(NUM_SQUARES))
#: HORSE_CHECKS[g][s]: 1 where a horse standing on s would attack a general on g (leg aside)
HORSE_CHECKS = tuple(bytes(1 if any(src == s for _, src in HORSE_ATTACKS[g]) else 0 for s in range(NUM_SQUARES))
                     for g in range(NUM_SQUARES))


def may_give_check(b, f: int, t: int, g: int) -> bool:
    """Could moving the piece on ``f`` to ``t`` attack the general on ``g``? False only where it
    cannot: every check starts on the general's file or rank (a chariot, cannon, soldier or the
    facing general, the cannon's screen included), from a horse-leg point diagonally next to it
    (a discovered horse) or from a horse's own jump, so a move touching none of those points
    leaves the general as attacked as it was. `games.xiangqi.XiangqiState.proven_value` tries
    only the moves this lets through."""
    rel = RELEVANT[g]
    return bool(rel[f] or rel[t] or (HORSE_CHECKS[g][t] and (b[f] == HORSE or b[f] == -HORSE)))


# --- attacks and moves ------------------------------------------------------
def attacked(b, g: int, s: int) -> bool:
    """Is the general of sign ``s`` standing on ``g`` attacked (or facing the other general)?"""
    chariot, cannon, general = -CHARIOT * s, -CANNON * s, -GENERAL * s
    for ray in RAYS_V[g]:
        it = iter(ray)
        for t in it:
            q = b[t]
            if q:
                if q == chariot or q == general:
                    return True
                for t2 in it:  # beyond the screen: only a cannon can strike
                    q2 = b[t2]
                    if q2:
                        if q2 == cannon:
                            return True
                        break
                break
    for ray in RAYS_H[g]:
        it = iter(ray)
        for t in it:
            q = b[t]
            if q:
                if q == chariot:
                    return True
                for t2 in it:
                    q2 = b[t2]
                    if q2:
                        if q2 == cannon:
                            return True
                        break
                break
    horse = -HORSE * s
    for leg, src in HORSE_ATTACKS[g]:
        if b[src] == horse and not b[leg]:
            return True
    soldier = -SOLDIER * s
    for src in SOLDIER_ATTACKS[0 if s > 0 else 1][g]:
        if b[src] == soldier:
            return True
    return False


def pseudo_moves(b, player: int) -> tuple[list[tuple[int, int]], int]:
    """Moves that obey the pieces' movement rules, ignoring checks, and the mover's general square (-1 if none)."""
    s = SIGN[player]
    out: list[tuple[int, int]] = []
    app = out.append
    g = -1
    for f in range(NUM_SQUARES):
        p = b[f]
        if not p:
            continue
        k = p * s
        if k <= 0:
            continue
        if k == CHARIOT:
            for ray in RAYS[f]:
                for t in ray:
                    q = b[t]
                    if not q:
                        app((f, t))
                    else:
                        if q * s < 0:
                            app((f, t))
                        break
        elif k == CANNON:
            for ray in RAYS[f]:
                it = iter(ray)
                for t in it:
                    if not b[t]:
                        app((f, t))
                    else:
                        for t2 in it:
                            q = b[t2]
                            if q:
                                if q * s < 0:
                                    app((f, t2))
                                break
                        break
        elif k == HORSE:
            for leg, t in HORSE_MOVES[f]:
                if not b[leg] and b[t] * s <= 0:
                    app((f, t))
        elif k == SOLDIER:
            for t in SOLDIER_MOVES[player][f]:
                if b[t] * s <= 0:
                    app((f, t))
        elif k == ELEPHANT:
            for eye, t in ELEPHANT_MOVES[player][f]:
                if not b[eye] and b[t] * s <= 0:
                    app((f, t))
        elif k == ADVISOR:
            for t in ADVISOR_MOVES[player][f]:
                if b[t] * s <= 0:
                    app((f, t))
        else:
            g = f
            for t in GENERAL_MOVES[player][f]:
                if b[t] * s <= 0:
                    app((f, t))
    return out, g


def legal_moves(b: list, player: int) -> list[tuple[int, int]]:
    """The legal (from, to) moves of ``player`` on board list ``b`` (restored before returning)."""
    pseudo, g = pseudo_moves(b, player)
    if g < 0:
        return []
    s = SIGN[player]
    in_check = attacked(b, g, s)
    rel = RELEVANT[g]
    out = []
    for mv in pseudo:
        f, t = mv
        # without check, only a move touching the general's lines or horse legs can expose it
        if not in_check and f != g and not rel[f] and not rel[t]:
            out.append(mv)
            continue
        q = b[t]
        b[t] = b[f]
        b[f] = 0
        if not attacked(b, t if f == g else g, s):
            out.append(mv)
        b[f] = b[t]
        b[t] = q
    return out


def has_legal_move(b: list, player: int) -> bool:
    """``count_legal(b, player) > 0``, stopping at the first legal move, the general's own steps
    tried first (``b`` is restored)."""
    s = SIGN[player]
    general = GENERAL * s
    try:
        g = b.index(general)
    except ValueError:
        return False
    for t in GENERAL_MOVES[player][g]:
        q = b[t]
        if q * s > 0:
            continue
        b[t] = general
        b[g] = 0
        safe = not attacked(b, t, s)
        b[g] = general
        b[t] = q
        if safe:
            return True
    return next(_safe_moves(b, player), None) is not None


def count_legal(b: list, player: int) -> int:
    """``len(legal_moves(b, player))`` without building the list (perft's last ply)."""
    return sum(1 for _ in _safe_moves(b, player))


def _safe_moves(b: list, player: int):
    """``player``'s legal (from, to) moves one at a time (``b`` is restored between them), for
    counting them or finding one; `legal_moves` builds its list in its own loop, the hot path."""
    pseudo, g = pseudo_moves(b, player)
    if g < 0:
        return
    s = SIGN[player]
    in_check = attacked(b, g, s)
    rel = RELEVANT[g]
    for mv in pseudo:
        f, t = mv
        if not in_check and f != g and not rel[f] and not rel[t]:
            yield mv
            continue
        q = b[t]
        b[t] = b[f]
        b[f] = 0
        safe = not attacked(b, t if f == g else g, s)
        b[f] = b[t]
        b[t] = q
        if safe:
            yield mv


def general_square(b, player: int) -> int:
    """Where ``player``'s general stands (-1 when it is missing)."""
    try:
        return b.index(GENERAL * SIGN[player])
    except ValueError:
        return -1


def in_check(b, player: int) -> bool:
    """Is ``player``'s general attacked (or facing the other general)?"""
    g = general_square(b, player)
    return g >= 0 and attacked(b, g, SIGN[player])


def perft_counts(board, player: int, depth: int) -> list[int]:
    """Positions reached at plies 1..depth by pure move generation (no repetition or draw rules)."""
    counts = [0] * depth
    if depth <= 0:
        return counts
    b = list(board)

    def walk(player: int, ply: int) -> None:
        if ply == depth - 1:
            counts[ply] += count_legal(b, player)
            return
        moves = legal_moves(b, player)
        counts[ply] += len(moves)
        other = 1 - player
        for f, t in moves:
            q = b[t]
            b[t] = b[f]
            b[f] = 0
            walk(other, ply + 1)
            b[f] = b[t]
            b[t] = q

    walk(player, 0)
    return counts


# --- captures and their exchanges (the search's tactical safety) -------------------------
#: piece values in tenths of a soldier, by code; the general's is what capturing it ends
CAPTURE_VALUES = (0, 10000, 20, 20, 40, 90, 45, 10)


def pseudo_captures(b, player: int) -> list[tuple[int, int, int]]:
    """``player``'s captures by the movement rules (checks ignored) as (gain, from, to),
    the most valuable victim first and, among equal victims, the cheapest attacker."""
    s = SIGN[player]
    out: list[tuple[int, int, int]] = []
    for f in range(NUM_SQUARES):
        p = b[f]
        k = p * s
        if k <= 0:
            continue
        if k == CHARIOT:
            for ray in RAYS[f]:
                for t in ray:
                    q = b[t]
                    if q:
                        if q * s < 0:
                            out.append((CAPTURE_VALUES[-q * s] * 100 - k, f, t))
                        break
        elif k == CANNON:
            for ray in RAYS[f]:
                screen = False
                for t in ray:
                    q = b[t]
                    if not q:
                        continue
                    if not screen:
                        screen = True
                        continue
                    if q * s < 0:
                        out.append((CAPTURE_VALUES[-q * s] * 100 - k, f, t))
                    break
        elif k == HORSE:
            for leg, t in HORSE_MOVES[f]:
                if not b[leg] and b[t] * s < 0:
                    out.append((CAPTURE_VALUES[-b[t] * s] * 100 - k, f, t))
        else:
            table = (SOLDIER_MOVES[player][f] if k == SOLDIER else ADVISOR_MOVES[player][f] if k == ADVISOR
                     else GENERAL_MOVES[player][f] if k == GENERAL else None)
            if table is not None:
                for t in table:
                    if b[t] * s < 0:
                        out.append((CAPTURE_VALUES[-b[t] * s] * 100 - k, f, t))
            if k == GENERAL:   # generals may not face each other: the first piece up the file
                for ray in RAYS_V[f]:
                    for t in ray:
                        if b[t]:
                            if b[t] == -GENERAL * s:
                                out.append((CAPTURE_VALUES[GENERAL] * 100, f, t))
                            break
            elif k == ELEPHANT:
                for eye, t in ELEPHANT_MOVES[player][f]:
                    if not b[eye] and b[t] * s < 0:
                        out.append((CAPTURE_VALUES[-b[t] * s] * 100 - k, f, t))
    out.sort(reverse=True)
    return out


def capture_gain(b: list, player: int, depth: int = 6, budget: int = 200) -> tuple[int, tuple[int, int] | None]:
    """(what ``player`` (to move) wins by captures alone, in tenths of a soldier (>= 0), and the
    (from, to) capture that starts it, None when standing pat is best): a quiescence search over
    captures with stand-pat, at most ``depth`` plies and ``budget`` nodes. ``b`` is restored
    before returning. The general is worth so much that a capture leaving one's own general
    attacked is never good, so legality needs no separate check."""
    nodes = [0]
    first: list = [None]

    def search(side: int, alpha: int, beta: int, ply: int) -> int:
        # the best material gain for ``side`` from here, given it may stop (stand pat) at 0
        if alpha < 0:
            alpha = 0
        if alpha >= beta or ply >= depth:
            return alpha
        s = SIGN[side]
        for _, f, t in pseudo_captures(b, side):
            q = b[t]
            gain = CAPTURE_VALUES[-q * s]
            if gain <= alpha:   # the reply can only take back: no capture from here beats alpha
                break           # (they come most valuable victim first)
            nodes[0] += 1
            if nodes[0] > budget:
                break
            if gain >= 10000:
                if ply == 0:
                    first[0] = (f, t)
                return gain   # the general is taken: the position before was already lost
            b[t] = b[f]
            b[f] = 0
            value = gain - search(1 - side, -beta + gain, -alpha + gain, ply + 1)
            b[f] = b[t]
            b[t] = q
            if value > alpha:
                alpha = value
                if ply == 0:
                    first[0] = (f, t)
                if alpha >= beta:
                    break
        return alpha

    gain = search(player, 0, 1 << 30, 0)
    return gain, (first[0] if gain > 0 else None)


# --- attack maps (network input features) ------------------------------------------------
def attack_map(b) -> tuple[list[list[int]], list[list[int]]]:
    """(counts, cheapest): for each player (0 Red, 1 Black) and square, how many of that
    player's pieces attack it, and the `CAPTURE_VALUES` of the cheapest of them (0 where none).

    A piece attacks the squares it could capture on by the movement rules (checks and pins
    ignored), whoever stands there: a chariot along each ray up to and including the first
    piece, a cannon the squares past exactly one screen up to and including the next piece,
    a horse or elephant the points its unblocked leg or eye allows, the general and advisors
    inside their palace, a soldier forward (and sideways across the river). So a square held
    by a player's own piece and attacked by that player is defended."""
    counts = [[0] * NUM_SQUARES, [0] * NUM_SQUARES]
    cheapest = [[0] * NUM_SQUARES, [0] * NUM_SQUARES]
    for f in range(NUM_SQUARES):
        p = b[f]
        if not p:
            continue
        player = 0 if p > 0 else 1
        k = p if p > 0 else -p
        value = CAPTURE_VALUES[k]
        cnt, low = counts[player], cheapest[player]
        if k == CHARIOT:
            hits = []
            for ray in RAYS[f]:
                for t in ray:
                    hits.append(t)
                    if b[t]:
                        break
        elif k == CANNON:
            hits = []
            for ray in RAYS[f]:
                screen = False
                for t in ray:
                    if screen:
                        hits.append(t)
                        if b[t]:
                            break
                    elif b[t]:
                        screen = True
        elif k == HORSE:
            hits = [t for leg, t in HORSE_MOVES[f] if not b[leg]]
        elif k == ELEPHANT:
            hits = [t for eye, t in ELEPHANT_MOVES[player][f] if not b[eye]]
        elif k == SOLDIER:
            hits = SOLDIER_MOVES[player][f]
        elif k == ADVISOR:
            hits = ADVISOR_MOVES[player][f]
        else:
            hits = GENERAL_MOVES[player][f]
        for t in hits:
            cnt[t] += 1
            if not low[t] or value < low[t]:
                low[t] = value
    return counts, cheapest


def en_prise(b, counts, cheapest, player: int) -> list[int]:
    """1 on each square holding a piece of ``player`` that the other side can win: attacked
    and either not defended or attacked by a cheaper piece (0 elsewhere)."""
    s = SIGN[player]
    other = 1 - player
    mine, theirs, low = counts[player], counts[other], cheapest[other]
    out = [0] * NUM_SQUARES
    for t in range(NUM_SQUARES):
        q = b[t] * s
        if q > 0 and theirs[t] and (not mine[t] or low[t] < CAPTURE_VALUES[q]):
            out[t] = 1
    return out
