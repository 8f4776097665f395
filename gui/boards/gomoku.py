"""Gomoku: stones on the intersections of a wooden 15x15 (or 9x9) board; action = row*n + col.

Coordinates follow the game's notation: column letters, row numbers from the bottom (h8 is
the centre of the 15x15 board). The winning five is marked at the end.
"""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, PointGrid, ease_out

WOOD = (219, 178, 102)
WOOD_DARK = (196, 152, 80)
INK = (58, 40, 22)
BLACK = (24, 24, 27)
WHITE = (243, 241, 233)


def go_stone(surface, color, center, radius: float, alpha: int = 255) -> None:
    r = max(2, int(radius))
    layer = pygame.Surface((2 * r + 6, 2 * r + 6), pygame.SRCALPHA)
    c = (r + 3, r + 3)
    light = color[0] > 128
    pygame.draw.aacircle(layer, (0, 0, 0, 60), (c[0] + 1, c[1] + 2), r)
    pygame.draw.aacircle(layer, theme.shade(color, 0.78) if light else theme.shade(color, 1.5), c, r)
    pygame.draw.aacircle(layer, color, c, max(1, r - max(1, r // 10)))
    hi = (c[0] - int(r * 0.32), c[1] - int(r * 0.34))
    if light:
        pygame.draw.aacircle(layer, theme.mix(color, (255, 255, 255), 0.5), hi, max(1, int(r * 0.3)))
    else:  # a soft sheen: two rings fading towards the stone's colour
        pygame.draw.aacircle(layer, theme.mix(color, (120, 120, 128), 0.35), hi, max(1, int(r * 0.3)))
        pygame.draw.aacircle(layer, theme.mix(color, (150, 150, 158), 0.45), hi, max(1, int(r * 0.16)))
    if alpha < 255:
        layer.set_alpha(alpha)
    surface.blit(layer, (int(center[0]) - r - 3, int(center[1]) - r - 3))


def five_cells(board, length: int = 5):
    """The cells of a winning line (the longest run through its first cell), or None."""
    rows, cols = board.shape
    for r in range(rows):
        for c in range(cols):
            v = int(board[r, c])
            if not v:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                pr, pc = r - dr, c - dc
                if 0 <= pr < rows and 0 <= pc < cols and int(board[pr, pc]) == v:
                    continue  # not the start of this run
                run = []
                rr, cc = r, c
                while 0 <= rr < rows and 0 <= cc < cols and int(board[rr, cc]) == v:
                    run.append((rr, cc))
                    rr, cc = rr + dr, cc + dc
                if len(run) >= length:
                    return run
    return None


class GomokuRenderer(BoardRenderer):
    VARIANTS = (("15×15", {}), ("9×9", {"size": 9}))
    THUMB_MOVES = 14
    ANIM_SECONDS = 0.16

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        self.grid = PointGrid(self.rect, self.rows, self.cols, margin=1.05, flipped=self.flipped)
        self._bg = None

    def hit_test(self, pos):
        return self.grid.point_at(pos) if hasattr(self, "grid") else None

    def target_center(self, target):
        return self.grid.point(*target)

    def anchor(self, state, action):
        cell = self.action_cell(action)
        return None if cell is None else self.grid.point(*cell)

    def star_points(self):
        n = self.rows
        if n >= 13:
            k = 3
        elif n >= 9:
            k = 2
        else:
            return [(n // 2, n // 2)] if n % 2 else []
        pts = [(k, k), (k, n - 1 - k), (n - 1 - k, k), (n - 1 - k, n - 1 - k)]
        if n % 2:
            pts.append((n // 2, n // 2))
        return pts

    def _board_surface(self, state, pal) -> pygame.Surface:
        """The empty board with lines, star points and coordinates (cached per size)."""
        key = (self.rect.size, self.flipped)
        if self._bg and self._bg[0] == key:
            return self._bg[1]
        g = self.grid
        surf = pygame.Surface(g.rect.size, pygame.SRCALPHA)
        ox, oy = g.rect.topleft
        pygame.draw.rect(surf, WOOD, surf.get_rect(), border_radius=int(g.gap * 0.3))
        # faint grain: a few darker bands
        for i in range(0, surf.get_height(), max(3, int(g.gap * 0.37))):
            shade = (i * 37 % 11) / 11
            pygame.draw.line(surf, theme.mix(WOOD, WOOD_DARK, 0.18 + 0.2 * shade), (0, i), (surf.get_width(), i + 6), 1)
        theme.round_corners(surf, int(g.gap * 0.3))   # the grain ends at the rounded edge
        pygame.draw.rect(surf, WOOD_DARK, surf.get_rect(), 2, border_radius=int(g.gap * 0.3))
        n = self.rows
        w = max(1, int(g.gap / 28))
        for i in range(n):
            a = g.point(i, 0)
            b = g.point(i, n - 1)
            pygame.draw.line(surf, INK, (a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy), w + (1 if i in (0, n - 1) else 0))
            a = g.point(0, i)
            b = g.point(n - 1, i)
            pygame.draw.line(surf, INK, (a[0] - ox, a[1] - oy), (b[0] - ox, b[1] - oy), w + (1 if i in (0, n - 1) else 0))
        for r, c in self.star_points():
            x, y = g.point(r, c)
            pygame.draw.circle(surf, INK, (int(x - ox), int(y - oy)), max(2, int(g.gap * 0.1)))
        size = max(9, int(g.gap * 0.36))
        for i in range(n):
            # labels from the game's own notation: letters for columns, numbers (from the bottom) for rows
            letter = state.action_to_text(self.cell_action(n - 1, i)).rstrip("0123456789")
            number = state.action_to_text(self.cell_action(i, 0)).lstrip("abcdefghijklmnopqrstuvwxyz")
            x, _ = g.point(0, i)
            _, y = g.point(i, 0)
            bottom = max(g.point(0, 0)[1], g.point(n - 1, 0)[1])
            left = min(g.point(0, 0)[0], g.point(0, n - 1)[0])
            # (far enough out for a stone on the edge line to leave them whole)
            theme.text(surf, letter, (x - ox, bottom - oy + g.gap * 0.72), size, INK, anchor="center")
            theme.text(surf, number, (left - ox - g.gap * 0.72, y - oy), size, INK, anchor="center")
        self._bg = (key, surf)
        return surf

    def draw_board(self, surface, state, ov):
        g = self.grid
        theme.alpha_rect(surface, (0, 0, 0), g.rect.move(0, 4), 70, int(g.gap * 0.3))
        surface.blit(self._board_surface(state, ov.palette), g.rect.topleft)

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        p = self.anim_progress(state)
        placed = self.action_cell(self.anim["action"]) if p is not None else None
        radius = g.gap * 0.46
        for r in range(self.rows):
            for c in range(self.cols):
                v = int(board[r, c])
                if v:
                    scale = 1.0
                    alpha = 255
                    if (r, c) == placed:
                        scale = 1.25 - 0.25 * ease_out(p)
                        alpha = int(120 + 135 * ease_out(p))
                    go_stone(surface, BLACK if v > 0 else WHITE, g.point(r, c), radius * scale, alpha)
        if ov.move_numbers:
            self.draw_move_numbers(surface, state, ov.numbers_from,
                                   (226, 64, 52) if not ov.palette.colorblind else ov.palette.hint)

    def draw_move_numbers(self, surface, state, first: int = 0, last_color=None) -> None:
        """Each stone's move number, in the colour that reads on it, the last move's in
        ``last_color`` (stones a set-up position placed, the first ``first`` plies, stay plain)."""
        g = self.grid
        size = max(8, int(g.gap * (0.42 if len(state.moves) < 100 else 0.34)))
        for ply, action in enumerate(state.moves):
            if ply < first or self.action_cell(action) is None:
                continue
            stone = BLACK if ply % 2 == 0 else WHITE
            last = ply == len(state.moves) - 1 and last_color is not None
            theme.text(surface, str(ply + 1 - first), g.point(*self.action_cell(action)), size,
                       last_color if last else theme.readable_on(stone), bold=True, anchor="center")

    def draw_marks(self, surface, state, ov):
        g = self.grid
        board = state.board_array()
        cell = self.action_cell(ov.last_action)
        if cell is not None and not ov.move_numbers:   # with numbers, the last one is red instead
            x, y = g.point(*cell)
            color = (226, 64, 52) if not ov.palette.colorblind else ov.palette.hint
            pygame.draw.circle(surface, color, (int(x), int(y)), max(3, int(g.gap * 0.12)))
        forbidden = getattr(state, "forbidden_actions", None)
        if ov.show_legal and forbidden is not None:   # renju: where black may not play, a small red cross
            arm = max(3, int(g.gap * 0.16))
            for a in forbidden():
                x, y = g.point(*self.action_cell(a))
                for dx in (-arm, arm):
                    pygame.draw.line(surface, (214, 58, 48), (int(x - dx), int(y - arm)), (int(x + dx), int(y + arm)),
                                     max(2, int(g.gap * 0.07)))
        if ov.hover is not None and ov.show_legal:
            a = self.hover_action(state, ov.hover)
            if a is not None:
                go_stone(surface, BLACK if state.current_player == 0 else WHITE, g.point(*self.action_cell(a)),
                         g.gap * 0.46, 110)
        if state.is_terminal() and state.winner() is not None and self.anim_progress(state) is None:
            cells = five_cells(board)
            if cells:
                stone = BLACK if state.winner() == 0 else WHITE
                for rc in cells:
                    theme.disc(surface, theme.mark_on(stone, ov.palette.win_line), g.point(*rc), g.gap * 0.5,
                               width=max(2, int(g.gap * 0.08)))
                theme.win_line(surface, stone, g.point(*cells[0]), g.point(*cells[-1]), max(3, g.gap * 0.1))

    def hint_radius(self):
        return self.grid.gap * 0.44

    def side_colors(self, pal):
        return (BLACK, WHITE)

    def side_icon(self, surface, center, radius, player, pal):
        go_stone(surface, BLACK if player == 0 else WHITE, center, radius)


RENDERER = GomokuRenderer
