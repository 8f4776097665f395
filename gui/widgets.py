"""Small immediate-mode widgets: scenes rebuild them from the window size every frame,
draw them, and hit-test clicks against the rectangles of the last build."""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import pygame

from gui import theme
from gui.theme import Palette


#: the smallest type a button's label shrinks to before it is cut short with an ellipsis
SMALLEST_LABEL = 11


@dataclass
class Button:
    rect: pygame.Rect
    label: str
    action: Callable[[], None] | None = None
    kind: str = "normal"  # normal | primary | ghost | danger
    enabled: bool = True
    selected: bool = False
    hint: str = ""  # keyboard shortcut, drawn faintly after the label
    size: int = 0  # font size; 0 = from the button's height

    def hit(self, pos) -> bool:
        return self.enabled and self.rect.collidepoint(pos)

    def draw(self, surface: pygame.Surface, pal: Palette, mouse=None) -> None:
        hover = self.enabled and mouse is not None and self.rect.collidepoint(mouse)
        radius = min(10, self.rect.height // 3)
        if self.kind == "primary" or self.selected:
            bg = pal.accent_hover if hover else pal.accent
            fg = pal.accent_text
        elif self.kind == "ghost":
            bg = pal.button if hover else None
            fg = pal.text if self.enabled else pal.text_faint
        elif self.kind == "danger":
            bg = theme.mix(pal.button_hover, pal.bad, 0.35) if hover else pal.button
            fg = pal.bad if self.enabled else pal.text_faint
        else:
            bg = pal.button_hover if hover else pal.button
            fg = pal.button_text
        if not self.enabled:
            bg = theme.mix(pal.panel, pal.button, 0.5) if bg is not None else None
            fg = pal.text_faint
        if bg is not None:
            theme.rounded_rect(surface, bg, self.rect, radius)
        if self.kind == "ghost" and not hover:
            theme.rounded_rect(surface, pal.panel_border, self.rect, radius, 1)
        size = self.size or max(11, min(20, int(self.rect.height * 0.42)))
        hint_w = 0
        if self.hint:
            hint_w = theme.FONTS.size(self.hint, max(9, size - 4))[0] + 8
        room = self.rect.width - 16 - hint_w
        while size > SMALLEST_LABEL and theme.FONTS.size(self.label, size, self.kind == "primary")[0] > room:
            size -= 1   # a smaller type before an ellipsis: "10 min + 3×30 s" in a narrow window
        label = theme.fit_text(self.label, size, room, bold=self.kind == "primary")
        lw = theme.FONTS.size(label, size, self.kind == "primary")[0]
        x = self.rect.centerx - (lw + hint_w) / 2
        theme.text(surface, label, (x, self.rect.centery), size, fg, bold=self.kind == "primary", anchor="midleft")
        if self.hint:
            hc = theme.mix(fg, bg or pal.panel, 0.45)
            theme.text(surface, self.hint, (x + lw + 8, self.rect.centery + 1), max(9, size - 4), hc, anchor="midleft")


def segmented(rect: pygame.Rect, options: list[tuple[str, object]], selected, on_pick,
              gap: int = 6, size: int = 0) -> list[Button]:
    """A row of buttons of which one is selected (a choice control)."""
    n = max(1, len(options))
    w = (rect.width - gap * (n - 1)) / n
    buttons = []
    for i, (label, value) in enumerate(options):
        r = pygame.Rect(round(rect.x + i * (w + gap)), rect.y, round(w), rect.height)
        buttons.append(Button(r, label, (lambda v=value: on_pick(v)), selected=(value == selected), size=size))
    return buttons


def hit_buttons(buttons, pos) -> bool:
    """Run the first enabled button under ``pos``; True when one was hit."""
    for b in reversed(buttons):  # later buttons are drawn on top
        if b.hit(pos):
            if b.action is not None:
                b.action()
            return True
    return False


def panel(surface, pal: Palette, rect, radius: int = 14) -> None:
    theme.rounded_rect(surface, pal.panel, rect, radius)
    theme.rounded_rect(surface, pal.panel_border, rect, radius, 1)


def progress_bar(surface, pal: Palette, rect, fraction: float, color=None) -> None:
    rect = pygame.Rect(rect)
    theme.rounded_rect(surface, pal.button, rect, rect.height // 2)
    f = max(0.0, min(1.0, fraction))
    if f > 0:
        fill = pygame.Rect(rect.x, rect.y, max(rect.height, int(rect.width * f)), rect.height)
        theme.rounded_rect(surface, color or pal.accent, fill, rect.height // 2)


def spinner(surface, pal: Palette, center, radius: float, t: float, color=None) -> None:
    """A rotating arc (t in seconds), so a wait is visibly alive."""
    color = color or pal.accent
    r = max(4, int(radius))
    box = pygame.Rect(0, 0, 2 * r, 2 * r)
    box.center = (int(center[0]), int(center[1]))
    start = (t * 5.0) % (2 * math.pi)
    pygame.draw.circle(surface, pal.button, box.center, r, max(2, r // 4))
    pygame.draw.arc(surface, color, box, start, start + 1.8, max(2, r // 4))


def winrate_bar(surface, pal: Palette, rect, p0: float | None, colors=None, labels=("", "")) -> None:
    """A two-colour bar: player 0's expected share on the left, player 1's on the right."""
    rect = pygame.Rect(rect)
    c0, c1 = colors or (pal.side0, pal.side1)
    radius = rect.height // 2
    if p0 is None:
        theme.rounded_rect(surface, pal.button, rect, radius)
        theme.text(surface, "–", rect.center, max(10, rect.height - 6), pal.text_faint, anchor="center")
        return
    p0 = max(0.0, min(1.0, p0))
    theme.rounded_rect(surface, c1, rect, radius)
    w = int(rect.width * p0)
    if w > 0:
        left = pygame.Rect(rect.x, rect.y, max(w, radius), rect.height)
        pygame.draw.rect(surface, c0, left, border_top_left_radius=radius, border_bottom_left_radius=radius)
    pygame.draw.line(surface, pal.panel, (rect.x + w, rect.y), (rect.x + w, rect.bottom - 1), 2)
    size = max(9, int(rect.height * 0.62))
    left, right = _bar_labels(rect.width - 16, size, p0, labels)
    # a label may straddle the boundary: each part of it is drawn in the colour that reads on
    # the part of the bar beneath it (defect: white on white at 20%, yellow on yellow)
    split = rect.x + w
    clip = surface.get_clip()
    for text, pos, anchor in ((left, (rect.x + 8, rect.centery), "midleft"),
                              (right, (rect.right - 8, rect.centery), "midright")):
        if not text:
            continue
        for part, color in ((pygame.Rect(rect.x, rect.y, w, rect.height), c0),
                            (pygame.Rect(split, rect.y, rect.right - split, rect.height), c1)):
            if part.width <= 0:
                continue
            surface.set_clip(part.clip(clip) if clip else part)
            theme.text(surface, text, pos, size, theme.readable_on(color), bold=True, anchor=anchor)
    surface.set_clip(clip)


def _bar_labels(width: int, size: int, p0: float, labels) -> tuple[str, str]:
    """The win-rate bar's two labels, shortened until they fit side by side with a gap:
    the sides' names and shares, then the shares alone, then the larger share alone."""
    a, b = round(100 * p0), 100 - round(100 * p0)
    for left, right in ((f"{labels[0]} {a}%".strip(), f"{b}% {labels[1]}".strip()), (f"{a}%", f"{b}%")):
        if theme.FONTS.size(left, size, True)[0] + theme.FONTS.size(right, size, True)[0] + 16 <= width:
            return left, right
    return (f"{a}%", "") if a >= b else ("", f"{b}%")


QUALITY_MARKS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}


def _luma(c) -> float:
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def graph_fill(background, color) -> tuple:
    """A side's area colour on the graph: its own colour toned down, except that a side as dark
    as the background (othello's and gomoku's black) gets near-black, which still shows."""
    if _luma(color) < _luma(background) + 12:
        return theme.mix(background, (0, 0, 0), 0.7)
    return theme.mix(background, color, 0.55)


def winrate_graph(surface, pal: Palette, rect, values: list, colors, current: int | None = None,
                  marks: dict | None = None, caption: str = "", mouse=None, labels=("", ""),
                  first_move: int = 1) -> pygame.Rect:
    """Player 0's win rate (0..1, None where unknown) after each move, as a filled curve
    around the 50% line, with its scale (50% marked, move numbers along the bottom):
    ``colors`` are the two sides'; ``marks`` {move index: colour} put a dot on moves that
    gave something away; ``current`` is marked with a vertical line; with the ``mouse`` over
    the plot, a readout names the move under it and both sides' win rates (``labels``: the
    sides' names). Returns the plot's rectangle (a click's x picks a move)."""
    rect = pygame.Rect(rect)
    theme.rounded_rect(surface, pal.bg2, rect, 8)
    plot = rect.inflate(-12, -12)
    plot.height -= 11   # the move numbers below
    if caption:  # top left: the analysis fills the graph in from the newest move backwards
        theme.text(surface, theme.fit_text(caption, 11, plot.width), (plot.x, plot.y - 2), 11, pal.text_faint)
    mid = plot.centery
    for frac in (0.25, 0.75):
        y = plot.bottom - plot.height * frac
        for x in range(plot.x, plot.right, 6):
            surface.fill(pal.panel_border, (x, int(y), 2, 1))
    pygame.draw.line(surface, pal.panel_border, (plot.x, mid), (plot.right, mid), 1)
    theme.text(surface, "50%", (plot.right, mid - 1), 9, pal.text_faint, anchor="bottomright")
    n = len(values)
    if n < 2:
        return plot

    def x_of(i):
        return plot.x + plot.width * i / (n - 1)

    def y_of(v):
        return plot.bottom - plot.height * v

    # move numbers: the first and last, and round numbers between where they fit
    step = next(s for s in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500, 1000, 10 ** 9)
                if plot.width * s / max(1, n - 1) >= 26)
    ticks = [0] + [i for i in range(step, n - 1, step) if x_of(n - 1) - x_of(i) >= 22] + [n - 1]
    for i in ticks:
        x = x_of(i)
        surface.fill(pal.panel_border, (int(x), plot.bottom, 1, 3))
        anchor = "midtop" if 0 < i < n - 1 else ("topleft" if i == 0 else "topright")
        theme.text(surface, str(i + first_move - 1), (x, plot.bottom + 2), 9, pal.text_faint, anchor=anchor)
    known = [(i, v) for i, v in enumerate(values) if v is not None]
    fills = [graph_fill(pal.bg2, c) for c in colors[:2]]
    # filled columns: above the middle in player 0's colour, below it in player 1's
    for (i, v), (j, u) in zip(known, known[1:]):
        if j != i + 1:
            continue
        xa, xb = x_of(i), x_of(j)
        ya, yb = y_of(v), y_of(u)
        for side, color in ((0, fills[0]), (1, fills[1])):
            pa = min(ya, mid) if side == 0 else max(ya, mid)
            pb = min(yb, mid) if side == 0 else max(yb, mid)
            poly = [(xa, mid), (xa, pa), (xb, pb), (xb, mid)]
            if abs(pa - mid) + abs(pb - mid) >= 1:
                pygame.draw.polygon(surface, color, poly)
    for (i, v), (j, u) in zip(known, known[1:]):
        color = pal.text_dim if j == i + 1 else pal.text_faint
        pygame.draw.aaline(surface, color, (x_of(i), y_of(v)), (x_of(j), y_of(u)))
    if current is not None and 0 <= current < n:
        x = x_of(current)
        pygame.draw.line(surface, pal.accent, (x, plot.y), (x, plot.bottom), 2)
    for i, color in (marks or {}).items():
        if 0 <= i < n and values[i] is not None:
            theme.disc(surface, color, (x_of(i), y_of(values[i])), 3.5)
    if mouse is not None and plot.inflate(0, 12).collidepoint(mouse):
        _graph_readout(surface, pal, plot, values, round((mouse[0] - plot.x) / max(1, plot.width) * (n - 1)),
                       x_of, y_of, labels, first_move)
    return plot


def graph_readout_text(values: list, i: int, labels=("", ""), first_move: int = 1) -> str:
    """The readout of the win-rate graph at position ``i``: "Move 12 · Black 63% · White 37%"."""
    from gui.i18n import t
    v = values[i] if 0 <= i < len(values) else None
    head = t("graph.start") if i == 0 else t("graph.move", n=i + first_move - 1)
    if v is None:
        return head + " · " + t("graph.unknown")
    a, b = round(100 * v), 100 - round(100 * v)
    return f"{head} · {labels[0]} {a}% · {labels[1]} {b}%".replace("  ", " ")


def _graph_readout(surface, pal, plot, values, i, x_of, y_of, labels, first_move) -> None:
    i = max(0, min(len(values) - 1, i))
    x = x_of(i)
    pygame.draw.line(surface, pal.text_faint, (x, plot.y), (x, plot.bottom), 1)
    if values[i] is not None:
        theme.disc(surface, pal.text, (x, y_of(values[i])), 3)
    text = graph_readout_text(values, i, labels, first_move)
    w = theme.FONTS.size(text, 11)[0] + 12
    box = pygame.Rect(0, plot.y, w, 18)
    box.x = int(min(max(plot.x, x - w / 2), plot.right - w))
    theme.rounded_rect(surface, pal.card_hover, box, 5)
    theme.text(surface, text, box.center, 11, pal.text, anchor="center")


class ConfirmDialog:
    """A small modal question with buttons; Enter picks the first, Esc the last (cancel)."""

    def __init__(self, title: str, text: str, choices: list[tuple[str, Callable[[], None], str]]):
        self.title = title
        self.text = text
        self.choices = choices  # (label, action, kind)
        self.buttons: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)

    def build(self, size) -> None:
        w, h = size
        width = min(520, w - 60)
        lines = theme.wrap_text(self.text, 15, width - 48)
        height = 150 + 21 * len(lines)
        self.rect = pygame.Rect(0, 0, width, height)
        self.rect.center = (w // 2, h // 2)
        self.lines = lines
        self.buttons = []
        n = len(self.choices)
        bw = min(200, (width - 48 - 10 * (n - 1)) // n)
        x = self.rect.right - 24 - n * bw - (n - 1) * 10
        for label, action, kind in self.choices:
            self.buttons.append(Button(pygame.Rect(x, self.rect.bottom - 24 - 40, bw, 40), label, action, kind=kind,
                                       size=15))
            x += bw + 10

    def handle_event(self, ev) -> None:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            hit_buttons(self.buttons, ev.pos)
        elif ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.choices:
                self.choices[0][1]()
            elif ev.key == pygame.K_ESCAPE and self.choices:
                self.choices[-1][1]()

    def draw(self, surface, pal: Palette, mouse) -> None:
        theme.alpha_rect(surface, (8, 9, 12), surface.get_rect(), 150)
        theme.rounded_rect(surface, pal.card, self.rect, 16)
        theme.rounded_rect(surface, pal.accent, self.rect, 16, 2)
        theme.text(surface, theme.fit_text(self.title, 20, self.rect.width - 48, True),
                   (self.rect.x + 24, self.rect.y + 22), 20, pal.text, bold=True)
        for i, line in enumerate(self.lines):
            theme.text(surface, line, (self.rect.x + 24, self.rect.y + 60 + 21 * i), 15, pal.text_dim)
        for b in self.buttons:
            b.draw(surface, pal, mouse)


def line_chart(surface, pal: Palette, rect, values: list, color, title: str, fmt: str = "{:.3g}",
               empty: str = "") -> None:
    """A small line chart of ``values`` (None entries skipped) with its title and last value."""
    rect = pygame.Rect(rect)
    panel(surface, pal, rect, 10)
    pts = [(i, v) for i, v in enumerate(values) if isinstance(v, (int, float)) and math.isfinite(v)]
    value_w = 0
    if pts:
        value_w = theme.text(surface, fmt.format(pts[-1][1]), (rect.right - 12, rect.y + 6), 16, pal.text, bold=True,
                             anchor="topright").width
    # the title on up to two lines (the first beside the value), so a long one is not cut
    first_w = rect.width - 24 - (value_w + 10 if value_w else 0)
    title_lines = theme.wrap_box(title, 14, [first_w, rect.width - 24])
    for k, line in enumerate(title_lines):
        theme.text(surface, line, (rect.x + 12, rect.y + 8 + 17 * k), 14, pal.text_dim)
    below = 17 * (len(title_lines) - 1)   # a second title line moves the plot down
    plot = pygame.Rect(rect.x + 12, rect.y + 48 + below, rect.width - 24, rect.height - 64 - below)
    if plot.width < 10 or plot.height < 10:
        return
    for i in range(4):
        y = plot.y + plot.height * i / 3
        pygame.draw.line(surface, pal.panel_border, (plot.x, y), (plot.right, y), 1)
    if len(pts) < 2:
        lines = theme.wrap_box(empty or "…", 14, [plot.width] * 2)  # a narrow chart: two lines
        for k, line in enumerate(lines):
            theme.text(surface, line, (plot.centerx, plot.centery + (k - (len(lines) - 1) / 2) * 19), 14,
                       pal.text_faint, anchor="center")
        return
    lo = min(v for _, v in pts)
    hi = max(v for _, v in pts)
    if hi - lo < 1e-9:
        lo, hi = lo - 1, hi + 1
    n = max(1, len(values) - 1)
    xy = [(plot.x + plot.width * i / n, plot.bottom - plot.height * (v - lo) / (hi - lo)) for i, v in pts]
    if len(xy) > 2 * plot.width:
        step = len(xy) / (2 * plot.width)
        xy = [xy[int(k * step)] for k in range(int(len(xy) / step))] + [xy[-1]]
    pygame.draw.aalines(surface, color, False, xy)
    pygame.draw.lines(surface, color, False, xy, 2)
    theme.text(surface, fmt.format(hi), (plot.x, plot.y - 2), 11, pal.text_faint, anchor="bottomleft")
    theme.text(surface, fmt.format(lo), (plot.x, plot.bottom + 2), 11, pal.text_faint, anchor="topleft")


class TextDialog(ConfirmDialog):
    """A `ConfirmDialog` with a one-paragraph text box under its text: typed characters go
    into ``value`` (at most ``limit``), Backspace takes one back; Enter picks the first choice."""

    BOX = 40

    def __init__(self, title: str, text: str, value: str, choices, limit: int = 500, opened_by: str = ""):
        super().__init__(title, text, choices)
        self.value = str(value)[:limit]
        self.limit = limit
        self.opened_by = opened_by   # the key that opened the dialog: its character is not typed

    def build(self, size) -> None:
        super().build(size)
        self.rect.height += self.BOX + 12
        self.rect.center = (size[0] // 2, size[1] // 2)
        for b in self.buttons:
            b.rect.bottom = self.rect.bottom - 24
        self.box = pygame.Rect(self.rect.x + 24, self.rect.y + 60 + 21 * len(self.lines) + 6,
                               self.rect.width - 48, self.BOX)

    def handle_event(self, ev) -> None:
        if ev.type == pygame.TEXTINPUT:
            if self.opened_by and ev.text.lower() == self.opened_by:
                self.opened_by = ""
                return
            self.opened_by = ""
            kept = "".join(ch for ch in ev.text if ch.isprintable())
            self.value = (self.value + kept)[:self.limit]
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_BACKSPACE:
            self.value = self.value[:-1]
        else:
            super().handle_event(ev)

    def draw(self, surface, pal: Palette, mouse) -> None:
        super().draw(surface, pal, mouse)
        theme.rounded_rect(surface, pal.bg2, self.box, 8)
        theme.rounded_rect(surface, pal.accent, self.box, 8, 1)
        shown = self.value + "|"
        while len(shown) > 1 and theme.FONTS.size(shown, 15)[0] > self.box.width - 20:
            shown = shown[1:]   # the end of a long text stays in sight, where the typing is
        theme.text(surface, shown, (self.box.x + 10, self.box.centery), 15, pal.text, anchor="midleft")
