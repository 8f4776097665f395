"""A record reader's error (`games.records.RecordFormatError`, written in English by the
rules' layer) in the interface language: the place ("line 3, column 8", "move 6 ('C6-C')")
and the common reasons are translated; a detail without a translation (a quoted token, an
engine's own words) is kept as it is, after the translated part."""
from __future__ import annotations

import re

from gui.i18n import has, language, t

_GAME_NAMES = {"Tic-tac-toe": "tictactoe", "Connect 2": "connect2", "Connect Four": "connect4", "Othello": "othello",
               "Gomoku": "gomoku", "Xiangqi": "xiangqi"}
#: (pattern of the whole reason, catalogue key); the pattern's groups fill the key's fields
_REASONS = (
    (r"the record is empty|the file is empty|the clipboard is empty", "record.err.empty"),
    (r"not a record ZeroBoard knows.*", "record.err.unknown"),
    (r"the (?:record|file) is larger than (\d+) kB", "record.err.too_large"),
    (r"the file is not text.*", "record.err.not_text"),
    (r"no PGN tag pairs", "record.err.no_tags"),
    (r".*\bis illegal\b.*|.*\billegal move\b.*|.*\bnot legal\b.*", "record.err.illegal"),
    (r".*\bis already taken\b.*|.*\bis occupied\b.*|.*\bis full\b.*", "record.err.taken"),
    (r".*\bis off the\b.*", "record.err.off_board"),
    (r"cannot read move .*", "record.err.bad_move"),
    (r"bad (?:square|cell|point|column|move)\b.*|.*\bexpected a column letter\b.*", "record.err.bad_point"),
    (r".*\bafter the end\b.*|.*\bthe game is over\b.*|.*\bgame has ended\b.*", "record.err.after_end"),
    (r".*is never closed.*|.*is missing.*", "record.err.cut"),
)
#: reasons said whole in translation (the others keep the reader's words after them)
_WHOLE = ("record.err.empty", "record.err.unknown", "record.err.too_large", "record.err.not_text", "record.err.no_tags")
_PLACES = (
    (re.compile(r"^line (\d+), column (\d+): (.*)$", re.S), "record.err.line_col", ("line", "column")),
    (re.compile(r"^line (\d+): (.*)$", re.S), "record.err.line", ("line",)),
    (re.compile(r"^move (\d+) \(('[^']*'|\"[^\"]*\"|[^)]*)\)(?::| cannot be read) ?(.*)$", re.S), "record.err.move",
     ("n", "move")),
    (re.compile(r"^move (\d+): (.*)$", re.S), "record.err.move_n", ("n",)),
)


def in_language(message: str) -> str:
    """``message`` in the interface language (English is returned as it is)."""
    if language() == "en" or not message:
        return message
    return _translate(str(message), 0)


def _translate(message: str, depth: int) -> str:
    if depth > 6:
        return message
    for game_name, game_id in _GAME_NAMES.items():
        if message.startswith(game_name + ": "):
            return t(f"game.{game_id}") + t("record.err.colon") + _translate(message[len(game_name) + 2:], depth + 1)
    for pattern, key, names in _PLACES:
        m = pattern.match(message)
        if m:
            fields = dict(zip(names, m.groups()))
            rest = m.groups()[len(names)]
            return t(key, **fields) + _translate(rest, depth + 1)
    for pattern, key in _REASONS:
        m = re.fullmatch(pattern, message, re.S)
        if m and has(key):
            translated = t(key, kb=m.group(1)) if m.groups() else t(key)
            return translated if key in _WHOLE else f"{translated}（{message}）"
    return message
