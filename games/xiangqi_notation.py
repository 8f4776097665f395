"""Xiangqi notation: FEN positions, ICCS coordinates, WXF and Chinese move names.

- FEN: ``rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1``.
  Ranks from Black's back rank (rank 9) down to Red's (rank 0); uppercase is Red.
  Letters K general, A advisor, B elephant (E also read), N horse (H also read),
  R chariot, C cannon, P soldier. Side ``w`` (or ``r``) is Red, ``b`` Black. The
  optional trailing fields are ``- -``, the plies since the last capture and the
  move number.
- ICCS: ``h2e2`` = from-square + to-square, files a..i from Red's left, ranks 0..9
  from Red's side; ``h2-e2`` and upper case are read too.
- WXF: piece letter (K A E H R C P), the piece's file counted 1..9 from the mover's
  right, ``+`` forward / ``-`` backward / ``.`` sideways, then the destination file
  (sideways moves, and every horse, advisor and elephant move) or the number of
  ranks travelled. Two like pieces on one file: ``+`` (front) or ``-`` (rear) in
  place of the file (``C+.5``); three soldiers: ``P+``, the middle one by its file,
  ``P-``; four or five: ``++``, ``P+``, (``P3`` middle), ``P-``, ``--``; when two
  files each hold two or more soldiers the file digit replaces the letter
  (``3+.4``, ``33.4``, ``3-.4``). Advisors and elephants never need the markers
  (the direction tells the two apart), so they always show their file.
- Chinese: the same structure with 帅/将 仕/士 相/象 马 车 炮 兵/卒 (simplified
  characters; 进 forward, 退 backward, 平 sideways). Red counts files and steps
  with Chinese numerals 一..九, Black with full-width digits １..９. Tandem pieces:
  前/后 (and 中 for a middle soldier) before the piece name (``前炮平五``); four or
  five soldiers on a file: 一..五 from the front; two such files: the marker then the
  file with the piece name left out (``前三平四``). Traditional characters and ASCII
  digits are read too.

Functions here work on a flat board (see `games.xiangqi_moves`) and a player, so
that the state module can use them without an import cycle.
"""
from __future__ import annotations

import re

from .base import NotationError, clip_text
from .xiangqi_moves import (ADVISOR, CANNON, CHARIOT, ELEPHANT, FILES, GENERAL, HORSE, NUM_SQUARES, PIECE_NAMES,
                            SIGN, SOLDIER, attacked, general_square, square)

START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"

_FEN_LETTERS = {"k": GENERAL, "a": ADVISOR, "b": ELEPHANT, "e": ELEPHANT, "n": HORSE, "h": HORSE,
                "r": CHARIOT, "c": CANNON, "p": SOLDIER}
_FEN_OUT = {GENERAL: "k", ADVISOR: "a", ELEPHANT: "b", HORSE: "n", CHARIOT: "r", CANNON: "c", SOLDIER: "p"}
_MAX_COUNT = {GENERAL: 1, ADVISOR: 2, ELEPHANT: 2, HORSE: 2, CHARIOT: 2, CANNON: 2, SOLDIER: 5}
_SIDE_NAMES = ("Red", "Black")


def square_name(sq: int) -> str:
    """ICCS name of a square, e.g. ``h2``."""
    return "abcdefghi"[sq % FILES] + str(sq // FILES)


def piece_description(code: int) -> str:
    """``"red cannon"`` for +6 and so on."""
    return ("red " if code > 0 else "black ") + PIECE_NAMES[abs(code)]


# --- FEN ------------------------------------------------------------------
def parse_fen(text: str) -> tuple[tuple[int, ...], int, int, int]:
    """Read a FEN into (board, player to move, plies since the last capture, move number)."""
    fields = text.split()
    if not fields:
        raise NotationError("empty FEN")
    if len(fields) == 1:
        raise NotationError(f"FEN {clip_text(text)!r} has no side-to-move field (w or b)")
    if len(fields) > 6:
        raise NotationError(f"FEN has {len(fields)} fields, expected at most 6: {clip_text(text)!r}")
    board = [0] * NUM_SQUARES
    rows = fields[0].split("/")
    if len(rows) != 10:
        raise NotationError(f"FEN placement has {len(rows)} ranks, expected 10: {clip_text(fields[0])!r}")
    for i, row in enumerate(rows):
        rank = 9 - i
        f = 0
        for ch in row:
            if ch in "123456789":
                f += int(ch)
            elif ch.lower() in _FEN_LETTERS:
                if f < FILES:
                    code = _FEN_LETTERS[ch.lower()]
                    board[square(f, rank)] = code if ch.isupper() else -code
                f += 1
            else:
                raise NotationError(f"unknown piece letter {ch!r} in FEN rank {i + 1} ({clip_text(row)!r})")
        if f != FILES:
            raise NotationError(f"FEN rank {i + 1} ({clip_text(row)!r}) covers {f} files, expected 9")
    side = fields[1].lower()
    if side not in ("w", "r", "b"):
        raise NotationError(f"bad side to move {clip_text(fields[1])!r} in FEN: expected w (or r) for Red, b for Black")
    player = 1 if side == "b" else 0
    clock, fullmove = 0, 1
    if len(fields) >= 5:
        clock = _fen_number(fields[4], "plies-since-capture", 0)
    if len(fields) >= 6:
        fullmove = _fen_number(fields[5], "move number", 1)
    _check_position(board, player)
    return tuple(board), player, clock, fullmove


#: the most digits a FEN counter may have (Python refuses to read an int of more than 4,300)
_FEN_DIGITS = 9


def _fen_number(text: str, what: str, least: int) -> int:
    if not re.fullmatch(r"[0-9]+", text, re.ASCII):
        raise NotationError(f"bad {what} field {text[:20]!r} in FEN: expected an integer >= {least}")
    if len(text.lstrip("0")) > _FEN_DIGITS:
        raise NotationError(f"bad {what} field in FEN: {len(text)} digits, at most {_FEN_DIGITS}")
    if int(text) < least:
        raise NotationError(f"bad {what} field {text!r} in FEN: expected an integer >= {least}")
    return int(text)


def _check_position(board: list[int], player: int) -> None:
    # Reject positions that cannot arise, so the rules never meet a general outside its palace.
    for pl in (0, 1):
        s = SIGN[pl]
        counts = {k: 0 for k in _MAX_COUNT}
        for p in board:
            if p * s > 0:
                counts[p * s] += 1
        for k, n in counts.items():
            if n > _MAX_COUNT[k]:
                raise NotationError(f"FEN has {n} {_SIDE_NAMES[pl].lower()} {PIECE_NAMES[k]}s, "
                                    f"at most {_MAX_COUNT[k]} allowed")
        if counts[GENERAL] == 0:
            raise NotationError(f"FEN has no {_SIDE_NAMES[pl].lower()} general")
    for sq, p in enumerate(board):
        if p and not _reachable(abs(p), 0 if p > 0 else 1, sq % FILES, sq // FILES):
            raise NotationError(f"a {piece_description(p)} cannot stand on {square_name(sq)}")
    other = 1 - player
    if attacked(board, general_square(board, other), SIGN[other]):
        raise NotationError(f"the side not to move ({_SIDE_NAMES[other]}) is in check "
                            "or its general faces the other one")


def _reachable(k: int, player: int, f: int, r: int) -> bool:
    own = r if player == 0 else 9 - r  # rank counted from the owner's side
    if k == GENERAL:
        return 3 <= f <= 5 and own <= 2
    if k == ADVISOR:
        return (f, own) in ((3, 0), (5, 0), (4, 1), (3, 2), (5, 2))
    if k == ELEPHANT:
        return (f, own) in ((2, 0), (6, 0), (0, 2), (4, 2), (8, 2), (2, 4), (6, 4))
    if k == SOLDIER:
        return own >= 5 or (own in (3, 4) and f % 2 == 0)
    return True


def board_to_fen(board, player: int, clock: int = 0, fullmove: int = 1) -> str:
    """FEN of a board with ``w``/``b`` side to move."""
    rows = []
    for rank in range(9, -1, -1):
        row, empty = "", 0
        for f in range(FILES):
            p = board[square(f, rank)]
            if not p:
                empty += 1
                continue
            if empty:
                row += str(empty)
                empty = 0
            letter = _FEN_OUT[abs(p)]
            row += letter.upper() if p > 0 else letter
        rows.append(row + (str(empty) if empty else ""))
    return f"{'/'.join(rows)} {'wb'[player]} - - {clock} {fullmove}"


# --- ICCS -----------------------------------------------------------------
_ICCS = re.compile(r"^([a-i])([0-9])-?([a-i])([0-9])$")
_ICCS_LOOSE = re.compile(r"^([a-z])([0-9]+)-?([a-z])([0-9]+)$")


def move_to_iccs(f: int, t: int) -> str:
    return square_name(f) + square_name(t)


def parse_iccs(text: str) -> tuple[int, int] | None:
    """(from, to) squares of an ICCS move; None when the text is not ICCS-shaped at all."""
    t = text.strip().lower()
    m = _ICCS.match(t)
    if m:
        return (square("abcdefghi".index(m[1]), int(m[2])), square("abcdefghi".index(m[3]), int(m[4])))
    m = _ICCS_LOOSE.match(t)
    if m:
        # a file outside a-i, or a rank of more than one digit ("06" too: ranks are single digits)
        for file_group in (1, 3):
            name = m[file_group] + m[file_group + 1]
            if m[file_group] not in "abcdefghi" or len(m[file_group + 1]) != 1:
                raise NotationError(f"square {clip_text(name, 12)!r} at character {m.start(file_group) + 1} of "
                                    f"move {clip_text(text.strip())!r} is off the board (files a-i, ranks 0-9, "
                                    "one digit each)")
    return None


# --- WXF and Chinese ----------------------------------------------------------
_WXF_LETTERS = {GENERAL: "K", ADVISOR: "A", ELEPHANT: "E", HORSE: "H", CHARIOT: "R", CANNON: "C", SOLDIER: "P"}
_ZH_NAMES = ({GENERAL: "帅", ADVISOR: "仕", ELEPHANT: "相", HORSE: "马", CHARIOT: "车", CANNON: "炮", SOLDIER: "兵"},
             {GENERAL: "将", ADVISOR: "士", ELEPHANT: "象", HORSE: "马", CHARIOT: "车", CANNON: "炮", SOLDIER: "卒"})
_ZH_NUMERALS = "一二三四五六七八九"
_FULLWIDTH = "１２３４５６７８９"
_ZH_DIRECTIONS = {"+": "进", "-": "退", ".": "平"}


def _file_number(player: int, sq: int) -> int:
    """File counted 1..9 from the player's right."""
    f = sq % FILES
    return 9 - f if player == 0 else f + 1


def _ahead(player: int, sq: int) -> int:
    """Rank counted from the player's own side (larger = further forward)."""
    return sq // FILES if player == 0 else 9 - sq // FILES


def _move_parts(board, player: int, f: int, t: int):
    """Common structure of WXF and Chinese names: (kind, file, order, count, multi, direction, target)."""
    p = board[f]
    k = abs(p)
    file_no = _file_number(player, f)
    order, count, multi = 0, 1, False
    if k not in (ADVISOR, ELEPHANT):
        same = [sq for sq in range(f % FILES, NUM_SQUARES, FILES) if board[sq] == p]
        if len(same) > 1:
            same.sort(key=lambda sq: -_ahead(player, sq))
            order, count = same.index(f), len(same)
            if k == SOLDIER:
                per_file = [sum(board[sq] == p for sq in range(file, NUM_SQUARES, FILES)) for file in range(FILES)]
                multi = sum(n > 1 for n in per_file) > 1
    dr = _ahead(player, t) - _ahead(player, f)
    direction = "+" if dr > 0 else "-" if dr < 0 else "."
    if direction == "." or k in (HORSE, ADVISOR, ELEPHANT):
        target = _file_number(player, t)
    else:
        target = abs(dr)
    return k, file_no, order, count, multi, direction, target


def _tandem_marks(order: int, count: int) -> str:
    """Front-to-rear marks: '+', '-', or '' for a middle piece named by its file; '++'/'--' for 4-5."""
    if count == 2:
        return "+-"[order]
    if count == 3:
        return ("+", "", "-")[order]
    if count == 4:
        return ("++", "+", "-", "--")[order]
    return ("++", "+", "", "-", "--")[order]


def move_to_wxf(board, player: int, f: int, t: int) -> str:
    k, file_no, order, count, multi, direction, target = _move_parts(board, player, f, t)
    letter = _WXF_LETTERS[k]
    if count == 1:
        head = f"{letter}{file_no}"
    elif multi:
        mark = _tandem_marks(order, count)
        head = f"{file_no}{mark or file_no}"
    else:
        mark = _tandem_marks(order, count)
        if mark in ("++", "--"):
            head = mark
        else:
            head = f"{letter}{mark or file_no}"
    return f"{head}{direction}{target}"


def move_to_chinese(board, player: int, f: int, t: int) -> str:
    k, file_no, order, count, multi, direction, target = _move_parts(board, player, f, t)
    name = _ZH_NAMES[player][k]
    digits = _ZH_NUMERALS if player == 0 else _FULLWIDTH
    if count == 1:
        head = name + digits[file_no - 1]
    elif count <= 3:
        mark = ("前后" if count == 2 else "前中后")[order]
        head = mark + (digits[file_no - 1] if multi else name)
    else:
        head = _ZH_NUMERALS[order] + name
    return head + _ZH_DIRECTIONS[direction] + digits[target - 1]


# Reading WXF and Chinese: both are normalised to one spelling and matched against the
# names of the legal moves, so the reader can never disagree with the writer.
_ZH_CANON = str.maketrans({"帥": "帅", "將": "帅", "馬": "马", "傌": "马", "車": "车", "俥": "车", "伡": "车",
                           "砲": "炮", "包": "炮", "後": "后", "進": "进", "士": "仕", "象": "相",
                           "将": "帅", "卒": "兵", "=": "."})
_DIGIT_CANON = {c: str(i + 1) for i, c in enumerate(_ZH_NUMERALS)}
_DIGIT_CANON.update({c: str(i + 1) for i, c in enumerate(_FULLWIDTH)})
_WXF_CANON = {"B": "E", "N": "H", "=": "."}


def canonical_move_name(text: str) -> str:
    """One spelling for a WXF or Chinese move name (case, variant characters, digit styles)."""
    t = "".join(text.split())
    t = t.translate(_ZH_CANON)
    t = "".join(_DIGIT_CANON.get(c, c) for c in t).upper()
    t = "".join(_WXF_CANON.get(c, c) for c in t)
    if re.fullmatch(r"[A-Z1-9][1-9+\-][1-9]", t):  # traversal written without the dot: C25
        t = t[:2] + "." + t[2]
    return t


def looks_like_move_name(text: str) -> bool:
    """Does text have the shape of a WXF or Chinese move name (so an unmatched one is 'illegal', not 'malformed')?"""
    t = canonical_move_name(text)
    return bool(re.fullmatch(r"[KAEHRCP1-9+\-]{1,2}[1-9+\-]?[+\-.][1-9]", t)
                or re.fullmatch(r"[帅仕相马车炮兵前中后1-9]{2}[进退平][1-9]", t))
