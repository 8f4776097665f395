"""Xiangqi: 9 files x 10 ranks of points, river, palaces, round pieces with characters.

Moves take two clicks: a piece of the side to move, then one of its destinations. Actions
are relative to the side to move, so they are never computed here: the state names each
legal action's squares (`action_squares`, ICCS coordinates), and the click is matched
against those. The board turns round when the person plays Black.
"""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import BoardRenderer, PointGrid, ease_out, hint_label

ROWS, COLS = 10, 9
PAPER = (236, 203, 148)
PAPER_DARK = (214, 176, 116)
INK = (96, 58, 30)
FACE = (246, 230, 196)
EDGE = (164, 120, 66)
CHARS = {1: "帥", 2: "仕", 3: "相", 4: "傌", 5: "俥", 6: "炮", 7: "兵",
         -1: "將", -2: "士", -3: "象", -4: "馬", -5: "車", -6: "砲", -7: "卒"}
SIDE = {False: ((186, 32, 30), (30, 30, 32)), True: ((213, 94, 0), (0, 84, 150))}
RED_NUMERALS = "九八七六五四三二一"  # Red's files, numbered from Red's right


def _squares(state, action):
    """((row, col), (row, col)) of an action in board_array coordinates."""
    try:
        (ff, fr), (tf, tr) = state.action_squares(action)
    except AttributeError:  # a state without the helper: read the ICCS text (e.g. "h2e2")
        text = state.action_to_text(action)
        ff, fr, tf, tr = ord(text[0]) - 97, int(text[1]), ord(text[2]) - 97, int(text[3])
    return (ROWS - 1 - fr, ff), (ROWS - 1 - tr, tf)


class XiangqiRenderer(BoardRenderer):
    FLIP_FOR_SECOND = True
    THUMB_MOVES = 6
    ANIM_SECONDS = 0.22

    def layout(self, rect):
        self.rect = pygame.Rect(rect)
        self.grid = PointGrid(self.rect, ROWS, COLS, margin=0.95, flipped=self.flipped)
        self._bg = None
        self._pieces = {}

    def hit_test(self, pos):
        return self.grid.point_at(pos) if hasattr(self, "grid") else None

    def target_center(self, target):
        return self.grid.point(*target)

    # --- moves ----------------------------------------------------------------------
    def moves_by_square(self, state) -> dict:
        """{from (row, col): {to (row, col): action}} for the side to move (cached per state)."""
        cache = getattr(self, "_moves_cache", None)
        if cache is not None and cache[0] is state:
            return cache[1]
        out: dict = {}
        for a in state.legal_actions():
            f, t = _squares(state, a)
            out.setdefault(f, {})[t] = a
        self._moves_cache = (state, out)
        return out

    def click(self, state, target, selection=None):
        if target is None or state.is_terminal():
            return None, None
        moves = self.moves_by_square(state)
        if selection is not None and target in moves.get(selection, {}):
            return moves[selection][target], None
        if target in moves:
            return None, (None if target == selection else target)  # pick up (or put back) a piece
        return None, None

    def hover_action(self, state, pos):
        return None

    def anchor(self, state, action):
        try:
            return self.grid.point(*_squares(state, action)[1])
        except Exception:
            return None

    def action_cell(self, action):
        return None  # actions are moves, not cells; see anchor

    def is_board_action(self, state, action) -> bool:
        return True

    # --- board ----------------------------------------------------------------------
    def _board_surface(self, pal) -> pygame.Surface:
        key = (self.rect.size, self.flipped, pal.colorblind)
        if self._bg and self._bg[0] == key:
            return self._bg[1]
        g = self.grid
        surf = pygame.Surface(g.rect.size, pygame.SRCALPHA)
        ox, oy = g.rect.topleft
        P = lambda r, c: (g.point(r, c)[0] - ox, g.point(r, c)[1] - oy)
        pygame.draw.rect(surf, PAPER, surf.get_rect(), border_radius=int(g.gap * 0.25))
        for i in range(0, surf.get_height(), max(3, int(g.gap * 0.3))):
            k = (i * 53 % 13) / 13
            pygame.draw.line(surf, theme.mix(PAPER, PAPER_DARK, 0.15 + 0.25 * k), (0, i), (surf.get_width(), i + 4), 1)
        theme.round_corners(surf, int(g.gap * 0.25))   # the grain ends at the rounded edge
        pygame.draw.rect(surf, PAPER_DARK, surf.get_rect(), 2, border_radius=int(g.gap * 0.25))
        w = max(1, int(g.gap / 30))
        # outer double frame
        tl, br = P(0, 0), P(ROWS - 1, COLS - 1)
        x0, x1 = min(tl[0], br[0]), max(tl[0], br[0])
        y0, y1 = min(tl[1], br[1]), max(tl[1], br[1])
        o = g.gap * 0.14
        pygame.draw.rect(surf, INK, pygame.Rect(x0 - o, y0 - o, x1 - x0 + 2 * o, y1 - y0 + 2 * o), max(2, w + 1))
        pygame.draw.rect(surf, INK, pygame.Rect(x0, y0, x1 - x0, y1 - y0), w)
        for r in range(ROWS):
            pygame.draw.line(surf, INK, P(r, 0), P(r, COLS - 1), w)
        for c in range(COLS):
            if c in (0, COLS - 1):
                pygame.draw.line(surf, INK, P(0, c), P(ROWS - 1, c), w)
            else:  # the river interrupts the inner files
                pygame.draw.line(surf, INK, P(0, c), P(4, c), w)
                pygame.draw.line(surf, INK, P(5, c), P(ROWS - 1, c), w)
        for r0 in (0, 7):  # palaces
            pygame.draw.line(surf, INK, P(r0, 3), P(r0 + 2, 5), w)
            pygame.draw.line(surf, INK, P(r0, 5), P(r0 + 2, 3), w)
        # position marks at the cannon and soldier points
        marks = [(2, 1), (2, 7), (7, 1), (7, 7)] + [(r, c) for r in (3, 6) for c in (0, 2, 4, 6, 8)]
        d, L = g.gap * 0.08, g.gap * 0.2
        for r, c in marks:
            x, y = P(r, c)
            for sx in (-1, 1):
                vc = c + sx if not self.flipped else c - sx
                if not 0 <= vc < COLS:
                    continue
                for sy in (-1, 1):
                    cx, cy = x + sx * d, y + sy * d
                    pygame.draw.line(surf, INK, (cx, cy), (cx + sx * L, cy), w)
                    pygame.draw.line(surf, INK, (cx, cy), (cx, cy + sy * L), w)
        # the river's words, always upright for the viewer
        ya = (P(4, 0)[1] + P(5, 0)[1]) / 2
        size = max(10, int(g.gap * 0.52))
        left = "楚 河" if not self.flipped else "漢 界"
        right = "漢 界" if not self.flipped else "楚 河"
        theme.text(surf, left, (x0 + (x1 - x0) * 0.25, ya), size, INK, bold=True, anchor="center")
        theme.text(surf, right, (x0 + (x1 - x0) * 0.75, ya), size, INK, bold=True, anchor="center")
        # file numbers: Red's in Chinese numerals on Red's side, Black's in digits on Black's side
        nsize = max(9, int(g.gap * 0.3))
        for c in range(COLS):
            xr, yr = P(ROWS - 1, c)
            xb, yb = P(0, c)
            off = g.gap * 0.62
            theme.text(surf, RED_NUMERALS[c], (xr, yr + (off if not self.flipped else -off)), nsize, INK, anchor="center")
            theme.text(surf, str(c + 1), (xb, yb + (-off if not self.flipped else off)), nsize, INK, anchor="center")
        self._bg = (key, surf)
        return surf

    def draw_board(self, surface, state, ov):
        g = self.grid
        theme.alpha_rect(surface, (0, 0, 0), g.rect.move(0, 5), 80, int(g.gap * 0.25))
        surface.blit(self._board_surface(ov.palette), g.rect.topleft)

    def _piece(self, code: int, radius: int, pal, lifted: bool = False) -> pygame.Surface:
        key = (code, radius, pal.colorblind, lifted)
        surf = self._pieces.get(key)
        if surf is None:
            r = radius
            surf = pygame.Surface((2 * r + 8, 2 * r + 8), pygame.SRCALPHA)
            c = (r + 4, r + 3)
            color = SIDE[pal.colorblind][0 if code > 0 else 1]
            face = FACE if not pal.colorblind else (theme.mix(FACE, (255, 214, 170), 0.35) if code > 0 else
                                                     theme.mix(FACE, (200, 220, 240), 0.35))
            pygame.draw.aacircle(surf, (0, 0, 0, 90 if lifted else 70), (c[0] + 1, c[1] + (5 if lifted else 3)), r)
            pygame.draw.aacircle(surf, EDGE, c, r)
            pygame.draw.aacircle(surf, face, c, r - max(2, r // 9))
            pygame.draw.circle(surf, color, c, int(r * 0.8), max(1, r // 16))
            pygame.draw.aacircle(surf, color, c, int(r * 0.8), 1)
            theme.text(surf, CHARS.get(code, "?"), (c[0], c[1] - r * 0.04), int(r * 1.08), color, bold=True, anchor="center")
            if len(self._pieces) > 200:
                self._pieces.clear()
            self._pieces[key] = surf
        return surf

    def _blit_piece(self, surface, code, center, radius, pal, lifted=False):
        img = self._piece(code, int(radius), pal, lifted)
        dy = -3 if lifted else 0
        surface.blit(img, (int(center[0]) - int(radius) - 4, int(center[1]) - int(radius) - 3 + dy))

    def draw_pieces(self, surface, state, ov):
        board = state.board_array()
        g = self.grid
        radius = g.gap * 0.45
        p = self.anim_progress(state)
        moving = None
        if p is not None:
            try:
                moving = _squares(self.anim["before"], self.anim["action"])
            except Exception:
                moving = None
        for r in range(ROWS):
            for c in range(COLS):
                v = int(board[r, c])
                if not v or (moving and (r, c) == moving[1]):
                    continue
                self._blit_piece(surface, v, g.point(r, c), radius, ov.palette, lifted=(ov.selection == (r, c)))
        if moving:
            (fr, fc), (tr, tc) = moving
            a, b = g.point(fr, fc), g.point(tr, tc)
            e = ease_out(p)
            v = int(board[tr, tc])
            if v:
                self._blit_piece(surface, v, (a[0] + (b[0] - a[0]) * e, a[1] + (b[1] - a[1]) * e), radius, ov.palette,
                                 lifted=True)

    def draw_marks(self, surface, state, ov):
        g = self.grid
        pal = ov.palette
        if ov.last_action is not None and len(state.moves) and self.anim_progress(state) is None:
            squares = self._last_squares(state, ov.before)
            if squares:
                for rc in squares:
                    self._corners(surface, g.point(*rc), g.gap * 0.5, pal.last_move)
        # the general in check glows
        try:
            in_check = state.is_check() and not state.is_terminal()
        except AttributeError:
            in_check = False
        if in_check:
            board = state.board_array()
            code = 1 if state.current_player == 0 else -1
            for r in range(ROWS):
                for c in range(COLS):
                    if int(board[r, c]) == code:
                        theme.disc(surface, pal.bad, g.point(r, c), g.gap * 0.52, width=max(3, int(g.gap * 0.07)))
        if ov.selection is not None and ov.show_legal:
            sel = ov.selection
            theme.disc(surface, pal.selection, g.point(*sel), g.gap * 0.5, width=max(2, int(g.gap * 0.06)))
            board = state.board_array()
            for to in self.moves_by_square(state).get(sel, {}):
                x, y = g.point(*to)
                if int(board[to]) != 0:
                    theme.disc(surface, pal.legal, (x, y), g.gap * 0.48, width=max(2, int(g.gap * 0.07)))
                else:
                    theme.alpha_disc(surface, pal.legal, (x, y), g.gap * 0.14, 230)
        elif ov.hover is not None and ov.show_legal:
            target = self.hit_test(ov.hover)
            if target in self.moves_by_square(state):
                theme.disc(surface, pal.selection, g.point(*target), g.gap * 0.5, width=2)

    def _last_squares(self, state, before=None):
        """The from/to squares of the last move: from the position before it when known,
        else from the game's text (start FEN, then ``moves`` and ICCS moves)."""
        cache = getattr(self, "_last_cache", None)
        if cache is not None and cache[0] is state:
            return cache[1]
        squares = None
        if before is not None and state.moves:
            try:
                squares = _squares(before, state.moves[-1])
            except Exception:
                squares = None
        if squares is None:
            try:
                head, sep, tail = state.to_text().partition(" moves ")
                last = tail.split()[-1] if sep and tail.split() else ""
                if len(last) == 4:
                    ff, fr, tf, tr = ord(last[0]) - 97, int(last[1]), ord(last[2]) - 97, int(last[3])
                    squares = (ROWS - 1 - fr, ff), (ROWS - 1 - tr, tf)
            except (ValueError, IndexError):
                squares = None
        self._last_cache = (state, squares)
        return squares

    def _corners(self, surface, center, half, color):
        x, y = center
        L = half * 0.42
        w = max(2, int(half * 0.09))
        for sx in (-1, 1):
            for sy in (-1, 1):
                cx, cy = x + sx * half, y + sy * half
                pygame.draw.line(surface, color, (cx, cy), (cx - sx * L, cy), w)
                pygame.draw.line(surface, color, (cx, cy), (cx, cy - sy * L), w)

    def draw_hints(self, surface, state, ov):
        g = self.grid
        for i, h in enumerate(ov.hints[:3]):
            try:
                a, b = (g.point(*sq) for sq in _squares(state, h.get("action")))
            except Exception:
                continue
            color = ov.palette.hint
            self._arrow(surface, a, b, color, g.gap * (0.16 if i == 0 else 0.11), 220 if i == 0 else 150)
            theme.alpha_disc(surface, color, b, g.gap * 0.3, 235)
            theme.text(surface, hint_label(h), b, max(9, int(g.gap * 0.24)), (15, 20, 28),
                       bold=True, anchor="center")

    def piece_radius(self) -> float:
        return self.grid.gap * 0.45

    def move_origin(self, state, action):
        try:
            return self.grid.point(*_squares(state, action)[0])
        except Exception:
            return None

    @staticmethod
    def _arrow(surface, a, b, color, width, alpha):
        import math
        dx, dy = b[0] - a[0], b[1] - a[1]
        length = math.hypot(dx, dy) or 1
        ux, uy = dx / length, dy / length
        head = width * 2.6
        end = (b[0] - ux * head, b[1] - uy * head)
        box = pygame.Rect(min(a[0], b[0]) - head * 2, min(a[1], b[1]) - head * 2,
                          abs(dx) + head * 4, abs(dy) + head * 4)
        layer = pygame.Surface(box.size, pygame.SRCALPHA)
        A = (a[0] - box.x, a[1] - box.y)
        E = (end[0] - box.x, end[1] - box.y)
        B = (b[0] - box.x, b[1] - box.y)
        pygame.draw.line(layer, (*color, alpha), A, E, max(2, int(width)))
        px, py = -uy, ux
        pts = [B, (E[0] + px * head * 0.7, E[1] + py * head * 0.7), (E[0] - px * head * 0.7, E[1] - py * head * 0.7)]
        pygame.draw.polygon(layer, (*color, alpha), pts)
        surface.blit(layer, box.topleft)

    def side_colors(self, pal):
        return SIDE[pal.colorblind]

    def side_icon(self, surface, center, radius, player, pal):
        self._pieces = getattr(self, "_pieces", {})
        self._blit_piece(surface, 1 if player == 0 else -1, center, radius, pal)


RENDERER = XiangqiRenderer
