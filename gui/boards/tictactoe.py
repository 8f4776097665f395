"""Tic-tac-toe: a 3x3 grid of X and O (action = row*3 + col)."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, CellGrid, ease_out

X_COLORS = {False: (236, 112, 99), True: (213, 94, 0)}
O_COLORS = {False: (92, 200, 192), True: (86, 180, 233)}


def thick_line(surface, color, a, b, width: float) -> None:
    w = max(1, int(width))
    pygame.draw.line(surface, color, a, b, w)
    for p in (a, b):
        pygame.draw.circle(surface, color, (int(p[0]), int(p[1])), max(1, w // 2))


_MARKS: dict = {}
SUPERSAMPLE = 3


def _mark_surface(player: int, size: int, colorblind: bool) -> pygame.Surface:
    """X or O drawn large and scaled down smoothly (pygame has no anti-aliased thick lines)."""
    key = (player, size, colorblind)
    surf = _MARKS.get(key)
    if surf is None:
        color = (X_COLORS if player == 0 else O_COLORS)[colorblind]
        big = size * SUPERSAMPLE
        layer = pygame.Surface((big, big), pygame.SRCALPHA)
        c = big / 2
        w = max(3, big * 0.1)
        if player == 0:
            d = big * 0.27
            thick_line(layer, color, (c - d, c - d), (c + d, c + d), w)
            thick_line(layer, color, (c - d, c + d), (c + d, c - d), w)
        else:
            pygame.draw.circle(layer, color, (c, c), big * 0.29, int(w))
        surf = pygame.transform.smoothscale(layer, (size, size))
        if len(_MARKS) > 64:
            _MARKS.clear()
        _MARKS[key] = surf
    return surf


def draw_mark(surface, player: int, center, size: float, colorblind: bool, alpha: int = 255) -> None:
    """X (player 0) or O (player 1) of ``size`` (the cell's width) at ``center``."""
    s = max(4, int(size))
    img = _mark_surface(player, s, colorblind)
    if alpha < 255:
        img = img.copy()
        img.set_alpha(alpha)
    surface.blit(img, (int(center[0] - s / 2), int(center[1] - s / 2)))


def winning_line(board, length: int):
    """The cells of the first line of ``length`` equal non-empty marks, or None."""
    rows, cols = board.shape
    for r in range(rows):
        for c in range(cols):
            v = int(board[r, c])
            if not v:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                cells = [(r + i * dr, c + i * dc) for i in range(length)]
                if all(0 <= rr < rows and 0 <= cc < cols and int(board[rr, cc]) == v for rr, cc in cells):
                    return cells
    return None


class TicTacToeRenderer(BoardRenderer):
    ANIM_SECONDS = 0.18
    LINE = 3
    BOARD_BG = (40, 44, 53)
    GRID = (92, 99, 115)

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        # room around the board for the coordinates the move list uses (a-c, 1-3)
        self.grid = CellGrid(self.rect, self.rows, self.cols, pad=max(18, min(self.rect.size) * 0.1),
                             flipped=self.flipped)

    def draw_board(self, surface, state, ov):
        g = self.grid
        bg = g.rect.inflate(g.cell * 0.2, g.cell * 0.2)
        theme.rounded_rect(surface, self.BOARD_BG, bg, int(g.cell * 0.12))
        if g.cell >= 40:  # not on the small home-screen pictures
            size = max(11, int(g.cell * 0.11))
            for c in range(self.cols):
                x, _ = g.center(0, c)
                theme.text(surface, "abc"[c], (x, bg.bottom + 4), size, ov.palette.text_faint, anchor="midtop")
            for r in range(self.rows):
                _, y = g.center(r, 0)
                theme.text(surface, str(r + 1), (bg.x - 8, y), size, ov.palette.text_faint, anchor="midright")
        w = max(2, g.cell * 0.045)
        inset = g.cell * 0.12
        for i in range(1, self.cols):
            x = g.x0 + i * g.cell
            thick_line(surface, self.GRID, (x, g.y0 + inset), (x, g.y0 + self.rows * g.cell - inset), w)
        for i in range(1, self.rows):
            y = g.y0 + i * g.cell
            thick_line(surface, self.GRID, (g.x0 + inset, y), (g.x0 + self.cols * g.cell - inset, y), w)

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        p = self.anim_progress(state)
        last = self.action_cell(self.anim["action"]) if p is not None else None
        for r in range(self.rows):
            for c in range(self.cols):
                v = int(board[r, c])
                if not v:
                    continue
                size = g.cell
                alpha = 255
                if last == (r, c):
                    size = g.cell * (0.55 + 0.45 * ease_out(p))
                    alpha = int(80 + 175 * ease_out(p))
                draw_mark(surface, 0 if v > 0 else 1, g.center(r, c), size, ov.palette.colorblind, alpha)

    def draw_marks(self, surface, state, ov):
        g = self.grid
        cell = self.action_cell(ov.last_action)
        if cell is not None and not ov.game_over:
            cx, cy = g.center(*cell)
            pygame.draw.circle(surface, ov.palette.last_move, (int(cx), int(cy + g.cell * 0.38)),
                               max(2, int(g.cell * 0.035)))
        if ov.hover is not None and ov.show_legal:
            action = self.hover_action(state, ov.hover)
            if action is not None:
                r, c = self.action_cell(action)
                theme.alpha_rect(surface, (255, 255, 255), g.cell_rect(r, c).inflate(-g.cell * 0.1, -g.cell * 0.1),
                                 18, int(g.cell * 0.1))
                draw_mark(surface, state.current_player, g.center(r, c), g.cell, ov.palette.colorblind, 90)
        if state.is_terminal() and state.winner() is not None:
            cells = winning_line(state.board_array(), self.LINE)
            if cells:
                a, b = g.center(*cells[0]), g.center(*cells[-1])
                dx, dy = (b[0] - a[0]), (b[1] - a[1])
                ext = 0.3 / max(1, len(cells) - 1)
                a = (a[0] - dx * ext, a[1] - dy * ext)
                b = (b[0] + dx * ext, b[1] + dy * ext)
                color = (X_COLORS if state.winner() == 0 else O_COLORS)[ov.palette.colorblind]
                theme.win_line(surface, color, a, b, max(4, g.cell * 0.07))

    def side_colors(self, pal):
        return (X_COLORS[pal.colorblind], O_COLORS[pal.colorblind])

    def side_icon(self, surface, center, radius, player, pal):
        draw_mark(surface, player, center, radius * 2.6, pal.colorblind)


RENDERER = TicTacToeRenderer
