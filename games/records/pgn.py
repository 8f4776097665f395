"""PGN for xiangqi, as Chinese-chess programs exchange it (XQBase, XQ Wizard, ChessDB...).

Written::

    [Game "Chinese Chess"]
    [Event "-"]
    [Date "2026.11.25"]
    [Red "Human"]
    [Black "ZeroBoard strong"]
    [Result "1-0"]
    [FEN "..."]            (only when the game does not start from the usual position)
    [Format "ICCS"]

    1. H2-E2 H9-G7 2. H0-G2 I9-H9 1-0

The movetext is ICCS (``H2-E2``, XQ Wizard's spelling), WXF (``C2.5``) or Chinese
(``炮二平五``). Read: any of the three (and ``h2e2``), move numbers attached or not
(``1.炮二平五``), comments (``{...}``, kept; ``;`` to the end of the line, skipped),
variations (``(...)``, RAV, kept with their comments in the record's ``tree``, see
`games.records.tree`; written the same way when a tree is given), NAGs (``$1``) and
``!``/``?`` marks; the result token ends the game. Only the first game of a file is read (the record's
``more_games`` says when more follow).
"""
from __future__ import annotations

import re

from ..base import NotationError, State
from .base import (Record, RecordFormatError, analysis_comment, clean_date, clk_comment, control_parts, error_at,
                   keep_analysis, line_col, lost_on_time, pack_clocks, play_move, player_names, read_analysis_comment,
                   read_clk_comment, result_of, stated_result, strip_analysis_comment, strip_clk_comment,
                   unpack_analysis, unpack_clocks, who_is_who)
from .tree import GameTree, TreeBuilder, clean_comment, join_rav, node_at, write_rav

_TAG_RE = re.compile(r'\[\s*([A-Za-z0-9_]+)\s*"((?:[^"\\\n]|\\.)*)"\s*\]')
#: "1." "1..." "12…" (a move number); not "33.4", a WXF soldier move
_MOVE_NUMBER_RE = re.compile(r"[0-9]+\s*[.…](?:\s*[.…])*(?![0-9])", re.ASCII)
_RESULTS = {"1-0": "first", "0-1": "second", "1/2-1/2": "draw", "½-½": "draw", "*": None}
_TOKEN_END = re.compile(r"[\s{}();\[\]]")
_XIANGQI_GAMES = ("chinese chess", "xiangqi", "中国象棋", "中國象棋", "象棋")
_START_FEN = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1"
NOTATIONS = ("iccs", "wxf", "chinese")


def sniff(text: str) -> bool:
    """Does ``text`` look like PGN (a tag pair first, or movetext starting with ``1.``)?"""
    s = text.lstrip()
    return bool(_TAG_RE.match(s)) or bool(re.match(r"1\s*\.", s))


def _split_fen(state: State) -> tuple[str, list[int]]:
    text = state.to_text()
    fen = text.split(" moves ", 1)[0].strip()
    return fen, list(state.moves)


def write(state: State, meta: dict | None = None, notation: str = "iccs", tree: GameTree | None = None) -> str:
    """A xiangqi game as PGN with ``notation`` movetext ("iccs", "wxf" or "chinese"); with
    ``tree`` (whose main line is the game), its variations ``(...)`` and comments ``{...}`` too."""
    meta = dict(meta or {})
    if state.game.id != "xiangqi":
        raise ValueError("PGN records are written for xiangqi only")
    if notation not in NOTATIONS:
        raise ValueError(f"notation must be one of {NOTATIONS}")
    fen, actions = _split_fen(state)
    red, black = player_names(meta)
    result = result_of(state, meta)
    token = {"first": "1-0", "second": "0-1", "draw": "1/2-1/2"}.get(result.split(" ")[0], "*")
    date = clean_date(str(meta.get("date", ""))).split(" ")[0].replace("-", ".") or "????.??.??"

    def tag(name, value):
        value = str(value).replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ")
        return f'[{name} "{value}"]'
    lines = [tag("Game", "Chinese Chess"), tag("Event", meta.get("event") or "-"), tag("Site", meta.get("site") or "-"),
             tag("Date", date), tag("Round", "-"), tag("Red", red or "?"), tag("Black", black or "?"),
             tag("Result", token)]
    if fen != _START_FEN:
        lines.append(tag("FEN", fen))
    if control_parts(meta.get("time_control")):
        lines.append(tag("TimeControl", str(meta["time_control"]).strip()))
    if lost_on_time({"result": result}):
        lines.append(tag("Termination", "time forfeit"))
    lines.append(tag("Format", {"iccs": "ICCS", "wxf": "WXF", "chinese": "Chinese"}[notation]))
    fields = fen.split()
    player = 1 if fields[1] == "b" else 0

    def move_text(before, a):
        if notation == "iccs":
            t = before.action_to_text(a).upper()
            return f"{t[:2]}-{t[2:]}"
        return before.action_to_display(a, "en" if notation == "wxf" else "zh")
    number = int(fields[5]) if len(fields) >= 6 and fields[5].isdigit() else 1
    s = state.game.state_from_text(fen)
    words: list[str] = []
    analysis = unpack_analysis(meta.get("analysis", ""))   # each position's, in a comment after its move
    level = str(meta.get("analysis_level", ""))
    clocks = unpack_clocks(meta.get("clocks", ""))   # the mover's time left, after each move

    def comment(ply):
        if ply in clocks and ply:
            words.append("{" + clk_comment(clocks[ply][0]) + "}")
        if ply in analysis:
            words.append("{" + analysis_comment(analysis[ply], level if ply == min(analysis) else "") + "}")
    node = node_at(tree, state, s)
    if node is None:
        comment(0)
        for i, a in enumerate(actions):
            mover = (player + i) % 2
            move = move_text(s, a)
            if mover == 0:
                move = f"{number}. {move}"       # a move number stays on the line of its move
            elif i == 0:
                move = f"{number}... {move}"
            words.append(move)
            if mover == 1:
                number += 1
            s = s.apply(a)
            comment(i + 1)
    else:
        main = {id(n) for n in tree.main_line(node)}
        base = len(node.state.moves)

        def move_word(n, after_break):
            ply = len(n.state.moves) - base     # 1 for the first move
            k = number + (player + ply - 1) // 2
            move = move_text(n.parent.state, n.action)
            if (player + ply - 1) % 2 == 0:
                return f"{k}. {move}"
            return f"{k}... {move}" if after_break or n.parent is node else move

        def comment_of(n):
            ply = len(n.state.moves)
            parts = [clean_comment(n.comment)] if n.comment.strip() else []
            if ply in analysis and id(n) in main:
                parts.append(analysis_comment(analysis[ply], level if ply == min(analysis) else ""))
            return " ".join(parts)

        def clock_of(n):   # the main line's clocks, in their own comment as the plain line writes them
            ply = len(n.state.moves)
            return ["{" + clk_comment(clocks[ply][0]) + "}"] if ply in clocks and ply and id(n) in main else []
        words += write_rav(node, move_word, comment_of, clock_of)
    words.append(token)
    return "\n".join(lines) + "\n\n" + join_rav(words, 79) + "\n"


def _skip_comment(text: str, i: int) -> int:
    end = text.find("}", i + 1)
    if end < 0:
        raise error_at(text, i, "a comment '{' is never closed")
    return end + 1


def read(text: str, game=None) -> Record:
    """The first game of a PGN text as a `Record`; raises RecordFormatError naming the line."""
    from .. import get_game
    xiangqi = get_game("xiangqi")
    tags: dict[str, str] = {}
    n = len(text)
    i = 0
    first_comment = {}   # the app's analysis of the start position, before the first move
    root_comment = ""    # what else is said before the first move
    # --- tag pairs ---
    while True:
        while i < n and text[i].isspace():
            i += 1
        if i < n and text[i] == "%" and (i == 0 or text[i - 1] == "\n"):  # an escaped line
            i = text.find("\n", i) if "\n" in text[i:] else n
            continue
        if i < n and text[i] == ";":
            i = text.find("\n", i) if "\n" in text[i:] else n
            continue
        if i < n and text[i] == "{":
            j = _skip_comment(text, i)
            body = text[i + 1:j - 1]
            fields = read_analysis_comment(body)
            first_comment = fields or first_comment
            rest = strip_clk_comment(strip_analysis_comment(body) if fields else body)   # a clock here times no move
            root_comment = f"{root_comment} {rest}".strip() if rest else root_comment
            i = j
            continue
        if i < n and text[i] == "[":
            m = _TAG_RE.match(text, i)
            if not m:
                raise error_at(text, i, 'bad tag pair: expected [Name "value"]')
            name, value = m.group(1), re.sub(r"\\(.)", r"\1", m.group(2))
            tags.setdefault(name.lower(), value)
            i = m.end()
            continue
        break
    game_tag = tags.get("game", "").strip().lower()
    if game_tag and game_tag not in _XIANGQI_GAMES:
        raise RecordFormatError(f"the PGN is a game of {tags['game']!r}, not Chinese chess", 1)
    try:
        fen = tags.get("fen", "").strip()
        state = xiangqi.state_from_text(fen) if fen else xiangqi.initial_state()
    except NotationError as e:
        raise RecordFormatError(f"bad FEN tag: {e}", *_tag_line(text, "fen")) from None
    except Exception as e:
        raise RecordFormatError(f"bad FEN tag ({type(e).__name__})", *_tag_line(text, "fen")) from None
    # --- movetext ---
    tree = GameTree(state)
    tree.root.comment = root_comment
    build = TreeBuilder(tree)
    result_token = None
    analysis = {0: first_comment} if first_comment else {}   # the app's analysis comments, by ply
    clocks = {}   # [%clk] comments: the mover's time left after each move, by ply
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c == "{":
            j = _skip_comment(text, i)
            body = text[i + 1:j - 1]
            fields = read_analysis_comment(body)
            node = build.node
            if fields and not build.depth:
                analysis[len(node.state.moves)] = fields
            clk = read_clk_comment(body) if not build.depth and node.parent is not None else None
            if clk is not None:
                clocks[len(node.state.moves)] = (clk, None)
            build.comment(strip_clk_comment(strip_analysis_comment(body) if fields else body))
            i = j
        elif c == ";" or (c == "%" and (i == 0 or text[i - 1] == "\n")):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif c == "(":
            build.open(line_col(text, i))
            i += 1
        elif c == ")":
            build.close(line_col(text, i))
            i += 1
        elif c == "[":
            if build.depth:
                raise error_at(text, i, "a variation '(' is never closed")
            break  # the next game's tags
        elif c == "]":
            raise error_at(text, i, "unexpected ']'")
        else:
            m = _MOVE_NUMBER_RE.match(text, i)
            if m:
                i = m.end()
                continue
            end = _TOKEN_END.search(text, i)
            j = n if end is None else end.start()
            if j == i:   # a stray '}' or the like
                raise error_at(text, i, f"unexpected {c!r}")
            word = text[i:j]
            start = i
            i = j
            if word.startswith("$"):
                continue
            if word in _RESULTS:
                if build.depth:
                    continue       # a result inside a variation says nothing about the game
                result_token = word
                break
            move = word.rstrip("!?#")
            if not move:
                continue
            build.move(move, line_col(text, start))
    build.finish(line_col(text, n))
    state = tree.main_line()[-1].state
    meta = {"first_player": tags.get("red", tags.get("white", "")),
            "second_player": tags.get("black", "")}
    meta = {k: v for k, v in meta.items() if v and v != "?"}
    for key in ("event", "site"):
        if tags.get(key, "").strip() not in ("", "-", "?"):
            meta[key] = tags[key].strip()
    if tags.get("date") and clean_date(tags["date"]):
        meta["date"] = clean_date(tags["date"])
    stated = _RESULTS.get((tags.get("result") or result_token or "*").strip())
    meta["result"] = stated_result(state, stated)
    if meta["result"].endswith(" (resigned)") and "time" in tags.get("termination", "").lower():
        meta["result"] = meta["result"].replace(" (resigned)", " (time)")
    meta["moves"] = str(len(state.moves))
    if control_parts(tags.get("timecontrol", "")):
        meta["time_control"] = tags["timecontrol"].strip()
    if clocks:
        meta["clocks"] = pack_clocks(clocks)
    keep_analysis(meta, analysis)
    who_is_who(meta)
    return Record(state, meta, "pgn", None if tree.plain else tree, more_games=_TAG_RE.search(text, i) is not None)


def _tag_line(text: str, name: str) -> tuple[int | None, None]:
    m = re.search(r"\[\s*" + re.escape(name) + r"\s", text, re.IGNORECASE)
    return (line_col(text, m.start())[0] if m else None, None)


def peek(text: str, hint=None):
    """(game, meta): the header of a PGN without replaying its moves (for listings), with the
    number of moves; raises RecordFormatError when the tags cannot be read."""
    from .. import get_game
    tags: dict[str, str] = {}
    pos = 0
    for m in _TAG_RE.finditer(text):
        if text[pos:m.start()].strip() and not text[pos:m.start()].lstrip().startswith(("{", ";", "%")):
            break
        tags.setdefault(m.group(1).lower(), re.sub(r"\\(.)", r"\1", m.group(2)))
        pos = m.end()
    if not tags and not sniff(text):
        raise RecordFormatError("no PGN tag pairs", 1)
    game_tag = tags.get("game", "").strip().lower()
    if game_tag and game_tag not in _XIANGQI_GAMES:
        raise RecordFormatError(f"the PGN is a game of {tags['game']!r}, not Chinese chess", 1)
    body = re.sub(r"\{[^}]*\}|;[^\n]*|\$[0-9]+", " ", text[pos:])
    depth, words = 0, 0
    for tok in re.findall(r"[()]|[^\s()]+", body):
        if tok == "(":
            depth += 1
        elif tok == ")":
            depth = max(0, depth - 1)
        elif not depth and not _MOVE_NUMBER_RE.fullmatch(tok) and tok not in _RESULTS:
            if tok.startswith("["):
                break
            m = _MOVE_NUMBER_RE.match(tok)
            words += 1 if m is None or tok[m.end():] else 0
    meta = {"moves": str(words)}
    for key, tag in (("first_player", "red"), ("second_player", "black")):
        if tags.get(tag, "?") not in ("", "?"):
            meta[key] = tags[tag]
    if tags.get("date") and clean_date(tags["date"]):
        meta["date"] = clean_date(tags["date"])
    winner = _RESULTS.get(tags.get("result", "*").strip())
    meta["result"] = winner or "unfinished"
    who_is_who(meta)
    return get_game("xiangqi"), meta
