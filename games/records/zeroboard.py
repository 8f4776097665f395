"""The app's own text records (``.txt``): a few ``# key: value`` header lines, then the
game in its own notation (see `games.records.moves`)::

    # ZeroBoard game record
    # game: connect4
    # variant: {}
    # date: 2026-11-21 14:03:55
    # you: first
    # level: strong
    # moves: 4
    # result: unfinished
    4435

A game from a position set up by hand says how many of its first plies only place the
setup's stones (``# setup: 3``: the game's history starts after them; games whose setup is a
start position of their own, xiangqi's FEN and othello's ``setup`` text, need no such header).
A game analysed by the app keeps it in ``# analysis:`` and ``# analysis_level:`` (see
`games.records.base.unpack_analysis`).
A game with variations or comments keeps them in ``# tree:``: the whole game from its start
as move text with variations in parentheses and comments in braces (``b2 a1 (c3 {why}) c1``,
see `games.records.tree`); its main line must be the record's moves.

Every header is optional except ``game``; headers that cannot be read are reported with
their line, never passed on.
"""
from __future__ import annotations

import json
import re

from . import moves
from .base import Record, RecordFormatError
from .tree import GameTree, join_rav, read_rav, start_of, write_rav

HEADER = "# ZeroBoard game record"
_KEY_RE = re.compile(r"[a-z_][a-z0-9_ -]{0,40}", re.ASCII)
_MAX_HEADER_VALUE = 2000
#: the analysis header holds every position's (about 60 characters each)
_MAX_ANALYSIS = 200_000


def sniff(text: str) -> bool:
    for line in text.splitlines()[:40]:
        s = line.strip()
        if not s:
            continue
        if not s.startswith("#"):
            return False
        key = s[1:].partition(":")[0].strip().lower()
        if s == HEADER or (key == "game" and ":" in s):
            return True
    return False


def _parse(text: str) -> tuple[dict, str, int]:
    meta: dict[str, str] = {}
    body, first = [], 0
    for number, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if s.startswith("#"):
            key, sep, value = s[1:].partition(":")
            key = key.strip().lower()
            if sep and _KEY_RE.fullmatch(key) and key not in meta:
                meta[key] = value.strip()[:_MAX_ANALYSIS if key in ("analysis", "tree", "clocks") else _MAX_HEADER_VALUE]
        elif s:
            body.append(s)
            first = first or number
    return meta, "\n".join(body), first or len(text.splitlines()) + 1


def _game(meta: dict, text: str):
    from .. import GAME_IDS, get_game
    game_id = meta.get("game", "")
    line = _header_line(text, "game")
    if game_id not in GAME_IDS:
        raise RecordFormatError(f"unknown game {game_id[:40]!r}" if game_id else "no '# game:' header", line)
    raw = meta.get("variant", "") or "{}"
    vline = _header_line(text, "variant")
    try:
        variant = json.loads(raw)
    except (ValueError, RecursionError):
        raise RecordFormatError(f"bad variant {raw[:60]!r}: expected JSON like {{\"size\": 9}}", vline) from None
    if not isinstance(variant, dict) or not all(
            isinstance(k, str) and ((type(v) is int and abs(v) < 10_000) or (type(v) is str and len(v) <= 20))
            for k, v in variant.items()):
        raise RecordFormatError(f"bad variant {raw[:60]!r}: expected names with small whole numbers or short "
                                "words", vline)
    try:
        return get_game(game_id, **variant)
    except (TypeError, ValueError) as e:
        raise RecordFormatError(f"bad variant {raw[:60]!r}: {e}", vline) from None


def _header_line(text: str, key: str) -> int | None:
    for number, line in enumerate(text.splitlines(), start=1):
        s = line.strip()
        if s.startswith("#") and s[1:].partition(":")[0].strip().lower() == key:
            return number
    return None


def _clean(meta: dict) -> dict:
    """The headers the app shows, checked: a malformed value is dropped, never passed on."""
    out = {k: v for k, v in meta.items() if k not in ("game", "variant", "moves", "you", "result", "setup", "tree")}
    if re.fullmatch(r"[0-9]{1,4}", meta.get("setup", ""), re.ASCII):
        out["setup"] = meta["setup"]
    if re.fullmatch(r"[0-9]{1,6}", meta.get("moves", ""), re.ASCII):
        out["moves"] = meta["moves"]
    if meta.get("you") in ("first", "second"):
        out["you"] = meta["you"]
    result = meta.get("result", "")
    if result.split(" ")[0] in ("first", "second", "draw", "unfinished"):
        out["result"] = result
    return out


def read(text: str, hint=None) -> Record:
    meta, body, first = _parse(text)
    game = _game(meta, text)
    record = moves.replay(body, game, first_line=first)
    clean = _clean(meta)
    clean["moves"] = str(len(record.state.moves))
    if int(clean.get("setup", 0)) > len(record.state.moves):
        raise RecordFormatError(f"the setup header counts {clean['setup']} plies, the game has "
                                f"{len(record.state.moves)}", _header_line(text, "setup"))
    if record.state.is_terminal() or "result" not in clean:
        clean["result"] = record.meta["result"]
    tree = None
    if meta.get("tree"):
        tree = _read_tree(meta["tree"], record.state, _header_line(text, "tree"))
    return Record(record.state, clean, "zeroboard", tree)


def _read_tree(text: str, state, line: int | None) -> GameTree | None:
    """The ``# tree:`` header: the game with its variations and comments (see `write`)."""
    tree = read_rav(text, start_of(state), line=line)
    if [n.action for n in tree.main_line()[1:]] != list(state.moves[len(tree.root.state.moves):]):
        raise RecordFormatError("the tree header's main line is not the game's moves", line)
    return None if tree.plain else tree


def peek(text: str, hint=None):
    meta, _, _ = _parse(text[:8192])
    return _game(meta, text[:8192]), _clean(meta)


def write(state, meta: dict | None = None, tree: GameTree | None = None) -> str:
    """The game as the app's text record; with ``tree`` (whose main line is the game), a
    ``# tree:`` header holding its variations and comments as move text (`games.records.tree`),
    from the game's start."""
    game = state.game
    meta = dict(meta or {})
    lines = [HEADER, f"# game: {game.id}", f"# variant: {json.dumps(game.variant, sort_keys=True)}"]
    for k, v in meta.items():
        k = str(k).strip().lower()
        if k not in ("game", "variant", "tree") and _KEY_RE.fullmatch(k):
            lines.append(f"# {k}: {' '.join(str(v).split())}")
    if tree is not None and not tree.plain:
        lines.append(f"# tree: {_tree_text(tree, state)}")
    lines.append(moves.write(state).rstrip("\n"))
    return "\n".join(lines) + "\n"


def _tree_text(tree: GameTree, state) -> str:
    start = start_of(state)
    base = len(tree.root.state.moves)
    if tuple(state.moves[:base]) != tuple(tree.root.state.moves) or base < len(start.moves) or \
            [n.action for n in tree.main_line()[1:]] != list(state.moves[base:]):
        raise ValueError("the game tree's main line is not the game's moves")
    words, s = [], start
    for a in state.moves[len(start.moves):base]:   # a hand-set position's stones, before the tree
        words.append(s.action_to_text(a))
        s = s.apply(a)
    words += write_rav(tree.root, lambda n, _: n.parent.state.action_to_text(n.action))
    return join_rav(words)
