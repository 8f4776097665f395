"""Pieces of the side panel shared by the play and demo scenes."""
from __future__ import annotations

import pygame

from gui import theme
from gui.i18n import t
from gui.widgets import progress_bar, spinner, winrate_bar


class MoveList:
    """The game's moves in numbered pairs; follows the newest move unless scrolled back."""

    ROW = 24

    def __init__(self):
        self.scroll = 0  # rows scrolled up from the bottom
        self.rect = pygame.Rect(0, 0, 0, 0)

    def wheel(self, dy: int, pos) -> bool:
        if not self.rect.collidepoint(pos):
            return False
        self.scroll = max(0, self.scroll + dy)
        return True

    def draw(self, surface, pal, rect, texts: list[str], first_player: int = 0) -> None:
        self.rect = pygame.Rect(rect)
        theme.rounded_rect(surface, pal.bg2, rect, 10)
        if not texts:
            theme.text(surface, t("play.no_moves"), (rect.x + 14, rect.y + 12), 14, pal.text_faint)
            return
        # pair moves: (number, first player's move, second player's move)
        items = ([None] + texts) if first_player == 1 else list(texts)
        rows = [(i // 2 + 1, items[i], items[i + 1] if i + 1 < len(items) else None) for i in range(0, len(items), 2)]
        visible = max(1, (rect.height - 12) // self.ROW)
        self.scroll = min(self.scroll, max(0, len(rows) - visible))
        end = len(rows) - self.scroll
        start = max(0, end - visible)
        col = (rect.width - 54) // 2
        size = 15
        clip = surface.get_clip()
        surface.set_clip(rect)
        for k, (n, a, b) in enumerate(rows[start:end]):
            y = rect.y + 8 + k * self.ROW
            last_row = start + k == len(rows) - 1
            theme.text(surface, f"{n}.", (rect.x + 40, y), size, pal.text_faint, anchor="topright")
            for j, mv in enumerate((a, b)):
                if mv is None:
                    continue
                is_last = last_row and (j == 1 or b is None)
                x = rect.x + 50 + j * col
                if is_last:
                    w = theme.FONTS.size(mv, size)[0]
                    theme.rounded_rect(surface, pal.button_hover, (x - 5, y - 2, min(col - 4, w + 10), self.ROW - 2), 5)
                theme.text(surface, theme.fit_text(mv, size, col - 10), (x, y), size,
                           pal.text if is_last else pal.text_dim)
        surface.set_clip(clip)
        if self.scroll:
            theme.text(surface, "▼", (rect.right - 10, rect.bottom - 6), 11, pal.text_faint, anchor="bottomright")


def thinking_block(surface, pal, rect, app, thinking, ai_status: str, label: str) -> None:
    """Spinner, label and progress of a running search (or of the AI starting up)."""
    spinner(surface, pal, (rect.x + 14, rect.y + 14), 10, app.time)
    if ai_status == "starting":
        secs = int(app.time_since_ai_start())
        label = t("play.ai_starting", seconds=secs)
    theme.text(surface, theme.fit_text(label, 17, rect.width - 40, True), (rect.x + 34, rect.y + 14), 17,
               pal.text, bold=True, anchor="midleft")
    progress_bar(surface, pal, (rect.x, rect.y + 36, rect.width, 8), thinking.fraction if ai_status != "starting" else 0)
    if thinking.sims and ai_status != "starting":
        theme.text(surface, t("play.sims", percent=round(100 * thinking.fraction), sims=f"{thinking.sims:,}"),
                   (rect.x, rect.y + 50), 13, pal.text_faint)


def evaluation(surface, pal, rect, value0, colors, labels, proven0=None) -> None:
    """The win-rate bar under a small caption; ``value0`` is player 0's value (-1..1) or None.
    Once the search has proved the result (``proven0``: +1, 0 or -1 for player 0) the caption
    says so: a 100% bar is then a certainty, not an estimate."""
    if proven0 is None:
        theme.text(surface, t("play.evaluation"), (rect.x, rect.y), 13, pal.text_faint)
    else:
        caption = t("play.proven_draw") if proven0 == 0 else t("play.proven_win", side=labels[0 if proven0 > 0 else 1])
        theme.text(surface, theme.fit_text(caption, 13, rect.width), (rect.x, rect.y), 13, pal.text, bold=True)
    p0 = None if value0 is None else (value0 + 1) / 2
    winrate_bar(surface, pal, (rect.x, rect.y + 20, rect.width, 22), p0, colors, labels)


def reason_text(reason: str | None) -> str:
    """The end reason in the UI language (the rules' own words when there is no translation)."""
    if not reason:
        return ""
    key = f"reason.{reason}"
    text = t(key)
    return reason if text == key else text
