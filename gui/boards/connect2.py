"""connect2: a 1x4 strip of cells (action = cell 0..3), drawn as discs."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, CellGrid, ease_out
from gui.boards.tictactoe import winning_line

DISC = {False: ((236, 112, 99), (92, 200, 192)), True: ((230, 159, 0), (0, 114, 178))}


def shaded_disc(surface, color, center, radius: float, alpha: int = 255) -> None:
    """A disc with a soft rim and highlight, so it reads as a piece rather than a dot."""
    r = max(2, int(radius))
    layer = pygame.Surface((2 * r + 4, 2 * r + 4), pygame.SRCALPHA)
    c = (r + 2, r + 2)
    pygame.draw.aacircle(layer, theme.shade(color, 0.72), c, r)
    pygame.draw.aacircle(layer, color, c, max(1, int(r * 0.9)))
    pygame.draw.aacircle(layer, theme.shade(color, 1.18), (c[0] - int(r * 0.12), c[1] - int(r * 0.14)),
                         max(1, int(r * 0.55)))
    pygame.draw.aacircle(layer, color, (c[0] - int(r * 0.04), c[1] - int(r * 0.05)), max(1, int(r * 0.5)))
    if alpha < 255:
        layer.set_alpha(alpha)
    surface.blit(layer, (int(center[0]) - r - 2, int(center[1]) - r - 2))


class Connect2Renderer(BoardRenderer):
    ANIM_SECONDS = 0.18
    BOARD_BG = (40, 44, 53)
    SLOT = (56, 61, 72)

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        self.grid = CellGrid(self.rect, self.rows, self.cols, pad=max(10, min(self.rect.size) * 0.05),
                             flipped=self.flipped)

    def draw_board(self, surface, state, ov):
        g = self.grid
        theme.rounded_rect(surface, self.BOARD_BG, g.rect.inflate(g.cell * 0.24, g.cell * 0.24), int(g.cell * 0.2))
        for c in range(self.cols):
            rect = g.cell_rect(0, c).inflate(-g.cell * 0.08, -g.cell * 0.08)
            theme.rounded_rect(surface, self.SLOT, rect, int(g.cell * 0.16))
            label_pos = (rect.centerx, rect.bottom - g.cell * 0.1)
            theme.text(surface, str(c + 1), label_pos, max(9, int(g.cell * 0.13)), (120, 126, 140), anchor="midbottom")

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        p = self.anim_progress(state)
        last = self.action_cell(self.anim["action"]) if p is not None else None
        colors = DISC[ov.palette.colorblind]
        for c in range(self.cols):
            v = int(board[0, c])
            if v:
                scale = 0.6 + 0.4 * ease_out(p) if last == (0, c) else 1.0
                shaded_disc(surface, colors[0 if v > 0 else 1], g.center(0, c), g.cell * 0.34 * scale)

    def draw_marks(self, surface, state, ov):
        g = self.grid
        cell = self.action_cell(ov.last_action)
        if cell is not None:
            cx, cy = g.center(*cell)
            under = DISC[ov.palette.colorblind][0 if state.board_array()[cell] > 0 else 1]
            pygame.draw.circle(surface, theme.mark_on(under, ov.palette.last_move), (int(cx), int(cy)),
                               max(3, int(g.cell * 0.06)))
        if ov.hover is not None and ov.show_legal:
            action = self.hover_action(state, ov.hover)
            if action is not None:
                shaded_disc(surface, DISC[ov.palette.colorblind][state.current_player],
                            g.center(0, action), g.cell * 0.34, 90)
        if state.is_terminal() and state.winner() is not None:
            cells = winning_line(state.board_array(), 2)
            if cells:
                theme.win_line(surface, DISC[ov.palette.colorblind][state.winner()], g.center(*cells[0]),
                               g.center(*cells[-1]), max(4, g.cell * 0.07))

    def side_colors(self, pal):
        return DISC[pal.colorblind]

    def side_icon(self, surface, center, radius, player, pal):
        shaded_disc(surface, DISC[pal.colorblind][player], center, radius)


RENDERER = Connect2Renderer
