"""Connect Four: 7 columns x 6 rows; an action is a column and the disc drops to its bottom."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, CellGrid
from gui.boards.connect2 import shaded_disc
from gui.boards.tictactoe import winning_line

DISCS = {False: ((222, 64, 56), (244, 200, 58)), True: ((213, 94, 0), (240, 228, 66))}
FRAME = {False: (38, 86, 170), True: (52, 66, 90)}


class Connect4Renderer(BoardRenderer):
    THUMB_MOVES = 9
    ANIM_SECONDS = 0.3
    #: how far below the board its column numbers reach, in cells (see draw_board)
    LABEL_ROOM = 0.45

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        pad = max(8, min(self.rect.size) * 0.03)
        # one extra row on top: where the next disc hovers before it drops
        self.grid = CellGrid(self.rect, self.rows + 1, self.cols, pad=pad, flipped=False)
        # the column numbers under the board (down to LABEL_ROOM cells below it) stay in the
        # rectangle: where the padding is less, the board moves up
        below = self.grid.cell * self.LABEL_ROOM - pad
        if below > 0:
            fitted = pygame.Rect(self.rect.x, self.rect.y, self.rect.width, max(1, round(self.rect.height - below)))
            self.grid = CellGrid(fitted, self.rows + 1, self.cols, pad=pad, flipped=False)
        self._frame_cache = None

    def cell_center(self, r: int, c: int):
        return self.grid.center(r + 1, c)

    def board_rect(self) -> pygame.Rect:
        g = self.grid
        return pygame.Rect(round(g.x0), round(g.y0 + g.cell), round(g.cell * self.cols), round(g.cell * self.rows))

    def hit_test(self, pos):
        if not hasattr(self, "grid"):
            return None
        g = self.grid
        x, y = pos
        if not (g.x0 <= x < g.x0 + g.cell * self.cols and g.y0 <= y < g.y0 + g.cell * (self.rows + 1)):
            return None
        return int((x - g.x0) // g.cell)

    def target_center(self, target):
        return self.grid.center(0, target)

    def click(self, state, target, selection=None):
        if isinstance(target, int) and target in state.legal_actions():
            return target, None
        return None, None

    def action_cell(self, action):
        return None  # actions are columns

    def is_board_action(self, state, action) -> bool:
        return 0 <= action < self.cols

    @staticmethod
    def landing_row(board, col: int) -> int | None:
        empty = [r for r in range(board.shape[0]) if board[r, col] == 0]
        return max(empty) if empty else None

    @staticmethod
    def top_row(board, col: int) -> int | None:
        filled = [r for r in range(board.shape[0]) if board[r, col] != 0]
        return min(filled) if filled else None

    def anchor(self, state, action):
        if action is None or not 0 <= action < self.cols or not hasattr(self, "grid"):
            return None
        r = self.landing_row(state.board_array(), action)
        return self.cell_center(r if r is not None else 0, action)

    def played_anchor(self, state, action, before=None):
        """Where the disc of the move just played lies: the top one of its column."""
        if action is None or not 0 <= action < self.cols or not hasattr(self, "grid"):
            return None
        r = self.top_row(state.board_array(), action)
        return None if r is None else self.cell_center(r, action)

    def _frame(self, pal) -> pygame.Surface:
        """The blue frame with transparent holes, drawn over the discs (so drops pass behind it)."""
        key = (self.rect.size, pal.colorblind)
        if self._frame_cache and self._frame_cache[0] == key:
            return self._frame_cache[1]
        br = self.board_rect()
        g = self.grid
        pad = int(g.cell * 0.12)
        surf = pygame.Surface((br.width + 2 * pad, br.height + 2 * pad), pygame.SRCALPHA)
        color = FRAME[pal.colorblind]
        pygame.draw.rect(surf, color, surf.get_rect(), border_radius=int(g.cell * 0.22))
        pygame.draw.rect(surf, theme.shade(color, 1.15), surf.get_rect(), 2, border_radius=int(g.cell * 0.22))
        radius = g.cell * 0.39
        for r in range(self.rows):
            for c in range(self.cols):
                cx = pad + (c + 0.5) * g.cell
                cy = pad + (r + 0.5) * g.cell
                pygame.draw.circle(surf, theme.shade(color, 0.75), (cx, cy + 1), radius + 2)
                pygame.draw.circle(surf, (0, 0, 0, 0), (cx, cy), radius)
        self._frame_cache = (key, surf)
        return surf

    def draw_board(self, surface, state, ov):
        br = self.board_rect()
        g = self.grid
        theme.rounded_rect(surface, (20, 24, 32), br.inflate(g.cell * 0.1, g.cell * 0.1), int(g.cell * 0.2))
        # column numbers under the board
        for c in range(self.cols):
            x, _ = self.cell_center(self.rows - 1, c)
            theme.text(surface, str(c + 1), (x, br.bottom + g.cell * 0.16), max(10, int(g.cell * 0.2)), ov.palette.text_faint,
                       anchor="midtop")

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        colors = DISCS[ov.palette.colorblind]
        p = self.anim_progress(state)
        falling = None
        if p is not None and isinstance(self.anim.get("action"), int):
            col = self.anim["action"]
            falling = (self.top_row(board, col), col)
        for r in range(self.rows):
            for c in range(self.cols):
                v = int(board[r, c])
                if not v or falling == (r, c):
                    continue
                self._disc(surface, colors, v, self.cell_center(r, c), g.cell * 0.37, ov)
        if ov.hover is not None and ov.show_legal:
            col = self.hit_test(ov.hover)
            if col is not None and col in state.legal_actions():
                r = self.landing_row(board, col)
                x, y = self.cell_center(r, col)
                theme.alpha_rect(surface, (255, 255, 255), pygame.Rect(x - g.cell / 2, g.y0 + g.cell, g.cell, g.cell * self.rows), 22)
                self._disc(surface, colors, 1 if state.current_player == 0 else -1, (x, y), g.cell * 0.37, ov, 70)
                self._disc(surface, colors, 1 if state.current_player == 0 else -1, self.grid.center(0, col),
                           g.cell * 0.37, ov)
        if falling is not None and falling[0] is not None:
            r, c = falling
            x, y_end = self.cell_center(r, c)
            _, y_start = self.grid.center(0, c)
            t = p * p  # falling: accelerates
            y = y_start + (y_end - y_start) * t
            self._disc(surface, colors, int(board[r, c]), (x, y), g.cell * 0.37, ov)
        surface.blit(self._frame(ov.palette), (self.board_rect().x - int(g.cell * 0.12), self.board_rect().y - int(g.cell * 0.12)))

    def _disc(self, surface, colors, v, center, radius, ov, alpha=255):
        player = 0 if v > 0 else 1
        shaded_disc(surface, colors[player], center, radius, alpha)
        if ov.palette.colorblind and player == 1:  # a second cue besides colour
            pygame.draw.circle(surface, theme.shade(colors[1], 0.6), (int(center[0]), int(center[1])),
                               max(2, int(radius * 0.45)), max(1, int(radius * 0.1)))

    def draw_marks(self, surface, state, ov):
        g = self.grid
        board = state.board_array()
        if ov.last_action is not None and 0 <= ov.last_action < self.cols and self.anim_progress(state) is None:
            r = self.top_row(board, ov.last_action)
            if r is not None:
                x, y = self.cell_center(r, ov.last_action)
                under = DISCS[ov.palette.colorblind][0 if board[r, ov.last_action] > 0 else 1]
                pygame.draw.circle(surface, theme.mark_on(under, ov.palette.last_move), (int(x), int(y)),
                                   max(3, int(g.cell * 0.07)))
        if state.is_terminal() and state.winner() is not None and self.anim_progress(state) is None:
            cells = winning_line(board, 4)
            if cells:
                theme.win_line(surface, DISCS[ov.palette.colorblind][state.winner()], self.cell_center(*cells[0]),
                               self.cell_center(*cells[-1]), max(4, g.cell * 0.09))

    def hint_radius(self):
        return self.grid.cell * 0.3

    def side_colors(self, pal):
        return DISCS[pal.colorblind]

    def side_icon(self, surface, center, radius, player, pal):
        from gui.boards.base import Overlays
        self._disc(surface, DISCS[pal.colorblind], 1 if player == 0 else -1, center, radius, Overlays(palette=pal))


RENDERER = Connect4Renderer
