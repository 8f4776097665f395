"""Othello: an 8x8 (or 6x6) green board; action = row*n + col, and n*n is the pass."""
from __future__ import annotations

import math

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, CellGrid, ease_out

BLACK = (30, 31, 34)
WHITE = (238, 237, 230)
FELT = (34, 122, 78)
FELT_CB = (34, 110, 96)
LINE = (18, 74, 46)


def stone(surface, color, center, radius: float, xscale: float = 1.0, alpha: int = 255) -> None:
    """A disc seen from above (``xscale`` < 1 while it flips over)."""
    r = max(2, int(radius))
    w = max(2, int(2 * r * max(0.04, xscale)))
    layer = pygame.Surface((2 * r + 6, 2 * r + 6), pygame.SRCALPHA)
    box = pygame.Rect(0, 0, w, 2 * r)
    box.center = (r + 3, r + 3)
    light = color[0] > 128
    pygame.draw.ellipse(layer, (0, 0, 0, 70), box.move(1, 3))
    pygame.draw.ellipse(layer, theme.shade(color, 0.82 if light else 1.6), box)
    inner = box.inflate(-max(2, w * 0.08), -max(2, r * 0.16))
    pygame.draw.ellipse(layer, color, inner)
    hi = pygame.Rect(0, 0, max(1, int(inner.width * 0.5)), max(1, int(inner.height * 0.35)))
    hi.center = (inner.centerx - inner.width * 0.12, inner.centery - inner.height * 0.2)
    pygame.draw.ellipse(layer, theme.mix(color, theme.shade(color, 1.12 if light else 2.2), 0.45 if light else 0.3), hi)
    if alpha < 255:
        layer.set_alpha(alpha)
    surface.blit(layer, (int(center[0]) - r - 3, int(center[1]) - r - 3))


class OthelloRenderer(BoardRenderer):
    VARIANTS = (("8×8", {}), ("6×6", {"size": 6}))
    THUMB_MOVES = 10
    ANIM_SECONDS = 0.32

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        n = self.rows
        # a margin of 0.6 cells around the board for coordinates and the disc count
        cell = min(self.rect.width, self.rect.height) / (n + 1.4)
        inner = pygame.Rect(0, 0, int(cell * n), int(cell * n))
        inner.center = self.rect.center
        self.grid = CellGrid(inner, n, n, pad=0, flipped=self.flipped)

    def draw_board(self, surface, state, ov):
        g = self.grid
        n = self.rows
        m = int(g.cell * 0.62)
        frame = g.rect.inflate(2 * m, 2 * m)
        theme.rounded_rect(surface, (26, 52, 38), frame, int(g.cell * 0.25))
        theme.rounded_rect(surface, FELT_CB if ov.palette.colorblind else FELT, g.rect, 4)
        for i in range(n + 1):
            x = g.x0 + i * g.cell
            y = g.y0 + i * g.cell
            pygame.draw.line(surface, LINE, (x, g.y0), (x, g.y0 + n * g.cell), 2)
            pygame.draw.line(surface, LINE, (g.x0, y), (g.x0 + n * g.cell, y), 2)
        if n == 8:
            for r, c in ((2, 2), (2, 6), (6, 2), (6, 6)):
                pygame.draw.circle(surface, LINE, (int(g.x0 + c * g.cell), int(g.y0 + r * g.cell)), max(2, int(g.cell * 0.07)))
        size = max(10, int(g.cell * 0.24))
        color = (150, 178, 160)
        for i in range(n):
            x, _ = g.center(0, i)
            _, y = g.center(i, 0)
            theme.text(surface, state.action_to_text(self.cell_action(0, i)).rstrip("0123456789"), (x, g.y0 - m / 2),
                       size, color, anchor="center")
            theme.text(surface, state.action_to_text(self.cell_action(i, 0)).lstrip("abcdefghijklmnopqrstuvwxyz"),
                       (g.x0 - m / 2, y), size, color, anchor="center")
        # the disc count, under the board
        board = state.board_array()
        black, white = int((board > 0).sum()), int((board < 0).sum())
        cy = g.rect.bottom + m / 2
        r = max(4, g.cell * 0.15)
        stone(surface, BLACK, (g.rect.x + r, cy), r)
        theme.text(surface, str(black), (g.rect.x + 2.6 * r, cy), size, (225, 228, 220), bold=True, anchor="midleft")
        stone(surface, WHITE, (g.rect.right - r, cy), r)
        theme.text(surface, str(white), (g.rect.right - 2.6 * r, cy), size, (225, 228, 220), bold=True, anchor="midright")

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        p = self.anim_progress(state)
        before = self.anim["before"].board_array() if p is not None else None
        placed = self.action_cell(self.anim["action"]) if p is not None else None
        radius = g.cell * 0.41
        for r in range(self.rows):
            for c in range(self.cols):
                v = int(board[r, c])
                if not v:
                    continue
                color = BLACK if v > 0 else WHITE
                center = g.center(r, c)
                if p is not None and (r, c) == placed:
                    stone(surface, color, center, radius * (0.7 + 0.3 * ease_out(min(1, p * 3))))
                elif p is not None and before is not None and int(before[r, c]) == -v:
                    # flipping: the old colour narrows, the new one widens
                    delay = 0.15
                    q = max(0.0, min(1.0, (p - delay) / (1 - delay)))
                    shown = (WHITE if v > 0 else BLACK) if q < 0.5 else color
                    stone(surface, shown, center, radius, abs(math.cos(math.pi * q)))
                else:
                    stone(surface, color, center, radius)

    def draw_marks(self, surface, state, ov):
        g = self.grid
        cell = self.action_cell(ov.last_action)
        if cell is not None and self.anim_progress(state) is None:
            cx, cy = g.center(*cell)
            pygame.draw.circle(surface, (228, 72, 60) if not ov.palette.colorblind else ov.palette.hint,
                               (int(cx), int(cy)), max(3, int(g.cell * 0.07)))
        if ov.show_legal and not state.is_terminal():
            mover = BLACK if state.current_player == 0 else WHITE
            hover = self.hover_action(state, ov.hover) if ov.hover is not None else None
            for a in state.legal_actions():
                cell = self.action_cell(a)
                if cell is None:
                    continue
                if a == hover:
                    stone(surface, mover, g.center(*cell), g.cell * 0.41, alpha=120)
                else:
                    theme.alpha_disc(surface, mover, g.center(*cell), g.cell * 0.12, 110)

    def hint_radius(self):
        return self.grid.cell * 0.34

    def side_colors(self, pal):
        return (BLACK, WHITE)

    def side_icon(self, surface, center, radius, player, pal):
        stone(surface, BLACK if player == 0 else WHITE, center, radius)


RENDERER = OthelloRenderer
