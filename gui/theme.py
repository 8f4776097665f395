"""Colours, fonts and small drawing helpers shared by scenes and board renderers.

Two palettes: the default calm dark theme and a colour-blind-safe one built on the
Okabe-Ito colours. Board renderers pick their own piece colours but take highlight
colours (last move, legal moves, hints, selection) from the active palette.
"""
from __future__ import annotations

import re
from collections import OrderedDict
from dataclasses import dataclass

import pygame

from engine.core.paths import assets_dir

Color = tuple[int, int, int]

# Okabe-Ito: distinguishable with every common form of colour blindness
OKABE_ITO = {
    "orange": (230, 159, 0), "sky": (86, 180, 233), "green": (0, 158, 115),
    "yellow": (240, 228, 66), "blue": (0, 114, 178), "vermillion": (213, 94, 0),
    "purple": (204, 121, 167), "black": (0, 0, 0),
}


@dataclass(frozen=True)
class Palette:
    colorblind: bool
    bg: Color = (22, 24, 29)
    bg2: Color = (30, 33, 40)
    panel: Color = (33, 36, 43)
    panel_border: Color = (50, 54, 64)
    card: Color = (38, 41, 49)
    card_hover: Color = (47, 51, 61)
    text: Color = (234, 232, 227)
    text_dim: Color = (165, 168, 177)
    text_faint: Color = (112, 116, 127)
    button: Color = (49, 53, 63)
    button_hover: Color = (61, 66, 78)
    button_text: Color = (228, 226, 221)
    accent: Color = (226, 170, 84)
    accent_hover: Color = (238, 187, 106)
    accent_text: Color = (30, 26, 20)
    good: Color = (110, 190, 120)
    bad: Color = (232, 112, 104)
    # board highlights
    last_move: Color = (240, 196, 80)
    legal: Color = (120, 200, 140)
    hint: Color = (90, 190, 240)
    selection: Color = (250, 215, 90)
    win_line: Color = (240, 80, 70)
    # the two sides in charts and win-rate bars
    side0: Color = (226, 170, 84)
    side1: Color = (96, 160, 220)
    # move quality in review (the move list adds ?!, ? and ?? for those who cannot tell colours)
    inaccuracy: Color = (222, 200, 96)
    mistake: Color = (236, 142, 62)
    blunder: Color = (232, 84, 84)


DEFAULT_PALETTE = Palette(colorblind=False)
COLORBLIND_PALETTE = Palette(
    colorblind=True,
    accent=OKABE_ITO["orange"], accent_hover=(240, 180, 40),
    good=OKABE_ITO["green"], bad=OKABE_ITO["vermillion"],
    last_move=OKABE_ITO["yellow"], legal=OKABE_ITO["green"], hint=OKABE_ITO["sky"],
    selection=OKABE_ITO["yellow"], win_line=OKABE_ITO["purple"],
    side0=OKABE_ITO["orange"], side1=OKABE_ITO["blue"],
    inaccuracy=OKABE_ITO["yellow"], mistake=OKABE_ITO["orange"], blunder=OKABE_ITO["purple"],
)


_active = {"colorblind": False}


def palette(colorblind: bool) -> Palette:
    """The palette, which becomes the active one (side names follow its colours)."""
    _active["colorblind"] = bool(colorblind)
    return COLORBLIND_PALETTE if colorblind else DEFAULT_PALETTE


def colorblind_active() -> bool:
    return _active["colorblind"]


# --- fonts ----------------------------------------------------------------

FONT_FILES = {False: "ZeroBoardSansCJK-Regular.otf", True: "ZeroBoardSansCJK-Bold.otf"}


class Fonts:
    """Font objects by (size, bold), loaded on first use; pygame's default font if the bundled one is missing."""

    def __init__(self):
        self._fonts: dict[tuple[int, bool], pygame.font.Font] = {}
        self._text: OrderedDict = OrderedDict()

    def get(self, size: int, bold: bool = False) -> pygame.font.Font:
        size = max(6, int(size))
        key = (size, bold)
        font = self._fonts.get(key)
        if font is None:
            if not pygame.font.get_init():
                pygame.font.init()
            path = assets_dir() / "fonts" / FONT_FILES[bold]
            if not path.exists():
                path = assets_dir() / "fonts" / FONT_FILES[False]
            try:
                font = pygame.font.Font(str(path), size)
                if bold and not path.name.endswith("Bold.otf"):
                    font.bold = True
            except (OSError, pygame.error, FileNotFoundError):
                font = pygame.font.Font(None, int(size * 1.3))
                font.bold = bold
            self._fonts[key] = font
        return font

    def render(self, text: str, size: int, color: Color, bold: bool = False) -> pygame.Surface:
        """Rendered text, cached (the same labels are drawn every frame)."""
        key = (text, int(size), tuple(color), bold)
        surf = self._text.get(key)
        if surf is not None:
            self._text.move_to_end(key)
            return surf
        surf = self.get(size, bold).render(text, True, color)
        self._text[key] = surf
        if len(self._text) > 1500:
            self._text.popitem(last=False)
        return surf

    def size(self, text: str, size: int, bold: bool = False) -> tuple[int, int]:
        return self.get(size, bold).size(text)


FONTS = Fonts()


def text(surface: pygame.Surface, s: str, pos, size: int, color: Color, bold: bool = False,
         anchor: str = "topleft") -> pygame.Rect:
    """Draw ``s`` with its ``anchor`` point (a pygame.Rect attribute name) at ``pos``."""
    img = FONTS.render(s, size, color, bold)
    rect = img.get_rect(**{anchor: (int(pos[0]), int(pos[1]))})
    surface.blit(img, rect)
    return rect


def fit_text(s: str, size: int, max_width: int, bold: bool = False) -> str:
    """``s`` shortened with an ellipsis to fit ``max_width`` pixels."""
    if max_width <= 0:
        return ""
    if FONTS.size(s, size, bold)[0] <= max_width:
        return s
    while s and FONTS.size(s + "…", size, bold)[0] > max_width:
        s = s[:-1]
    return s + "…" if s else ""


#: Chinese, Japanese and Korean characters and their full-width punctuation
_CJK = "\u2E80-\u9FFF\u3000-\u303F\uAC00-\uD7AF\uFF00-\uFFEF"
#: punctuation that never begins a line
_CLOSING = "、，。；：！？）」』】》〉”’…%"
#: punctuation that never ends a line
_OPENING = "（「『【《〈“‘"
#: the pieces a line may break between: a word (letters, digits; a rating with its margin,
#: "1606 ± 447", is one word) with the spaces after it and the character it is written against
#: ("29 局", "Rapfi（快"), or one CJK character with the opening punctuation before it and the
#: closing punctuation after it ("“最", "练”"); text is never broken inside a number or a word,
#: after an opening mark or before a closing one ("447（2局后）" breaks before its "（")
_WORD = rf"[^\s{_CJK}]+(?:\s+±\s+[^\s{_CJK}]+)*"
_TOKEN_RE = re.compile(rf"[{_OPENING}]*{_WORD}\s*(?:[{_OPENING}]*(?![{_OPENING}])[{_CJK}][{_CLOSING}]*\s*)?"
                       rf"|[{_OPENING}]*[{_CJK}][{_CLOSING}]*\s*|\s+")


def _tokens(s: str) -> list[str]:
    return _TOKEN_RE.findall(s)


_LONE_CJK_RE = re.compile(rf"[{_OPENING}]*[{_CJK}][{_CLOSING}]*\s*")


def _keep_last_company(rows: list[list[str]], width: int, size: int, bold: bool) -> None:
    """Where the last of ``rows`` (lines as tokens) is one CJK character alone ("左" / "右"), the
    character before it goes down with it, if the two fit ``width`` and the line above keeps a token."""
    if len(rows) < 2 or len(rows[-1]) != 1 or len(rows[-2]) < 2:
        return
    above, last = rows[-2], rows[-1]
    if (_LONE_CJK_RE.fullmatch(last[0]) and _LONE_CJK_RE.fullmatch(above[-1])
            and FONTS.size((above[-1] + last[0]).rstrip(), size, bold)[0] <= width):
        last.insert(0, above.pop())


def wrap_text(s: str, size: int, max_width: int, bold: bool = False) -> list[str]:
    """Lines of ``s`` that fit ``max_width``; breaks at spaces, or between CJK characters
    (never inside a word or a number, nor before closing punctuation). A paragraph does not end
    in one CJK character alone (`_keep_last_company`)."""
    lines: list[str] = []
    for para in s.split("\n"):
        rows: list[list[str]] = [[]]
        line = ""   # rows[-1] joined
        for tok in _tokens(para):
            if not line.strip() or FONTS.size((line + tok).rstrip(), size, bold)[0] <= max_width:
                rows[-1].append(tok)
                line += tok
            else:
                line = tok.lstrip()
                rows.append([line])
        _keep_last_company(rows, max_width, size, bold)
        lines.extend("".join(row).rstrip() for row in rows)
    return lines


def wrap_box(s: str, size: int, widths: list[int], bold: bool = False) -> list[str]:
    """``s`` wrapped into at most ``len(widths)`` lines, line i at most ``widths[i]`` pixels
    wide (a line beside a button is shorter); text that does not fit ends in an ellipsis. Text
    that fits does not end in one CJK character alone (`_keep_last_company`)."""
    if not widths:
        return []
    tokens = _tokens(s.replace("\n", " ").strip())
    rows: list[list[str]] = []
    i = 0
    while i < len(tokens) and len(rows) < len(widths):
        width = widths[len(rows)]
        line = tokens[i].lstrip()   # row joined
        row = [line]
        i += 1
        while i < len(tokens) and FONTS.size((line + tokens[i]).rstrip(), size, bold)[0] <= width:
            row.append(tokens[i])
            line += tokens[i]
            i += 1
        rows.append(row)
    if i < len(tokens):  # more text than room: the last line says so
        rest = "".join(rows[-1] + tokens[i:]).rstrip()
        rows[-1] = [fit_text(rest, size, widths[len(rows) - 1], bold)]
    else:
        _keep_last_company(rows, widths[len(rows) - 1], size, bold)
    return [fit_text("".join(row).rstrip(), size, widths[k], bold) for k, row in enumerate(rows)]


def rounded_rect(surface: pygame.Surface, color, rect, radius: int = 8, width: int = 0) -> None:
    pygame.draw.rect(surface, color, rect, width=width, border_radius=max(0, int(radius)))


def round_corners(surface: pygame.Surface, radius: int) -> None:
    """Make ``surface`` (with per-pixel alpha) transparent outside a rectangle of its size with
    corners of ``radius``: texture drawn edge to edge (wood grain) then stays inside a rounded board."""
    mask = pygame.Surface(surface.get_size(), pygame.SRCALPHA)
    pygame.draw.rect(mask, (255, 255, 255, 255), mask.get_rect(), border_radius=max(0, int(radius)))
    surface.blit(mask, (0, 0), special_flags=pygame.BLEND_RGBA_MIN)


def alpha_rect(surface: pygame.Surface, color, rect, alpha: int, radius: int = 0) -> None:
    rect = pygame.Rect(rect)
    if rect.width <= 0 or rect.height <= 0:
        return
    layer = pygame.Surface(rect.size, pygame.SRCALPHA)
    pygame.draw.rect(layer, (*color[:3], alpha), layer.get_rect(), border_radius=radius)
    surface.blit(layer, rect.topleft)


def disc(surface: pygame.Surface, color, center, radius: float, width: int = 0) -> None:
    """An anti-aliased filled circle (or ring with ``width``)."""
    r = max(1, int(radius))
    c = (int(center[0]), int(center[1]))
    if width:
        pygame.draw.circle(surface, color, c, r, width)
        pygame.draw.aacircle(surface, color, c, r, 1)
    else:
        pygame.draw.aacircle(surface, color, c, r)


def alpha_disc(surface: pygame.Surface, color, center, radius: float, alpha: int) -> None:
    r = max(1, int(radius))
    layer = pygame.Surface((2 * r + 2, 2 * r + 2), pygame.SRCALPHA)
    pygame.draw.aacircle(layer, (*color[:3], alpha), (r + 1, r + 1), r)
    surface.blit(layer, (int(center[0]) - r - 1, int(center[1]) - r - 1))


def shade(color, factor: float) -> Color:
    """Lighter (factor > 1) or darker (< 1) version of a colour."""
    if factor >= 1:
        f = factor - 1
        return tuple(int(c + (255 - c) * min(1, f)) for c in color[:3])
    return tuple(int(c * factor) for c in color[:3])


def mix(a, b, t: float) -> Color:
    return tuple(int(a[i] + (b[i] - a[i]) * t) for i in range(3))


def mark_on(color, preferred=None) -> Color:
    """A mark's colour that shows on a piece of ``color``: ``preferred`` (the palette's
    highlight) on dark and mid pieces, near-black on light ones (yellow discs, white stones)."""
    r, g, b = color[:3]
    if (0.299 * r + 0.587 * g + 0.114 * b) > 150:
        return (28, 28, 34)
    return tuple(preferred[:3]) if preferred is not None else (250, 250, 250)


def win_line(surface, piece_color, a, b, width: float) -> None:
    """The line through a winning row, in a colour that contrasts with the winner's pieces,
    edged in the opposite tone so it reads on the board as well."""
    inner = mark_on(piece_color, (250, 250, 250))
    outer = (250, 250, 250) if inner[0] < 128 else (24, 24, 28)
    w = max(2, int(width))
    for color, ww in ((outer, w + 4), (inner, w)):
        pygame.draw.line(surface, color, a, b, ww)
        for p in (a, b):
            pygame.draw.circle(surface, color, (int(p[0]), int(p[1])), max(1, ww // 2))


def readable_on(color) -> Color:
    """Black or white, whichever reads better on ``color``."""
    r, g, b = color[:3]
    return (20, 20, 20) if (0.299 * r + 0.587 * g + 0.114 * b) > 150 else (245, 245, 245)
