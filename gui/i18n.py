"""UI strings from JSON catalogues (gui/i18n/<lang>.json); a missing key falls back to English.

``t("play.your_move")`` returns the string in the current language; ``{name}`` fields are
filled from keyword arguments. An unknown key returns the key itself, so a typo shows up
on screen instead of crashing the app.
"""
from __future__ import annotations

import functools
import json
import re
import string
from pathlib import Path

CATALOGUE_DIR = Path(__file__).resolve().parent / "i18n"
_catalogues: dict[str, dict[str, str]] = {}
_lang = "en"


def catalogue(lang: str) -> dict[str, str]:
    if lang not in _catalogues:
        try:
            data = json.loads((CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))
            _catalogues[lang] = {k: v for k, v in data.items() if isinstance(v, str)}
        except (OSError, ValueError):
            _catalogues[lang] = {}
    return _catalogues[lang]


def set_language(lang: str) -> None:
    global _lang
    _lang = lang if lang in ("en", "zh") else "en"


def language() -> str:
    return _lang


#: a Han character (with the CJK punctuation left out: no space goes beside "，" or "（")
_HAN = r"\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
_WESTERN = r"A-Za-z0-9"
_SEAM = re.compile(f"(?<=[{_HAN}])(?=[{_WESTERN}])|(?<=[{_WESTERN}])(?=[{_HAN}])")
_FORMATTER = string.Formatter()


def spaced(text: str) -> str:
    """Chinese text with a space wherever a Han character meets a Latin letter or a digit
    ("对Rapfi" -> "对 Rapfi", "3步" -> "3 步"), the spacing the catalogue's strings use."""
    return _SEAM.sub(" ", text)


def _format_zh(text: str, fields: dict) -> str:
    """``text.format(**fields)`` for Chinese, spaced (`spaced`) in the template's own words and
    where a field meets them, never inside a field: xiangqi's Chinese move "炮8平5" stays whole."""
    out = ""
    for literal, name, spec, conversion in _parsed(text):
        pieces = [literal]
        if name is not None:
            value = _FORMATTER.convert_field(_FORMATTER.get_field(name, (), fields)[0], conversion)
            pieces.append(_FORMATTER.format_field(value, _FORMATTER.vformat(spec or "", (), fields)))
        for piece in pieces:
            if out and piece and _SEAM.match(out[-1] + piece[0], 1):
                out += " "
            out += piece
    return out


@functools.lru_cache(maxsize=2048)
def _parsed(text: str) -> tuple:
    """A template's parts (`string.Formatter.parse`), its own words spaced (`spaced`)."""
    return tuple((spaced(literal), name, spec, conversion) for literal, name, spec, conversion in _FORMATTER.parse(text))


def t(key: str, **fields) -> str:
    own = catalogue(_lang).get(key)
    text = own if own is not None else catalogue("en").get(key, key)
    try:
        if _lang == "zh" and own is not None:   # the English fallback keeps English spacing
            return _format_zh(text, fields)
        return text.format(**fields) if fields else text
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return text


def has(key: str) -> bool:
    return key in catalogue(_lang) or key in catalogue("en")
