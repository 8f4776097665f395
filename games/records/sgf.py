"""SGF (Smart Game Format, FF[4]) for gomoku (GM[4]) and othello (GM[2]).

Written for gomoku as gomoku programs do (points as two letters, column then row from the
top-left, ``hh`` the centre of 15x15)::

    (;GM[4]FF[4]CA[UTF-8]AP[ZeroBoard:1.0]SZ[15]PB[Human]PW[ZeroBoard strong]RE[B+]
    ;B[hh];W[ii];B[hi]...)

with ``RU[standard]`` or ``RU[renju]`` after ``SZ`` for those rule sets (read back: the name,
or a Gomocup rule number, 0 freestyle, 1 standard, 4 renju; none or another: freestyle), and a
swap opening (meta ``opening``, `games.swap2.Swap2.summary`) in FF[4]'s opening property:
``ON[swap2 two black]``, ``ON[swap1 white]`` (the opening stones are the first three or five moves; PB and PW name
who took which colour). An ON that is not such a summary, or does not fit the moves, is kept
out of the meta (other programs write an opening's name there);

and for othello as Edax writes it (the start position as setup stones, points in othello's
own notation ``f5``, a pass as ``PA``)::

    (;GM[2]FF[4]CA[UTF-8]SZ[8]AB[e4][d5]AW[d4][e5]PL[B]RE[B+12];B[f5];W[d6];...;W[PA];B[h8])

Read: the first game tree (the record's ``more_games`` says when a collection holds more), its
main line (the first branch at every fork) as the record's game and, when it has variations or
comments (C[]), all of it as the record's ``tree`` (`games.records.tree`; nesting and size
bounded, a bad move in a variation is an error naming it); points as two letters
or in the game's own notation (gomoku ``h8`` counts rows from the bottom, othello ``f5``
from the top), a pass as ``[]``, ``[tt]``, ``[PA]`` or ``[pass]``, or left out (othello: a
move by the side not to move when the other must pass); gomoku setup stones (AB/AW) are
played as alternating moves (meta ``setup``: how many, the plies the game's history starts
after); othello setup stones and PL are the position the game starts from (a position set up
by hand must pass `games.base.Game.validate_position`). Written: othello's start position as
AB/AW and PL; a gomoku game's first ``setup`` plies (meta) as AB/AW; with a ``tree``, its
variations as nested ``(;...)`` branches and its comments as C[]. Unknown properties are
skipped; escapes (``\\]``) and soft line breaks are honoured.
"""
from __future__ import annotations

import re

from ..base import NotationError, SetupError, State, clip_text
from .base import (Record, RecordFormatError, analysis_comment, clean_date, control_parts, control_text, error_at,
                   keep_analysis, line_col, pack_clocks, play_action, play_move, player_names, read_analysis_comment,
                   result_of, stated_result, strip_analysis_comment, unpack_analysis, unpack_clocks, who_is_who)
from .tree import MAX_NESTING, MAX_NODES, GameTree, Node, node_at

GAMES = {"4": "gomoku", "2": "othello"}
_GM_OF = {v: k for k, v in GAMES.items()}
_DEFAULT_SIZE = {"gomoku": 15, "othello": 8}
_PASSES = ("", "tt", "pa", "pass")


def sniff(text: str) -> bool:
    return bool(re.match(r"\s*\(\s*;", text))


# --- the syntax ---------------------------------------------------------------------------
#: another game tree after the first (a collection): '(' and a node
_ANOTHER_TREE = re.compile(r"\s*\(\s*;")


class _Node:
    __slots__ = ("props", "offset", "children", "end")

    def __init__(self, offset: int):
        self.props: dict[str, list[tuple[str, int]]] = {}
        self.offset = offset
        self.children: list[_Node] = []
        self.end = 0   # the root's: the offset just after its game tree's closing ')'


def _parse_main_line(text: str) -> list[_Node]:
    """The nodes of the first game tree's main line (first child at every fork)."""
    node = _parse_tree(text)
    nodes = [node]
    while node.children:
        node = node.children[0]
        nodes.append(node)
    return nodes


def _parse_tree(text: str) -> _Node:
    """The root node of the first game tree, with its variations as children (each node's
    first child is the main line); variations nested deeper than `MAX_NESTING` are refused."""
    n = len(text)
    i = 0
    while i < n and text[i].isspace():
        i += 1
    if i >= n or text[i] != "(":
        raise error_at(text, i, "an SGF record starts with '('")
    stack: list[_Node | None] = []   # the node each open '(' hangs its sequence from
    root: _Node | None = None
    node: _Node | None = None        # the last node read: the next ';' follows it
    prop_node: _Node | None = None   # the node properties go to (None right after a parenthesis)
    count = 0
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i >= n:
            raise error_at(text, n, "the game tree is never closed (a ')' is missing)")
        c = text[i]
        if c == "(":
            if len(stack) > MAX_NESTING:
                raise error_at(text, i, f"variations nested more than {MAX_NESTING} deep")
            stack.append(node)
            prop_node = None
            i += 1
            if not (i < n and (text[i] == ";" or text[i].isspace())) and i < n and text[i] not in "()":
                raise error_at(text, i, "expected ';' to start a node")
        elif c == ")":
            node = stack.pop()
            prop_node = None
            i += 1
            if not stack:
                if root is None:
                    raise error_at(text, i - 1, "the game tree has no node")
                root.end = i
                return root
        elif c == ";":
            count += 1
            if count > MAX_NODES:
                raise error_at(text, i, f"more than {MAX_NODES} nodes")
            new = _Node(i)
            if node is None:
                if root is not None:
                    raise error_at(text, i, "a second root node (a variation must start with '(')")
                root = new
            else:
                node.children.append(new)
            node = prop_node = new
            i += 1
        elif c.isalpha() and c.isascii():
            if prop_node is None:
                raise error_at(text, i, "a property outside a node (';' missing)")
            j = i
            while j < n and text[j].isascii() and text[j].isalpha():
                j += 1
            ident = "".join(ch for ch in text[i:j] if ch.isupper())   # FF[3] allowed lowercase letters
            if not ident:
                raise error_at(text, i, f"bad property name {text[i:j]!r}")
            start = i
            i = j
            values = []
            while True:
                while i < n and text[i].isspace():
                    i += 1
                if i >= n or text[i] != "[":
                    break
                value, i = _value(text, i)
                values.append((value, i))
            if not values:
                raise error_at(text, start, f"property {ident} has no value")
            prop_node.props.setdefault(ident, []).extend((v, start) for v, _ in values)
        else:
            raise error_at(text, i, f"unexpected {c!r}")


def _value(text: str, i: int) -> tuple[str, int]:
    """The text of the property value starting at the '[' at ``i``, and the offset after it."""
    out = []
    j = i + 1
    n = len(text)
    while j < n:
        c = text[j]
        if c == "\\":
            if j + 1 >= n:
                break
            nxt = text[j + 1]
            if nxt == "\r" and text[j + 2:j + 3] == "\n":
                j += 3
            elif nxt in "\r\n":
                j += 2          # a soft line break
            else:
                out.append(nxt)
                j += 2
        elif c == "]":
            return "".join(out), j + 1
        else:
            out.append(c)
            j += 1
    raise error_at(text, i, "a property value '[' is never closed")


# --- the games ---------------------------------------------------------------------------
def _first(node: _Node, key: str) -> str | None:
    values = node.props.get(key)
    return values[0][0].strip() if values else None


def _size(root: _Node, text: str) -> int | None:
    raw = _first(root, "SZ")
    if raw is None:
        return None
    m = re.fullmatch(r"([0-9]{1,3})(?:\s*:\s*([0-9]{1,3}))?", raw, re.ASCII)
    if not m or (m.group(2) and m.group(2) != m.group(1)):
        raise error_at(text, root.props["SZ"][0][1], f"board size SZ[{clip_text(raw, 20)}]: only square boards are read")
    return int(m.group(1))


def _game_of(root: _Node, text: str, hint):
    from .. import get_game
    gm = _first(root, "GM")
    if gm is None:
        gm = _GM_OF.get(getattr(hint, "id", ""), "1")
    if gm not in GAMES:
        where = root.props["GM"][0][1] if "GM" in root.props else root.offset
        raise error_at(text, where, f"GM[{clip_text(gm, 20)}] is not a game ZeroBoard plays: SGF records are read for "
                                    "gomoku (GM[4]) and othello (GM[2])" + (" (GM[1] is Go)" if gm == "1" else ""))
    game_id = GAMES[gm]
    size = _size(root, text)
    if size is None:
        size = hint.size if getattr(hint, "id", "") == game_id else _DEFAULT_SIZE[game_id]
    variant = {"size": size}
    if game_id == "gomoku":
        rule = _rule(_first(root, "RU"))
        if rule is None and getattr(hint, "id", "") == game_id:
            rule = getattr(hint, "rule", None)
        if rule:
            variant["rule"] = rule
    try:
        return get_game(game_id, **variant)
    except ValueError as e:
        where = root.props["SZ"][0][1] if "SZ" in root.props else root.offset
        raise error_at(text, where, str(e)) from None


def _rule(raw: str | None) -> str | None:
    """Gomoku's rule set from RU (a name as ZeroBoard writes it, or a Gomocup rule number); None
    when absent or not one we know (the record is then read as the hint's rule, else freestyle)."""
    from ..renju import rule_from_gomocup, rule_from_name
    if not raw:
        return None
    text = raw.strip().lower()
    for parse in (rule_from_name, rule_from_gomocup):
        try:
            return parse(text.split()[0] if text.split() else text)
        except ValueError:
            continue
    return None


def _opening(game, state, raw: str | None) -> str | None:
    """The swap opening's summary of ON (Swap2 or Swap1) when it is one and fits the game's
    moves, else None."""
    if game.id != "gomoku" or not raw or not raw.strip().lower().startswith(("swap1", "swap2")):
        return None
    from ..swap2 import Swap2, Swap2Error
    try:
        return Swap2.replay(game, state.moves, raw).summary()
    except (Swap2Error, ValueError):
        return None


def _point(game, value: str) -> int | None:
    """The action of a two-letter SGF point, or None when ``value`` is not two letters."""
    if len(value) == 2 and value.isascii() and value.isalpha():
        col, row = ord(value[0].lower()) - 97, ord(value[1].lower()) - 97
        if value != value.lower() or not (0 <= col < game.size and 0 <= row < game.size):
            raise NotationError(f"point [{value}] is off the {game.size}x{game.size} board")
        return row * game.size + col
    return None


def _play(state: State, value: str, where, index: int) -> State:
    game = state.game
    low = value.strip().lower()
    if low in _PASSES and not (low == "tt" and game.size > 19):
        if game.id != "othello":
            raise RecordFormatError(f"move {index}: a pass, but {game.name} has no pass", *where)
        return play_move(state, "pass", where, index)
    try:
        action = _point(game, value.strip())
    except NotationError as e:
        raise RecordFormatError(f"move {index}: {e}", *where) from None
    if action is None:  # the game's own notation: h8, f5
        return play_move(state, value.strip(), where, index)
    return play_action(state, action, value, where, index)


def _setup(state: State, root: _Node, text: str) -> State:
    game = state.game
    black = [v for v, _ in root.props.get("AB", [])]
    white = [v for v, _ in root.props.get("AW", [])]
    where = line_col(text, root.offset)
    if root.props.get("AE"):
        raise RecordFormatError("AE (removing stones) is not supported", *where)
    if game.id == "othello":
        if black or white:
            want = state.board_array()
            got = want * 0
            for values, sign in ((black, 1), (white, -1)):
                for v in values:
                    try:
                        a = _point(game, v.strip())
                    except NotationError:
                        a = None
                    if a is None:
                        a = _othello_square(game, v.strip())
                    if a is None:
                        raise RecordFormatError(f"bad setup point [{v}]", *where)
                    got[divmod(a, game.size)] = sign
        pl = (_first(root, "PL") or "B").strip().upper()
        if pl not in ("B", "W", "1", "2"):
            raise RecordFormatError(f"PL[{pl}]: expected B or W", *where)
        to_move = 0 if pl in ("B", "1") else 1
        if (black or white) and ((got != want).any() or to_move != 0):
            try:
                return game.from_setup(got, to_move)
            except SetupError as e:
                raise RecordFormatError(f"the setup stones (AB/AW) and PL cannot be played from: {e}", *where) \
                    from None
        if to_move != 0:
            raise RecordFormatError(f"PL[{pl}]: othello starts with Black to play", *where)
        return state
    # gomoku: setup stones become alternating moves (the position is the same in any order)
    if not black and not white:
        return state
    if not (len(black) == len(white) or len(black) == len(white) + 1):
        raise RecordFormatError(f"{len(black)} black and {len(white)} white setup stones cannot come from "
                                "alternating moves", *where)
    order = [v for pair in zip(black, white + [None]) for v in pair if v is not None]
    for k, v in enumerate(order):
        state = _play(state, v, where, k + 1)
    pl = _first(root, "PL")
    if pl and pl.upper() in ("B", "W") and "BW".index(pl.upper()) != state.current_player:
        raise RecordFormatError(f"PL[{pl}] does not match the setup stones", *where)
    return state


def _othello_square(game, v: str) -> int | None:
    m = re.fullmatch(r"([a-h])([1-8])", v.lower())
    if not m:
        return None
    col, row = ord(m.group(1)) - 97, int(m.group(2)) - 1
    return row * game.size + col if col < game.size and row < game.size else None


def _result(raw: str | None) -> str | None:
    if not raw:
        return None
    r = raw.strip().upper()
    if r.startswith("B+"):
        return "first"
    if r.startswith("W+"):
        return "second"
    if r in ("0", "DRAW", "JIGO", "D"):
        return "draw"
    return None


def _moves(snode: _Node, gnode: Node, tree: GameTree, text: str, variation: bool) -> Node:
    """The game node after the moves (B, W) of the SGF node ``snode``, played from ``gnode``."""
    state = gnode.state
    game = state.game
    for colour in ("B", "W"):
        for value, offset in snode.props.get(colour, []):
            where = line_col(text, offset)
            side = "BW".index(colour)
            try:
                if side != state.current_player and not state.is_terminal():
                    if game.id == "othello" and state.legal_actions() == [game.pass_action]:
                        gnode = tree.add(gnode, game.pass_action)   # a pass the record leaves out
                        state = gnode.state
                    else:
                        raise RecordFormatError(f"move {len(state.moves) + 1}: {'Black' if side == 0 else 'White'} "
                                                f"plays, but it is {'Black' if side == 1 else 'White'}'s turn", *where)
                state = _play(state, value, where, len(state.moves) + 1)
            except RecordFormatError as e:
                if variation:
                    raise RecordFormatError("in a variation: " + e.reason, e.line, e.column) from None
                raise
            gnode = tree.add(gnode, state.moves[-1], state)
    return gnode


def read(text: str, hint=None) -> Record:
    """The first game in an SGF text, its main line as the record's state and, when it has
    variations or comments, all of it as the record's tree; raises RecordFormatError naming the line."""
    root = _parse_tree(text)
    game = _game_of(root, text, hint)
    start = _setup(game.initial_state(), root, text)
    setup = len(start.moves)
    tree = GameTree.from_line(_setup_line(start))
    analysis = {}   # the app's analysis comments (C[]), by the ply of the node's position
    clocks = {}     # BL/WL (and OB/OW) on the main line: the mover's time left after each move, by ply
    work = [(root, tree.main_line()[-1], True)]
    while work:
        snode, gnode, main = work.pop()
        gnode = _moves(snode, gnode, tree, text, not main)
        for value, _ in snode.props.get("C", []):
            fields = read_analysis_comment(value)
            if fields and main:
                analysis[len(gnode.state.moves)] = fields
            rest = strip_analysis_comment(value) if fields else value.strip()
            if rest:
                gnode.comment = f"{gnode.comment}\n{rest}" if gnode.comment else rest
        movers = [c for c in ("B", "W") if snode.props.get(c)]
        for left, periods in (("BL", "OB"), ("WL", "OW")):
            seconds = _seconds(_first(snode, left))
            if main and seconds is not None and movers == [left[0]]:   # the mover's own clock, after its move
                count_left = _first(snode, periods)
                clocks[len(gnode.state.moves)] = (seconds, int(count_left) if count_left and count_left.isdigit()
                                                  and len(count_left) <= 2 else None)
        work.extend((child, gnode, main and k == 0) for k, child in reversed(list(enumerate(snode.children))))
    state = tree.main_line()[-1].state
    meta = {"first_player": _first(root, "PB") or "", "second_player": _first(root, "PW") or ""}
    meta = {k: v for k, v in meta.items() if v}
    if _first(root, "EV"):
        meta["event"] = _first(root, "EV")
    if _first(root, "AP"):   # "name:version", written from "name version"
        meta["app"] = _first(root, "AP").replace(":", " ", 1)
    date = clean_date(_first(root, "DT") or "")
    if date:
        meta["date"] = date
    opening = _opening(game, state, _first(root, "ON"))
    if opening:
        meta["opening"] = opening
    raw = _first(root, "RE")
    meta["result"] = stated_result(state, _result(raw))
    if meta["result"].endswith(" (resigned)") and (raw or "").strip().upper().endswith(("+T", "+TIME")):
        meta["result"] = meta["result"].replace(" (resigned)", " (time)")
    meta["moves"] = str(len(state.moves))
    control = _control(_first(root, "TM"), _first(root, "OT"))
    if control:
        meta["time_control"] = control
    if clocks:
        meta["clocks"] = pack_clocks(clocks)
    if setup:
        meta["setup"] = str(setup)
    keep_analysis(meta, analysis)
    who_is_who(meta)
    return Record(state, meta, "sgf", None if tree.plain else tree,
                  more_games=_ANOTHER_TREE.match(text, root.end) is not None)


def _setup_line(start: State) -> list[State]:
    """The positions from the game's start to ``start`` (gomoku's setup stones played one by one)."""
    line = [start.game.initial_state()] if start.moves else [start]
    for a in start.moves:
        line.append(line[-1].apply(a))
    return line


def _seconds(raw: str | None) -> float | None:
    """The seconds of a TM, BL or WL value (a number, as SGF writes it); None otherwise."""
    if not raw or not re.fullmatch(r"[0-9]{1,6}(?:\.[0-9]{1,3})?", raw.strip(), re.ASCII):
        return None
    return float(raw)


def _control(tm: str | None, ot: str | None) -> str | None:
    """A meta ``time_control`` from TM (main time) and OT (``3x30 byo-yomi``, ``fischer 5``)."""
    main = _seconds(tm)
    if main is None:
        return None
    inc, periods, period = 0.0, 0, 0.0
    text = (ot or "").strip().lower()
    m = re.fullmatch(r"([0-9]{1,2})\s*x\s*([0-9]{1,4}(?:\.[0-9])?)\s*(?:byo-?yomi)?", text, re.ASCII)
    f = re.fullmatch(r"(?:fischer\s*\+?\s*([0-9]{1,4}(?:\.[0-9])?)|\+?([0-9]{1,4}(?:\.[0-9])?)\s*fischer)", text,
                     re.ASCII)
    if m:
        periods, period = int(m.group(1)), float(m.group(2))
    elif f:
        inc = float(f.group(1) or f.group(2))
    return control_text(main, inc, periods, period) if control_parts(control_text(main, inc, periods, period)) \
        else None


def peek(text: str, hint=None):
    """(game, meta): the header and move count of an SGF text without replaying it (for listings)."""
    nodes = _parse_main_line(text)
    root = nodes[0]
    game = _game_of(root, text, hint)
    moves = sum(len(node.props.get(c, [])) for node in nodes for c in ("B", "W"))
    moves += len(root.props.get("AB", [])) + len(root.props.get("AW", [])) if game.id == "gomoku" else 0
    meta = {"moves": str(moves)}
    for key, prop in (("first_player", "PB"), ("second_player", "PW")):
        if _first(root, prop):
            meta[key] = _first(root, prop)
    date = clean_date(_first(root, "DT") or "")
    if date:
        meta["date"] = date
    meta["result"] = _result(_first(root, "RE")) or "unfinished"
    who_is_who(meta)
    return game, meta


# --- writing ------------------------------------------------------------------------------
def _escape(text: str) -> str:
    return str(text).replace("\\", "\\\\").replace("]", "\\]")


def write(state: State, meta: dict | None = None, tree: GameTree | None = None) -> str:
    """A gomoku or othello game as SGF; with ``tree`` (whose main line is the game, see
    `games.records.tree.node_at`), its variations and comments too."""
    meta = dict(meta or {})
    game = state.game
    if game.id not in _GM_OF:
        raise ValueError("SGF records are written for gomoku and othello only")
    first, second = player_names(meta)
    head = [f"GM[{_GM_OF[game.id]}]", "FF[4]", "CA[UTF-8]"]
    if meta.get("app"):
        head.append(f"AP[{_escape(str(meta['app']).replace(' ', ':', 1))}]")
    head.append(f"SZ[{game.size}]")
    if getattr(game, "rule", "freestyle") != "freestyle":
        head.append(f"RU[{game.rule}]")
    if game.id == "gomoku" and str(meta.get("opening", "")).startswith(("swap1", "swap2")):
        head.append(f"ON[{_escape(' '.join(str(meta['opening']).split()))}]")
    if first:
        head.append(f"PB[{_escape(first)}]")
    if second:
        head.append(f"PW[{_escape(second)}]")
    date = clean_date(str(meta.get("date", ""))).split(" ")[0]
    if date:
        head.append(f"DT[{date}]")
    result = result_of(state, meta)
    winner = result.split(" ")[0]
    if winner in ("first", "second"):
        margin = ""
        if " (resigned)" in result:
            margin = "R"
        elif " (time)" in result:
            margin = "T"
        elif game.id == "othello":
            board = state.board_array()
            margin = str(abs(int((board > 0).sum()) - int((board < 0).sum())))
        head.append(f"RE[{'B' if winner == 'first' else 'W'}+{margin}]")
    elif winner == "draw":
        head.append("RE[0]")
    parts = control_parts(meta.get("time_control"))
    if parts:
        main_time, inc, periods, period = parts
        head.append(f"TM[{control_text(main_time)}]")
        if periods:
            head.append(f"OT[{periods}x{control_text(period)} byo-yomi]")
        elif inc:
            head.append(f"OT[fischer {control_text(inc)}]")
    clocks = unpack_clocks(meta.get("clocks", ""))
    s = game.initial_state()
    actions = list(state.moves)
    if game.id == "othello":
        start = getattr(state, "start", None)
        if start is not None:   # a position set up by hand
            s = game.state_from_text(game.setup_text(*start))
        board = s.board_array()
        names = [game.square_name(r * game.size + c) for r in range(game.size) for c in range(game.size)]
        blacks = [names[i] for i, v in enumerate(board.reshape(-1)) if v > 0]
        whites = [names[i] for i, v in enumerate(board.reshape(-1)) if v < 0]
        head.append("AB" + "".join(f"[{p}]" for p in blacks) + "AW" + "".join(f"[{p}]" for p in whites)
                    + f"PL[{'BW'[s.current_player]}]")
    else:
        setup = str(meta.get("setup", ""))
        setup = min(int(setup), len(actions)) if setup.isdigit() else 0
        if setup:   # a position set up by hand: its stones as setup stones
            def point(a):
                row, col = divmod(a, game.size)
                return f"[{chr(97 + col)}{chr(97 + row)}]"
            head.append("AB" + "".join(point(a) for a in actions[:setup:2]))
            if setup > 1:
                head.append("AW" + "".join(point(a) for a in actions[1:setup:2]))
            for a in actions[:setup]:
                s = s.apply(a)
            head.append(f"PL[{'BW'[s.current_player]}]")
            actions = actions[setup:]
    analysis = unpack_analysis(meta.get("analysis", ""))   # each position's, as a comment on its node
    level = str(meta.get("analysis_level", ""))

    def comment(ply):
        if ply not in analysis:
            return ""
        return f"C[{_escape(analysis_comment(analysis[ply], level if ply == min(analysis) else ''))}]"

    def clock(ply, colour):   # the mover's time left after the move to ``ply`` (BL/WL, OB/OW)
        if ply not in clocks:
            return ""
        seconds, periods_left = clocks[ply]
        return f"{colour}L[{seconds:.1f}]" + (f"O{colour}[{periods_left}]" if periods_left is not None else "")
    node = node_at(tree, state, s)
    main = {id(n) for n in tree.main_line(node)} if node is not None else set()

    def point_of(before, a):
        if game.id == "othello":
            return "PA" if a == game.pass_action else game.square_name(a)
        row, col = divmod(a, game.size)
        return chr(97 + col) + chr(97 + row)

    def node_text(n):   # a game node's move and comments
        before = n.parent.state
        colour = "BW"[before.current_player]
        text = f";{colour}[{point_of(before, n.action)}]"
        if id(n) in main:   # the clocks are the main line's
            text += clock(len(n.state.moves), colour)
        return text + comment_of(n)

    def comment_of(n):
        ply = len(n.state.moves)
        words = [n.comment.strip()] if n.comment.strip() else []
        if ply in analysis and (not main or id(n) in main):
            words.append(analysis_comment(analysis[ply], level if ply == min(analysis) else ''))
        return f"C[{_escape(chr(10).join(words))}]" if words else ""
    if node is None:
        head.append(comment(len(s.moves)))
        moves = []
        for a in actions:
            colour = "BW"[s.current_player]
            point = point_of(s, a)
            s = s.apply(a)
            moves.append(f";{colour}[{point}]" + clock(len(s.moves), colour) + comment(len(s.moves)))
    else:
        head.append(comment_of(node))
        moves = _branches(node, node_text)
    lines = ["(;" + "".join(head)]
    row, count = "", 0
    for word in moves:
        row += word
        count += word.startswith(";")
        if count == 12:
            lines.append(row)
            row, count = "", 0
    if row:
        lines.append(row)
    return "\n".join(lines) + ")\n"


def _branches(node: Node, node_text) -> list[str]:
    """The words of everything after ``node``: each move's node, and at a fork every choice in
    its own parentheses (the main line's first), as SGF nests variations."""
    words: list[str] = []
    work: list = [node]
    while work:
        item = work.pop()
        if isinstance(item, str):
            words.append(item)
            continue
        n = item
        while len(n.children) == 1:
            n = n.children[0]
            words.append(node_text(n))
        if len(n.children) > 1:
            todo: list = []
            for child in n.children:
                todo += ["(", node_text(child), child, ")"]
            work.extend(reversed(todo))
    return words
