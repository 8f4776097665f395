"""UI strings from JSON catalogues (gui/i18n/<lang>.json); a missing key falls back to English.

``t("play.your_move")`` returns the string in the current language; ``{name}`` fields are
filled from keyword arguments. An unknown key returns the key itself, so a typo shows up
on screen instead of crashing the app.
"""
from __future__ import annotations

import json
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


def t(key: str, **fields) -> str:
    text = catalogue(_lang).get(key)
    if text is None:
        text = catalogue("en").get(key, key)
    if fields:
        try:
            return text.format(**fields)
        except (KeyError, IndexError, ValueError):
            return text
    return text


def has(key: str) -> bool:
    return key in catalogue(_lang) or key in catalogue("en")
