"""Build the app's bundled font: a subset of Noto Sans CJK SC with only the characters it shows.

The whole Noto Sans CJK is ~20 MB per weight; the subset keeps ASCII and Latin-1, the
characters of the UI string catalogues (gui/i18n/*.json), xiangqi's pieces and notation
(both simplified and traditional forms, Chinese numerals, full-width digits) and any CJK
text in games/*.py and gui/**/*.py (move notation, labels). Re-run it after adding or
changing UI strings, and commit the two .otf files it writes; the test
test_the_bundled_font_has_every_character_the_app_shows fails while a character is missing.
It needs, at build time only (the app never imports fontTools):

    apt-get install fonts-noto-cjk                    # Debian/Ubuntu: the source .ttc files
    python -m pip install -c requirements.lock -e ".[fonts]"   # fontTools (-e: keep the checkout installed editable)
    python tools/subset_font.py [--regular PATH.ttc] [--bold PATH.ttc]

Font licence: SIL Open Font License 1.1 (assets/fonts/OFL.txt). The subset is renamed
"ZeroBoard Sans CJK" as the OFL asks of modified versions.
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "assets" / "fonts"
SOURCES = {
    "Regular": "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "Bold": "/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc",
}
SC_INDEX = 2  # Noto Sans CJK SC inside the Debian .ttc collections
FAMILY = "ZeroBoard Sans CJK"

XIANGQI = ("帥仕相傌俥炮兵將士象馬車砲卒"  # traditional piece names, as drawn on the board
           "帅仕相马车炮兵将士象马车炮卒"  # simplified forms used in move notation
           "楚河漢界汉界"  # the river
           "进退平前中后進後一二三四五六七八九十０１２３４５６７８９")
SYMBOLS = "…·–—×▼▲→←↑↓%，：（）、。！？“”‘’《》「」±°★☆✓✗"


def wanted_chars() -> set[str]:
    chars = set(chr(c) for c in range(0x20, 0x7F)) | set(chr(c) for c in range(0xA0, 0x100))
    chars |= set(XIANGQI) | set(SYMBOLS)
    for cat in (ROOT / "gui" / "i18n").glob("*.json"):
        for value in json.loads(cat.read_text(encoding="utf-8")).values():
            chars |= set(value)
    cjk = re.compile(r"[\u2E80-\u9FFF\uF900-\uFAFF\uFF00-\uFFEF\u3000-\u303F]")
    for path in list((ROOT / "games").glob("*.py")) + list((ROOT / "gui").rglob("*.py")):
        chars |= set(cjk.findall(path.read_text(encoding="utf-8")))
    return {c for c in chars if c.isprintable() or c == " "}


def rename(font, style: str) -> None:
    name = font["name"]
    full = f"{FAMILY} {style}" if style != "Regular" else FAMILY
    ps = f"ZeroBoardSansCJK-{style}"
    for rec in name.names:
        if rec.nameID in (1, 16):
            rec.string = FAMILY
        elif rec.nameID == 4:
            rec.string = full if style == "Regular" else f"{FAMILY} {style}"
        elif rec.nameID == 6:
            rec.string = ps
        elif rec.nameID == 3:
            rec.string = f"{ps};subset of Noto Sans CJK SC"


def build(style: str, source: str, chars: set[str]) -> Path:
    from fontTools import subset
    from fontTools.ttLib import TTFont
    font = TTFont(source, fontNumber=SC_INDEX, lazy=False)
    opts = subset.Options()
    opts.layout_features = ["kern", "liga", "locl", "palt", "vert", "vkna"]
    opts.name_IDs = ["*"]
    opts.name_languages = ["*"]
    opts.notdef_outline = True
    opts.hinting = False
    opts.desubroutinize = True
    sub = subset.Subsetter(opts)
    sub.populate(unicodes=[ord(c) for c in chars])
    sub.subset(font)
    rename(font, style)
    out = OUT / f"ZeroBoardSansCJK-{style}.otf"
    OUT.mkdir(parents=True, exist_ok=True)
    font.save(str(out))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--regular", default=SOURCES["Regular"])
    ap.add_argument("--bold", default=SOURCES["Bold"])
    args = ap.parse_args()
    chars = wanted_chars()
    for style, src in (("Regular", args.regular), ("Bold", args.bold)):
        out = build(style, src, chars)
        print(f"{out.relative_to(ROOT)}: {len(chars)} characters, {out.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
