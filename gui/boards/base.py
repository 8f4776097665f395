"""The renderer interface every board implements, plus grid geometry shared by them.

A renderer draws a `games.State` into a rectangle and turns mouse positions back into
board targets. It never changes the game: `click` only proposes an action, which the
controller plays if it is legal. Renderers keep only view state (geometry, animations).

    draw(surface, rect, state, overlays)   the board, pieces, and overlays
    hit_test(pos) -> target or None       a cell (row, col) in board_array coordinates,
                                          a column, or None off the board
    click(state, target, selection) -> (action or None, new selection)
    anchor(state, action) -> (x, y)       where an action is shown (hints, last move)
    on_move(before, after, action)        start the move's animation
    update(dt)                            advance animations
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pygame

from gui import theme
from gui.theme import DEFAULT_PALETTE, Palette


@dataclass
class Overlays:
    """What to draw on top of the position."""
    palette: Palette = DEFAULT_PALETTE
    last_action: int | None = None
    before: object = None  # the position before the last move, when known
    show_legal: bool = False  # the person may move now: show where
    hints: list = field(default_factory=list)  # [{"action", "share", "q", "visits"}]
    selection: object = None  # a renderer's partial move (xiangqi: the picked-up piece)
    hover: tuple | None = None  # mouse position, when the person may move
    lang: str = "en"
    game_over: bool = False
    move_mark: tuple | None = None  # review: the last move's quality colour, drawn as a ring
    move_numbers: bool = False  # each stone's move number (gomoku), counted from ``numbers_from`` plies
    numbers_from: int = 0  # plies that are not the game's moves (a set-up position's stones): unnumbered
    #: each legal move's exact final disc margin for the person (othello's solved endgame, hints
    #: on): drawn on every legal move in place of the hints' win rates
    move_scores: dict = field(default_factory=dict)
    #: the badge's text for each of ``move_scores`` where it is not a disc margin (Connect Four's
    #: opening: "win", "draw", "loss"); empty: the margins
    move_score_labels: dict = field(default_factory=dict)


class CellGrid:
    """rows x cols square cells fitted and centred in a rectangle; optional 180° turn."""

    def __init__(self, rect: pygame.Rect, rows: int, cols: int, pad: float = 0.0, flipped: bool = False):
        self.rows, self.cols, self.flipped = rows, cols, flipped
        avail_w = rect.width - 2 * pad
        avail_h = rect.height - 2 * pad
        self.cell = max(1.0, min(avail_w / cols, avail_h / rows))
        w, h = self.cell * cols, self.cell * rows
        self.x0 = rect.x + (rect.width - w) / 2
        self.y0 = rect.y + (rect.height - h) / 2
        self.rect = pygame.Rect(round(self.x0), round(self.y0), round(w), round(h))

    def _view(self, r: int, c: int) -> tuple[int, int]:
        return (self.rows - 1 - r, self.cols - 1 - c) if self.flipped else (r, c)

    def cell_rect(self, r: int, c: int) -> pygame.Rect:
        vr, vc = self._view(r, c)
        x = self.x0 + vc * self.cell
        y = self.y0 + vr * self.cell
        return pygame.Rect(round(x), round(y), round(x + self.cell) - round(x), round(y + self.cell) - round(y))

    def center(self, r: int, c: int) -> tuple[float, float]:
        vr, vc = self._view(r, c)
        return (self.x0 + (vc + 0.5) * self.cell, self.y0 + (vr + 0.5) * self.cell)

    def cell_at(self, pos) -> tuple[int, int] | None:
        x, y = pos
        vc = math.floor((x - self.x0) / self.cell)
        vr = math.floor((y - self.y0) / self.cell)
        if not (0 <= vr < self.rows and 0 <= vc < self.cols):
            return None
        return self._view(vr, vc)


class PointGrid:
    """rows x cols intersections (Go-style boards), with a margin for coordinate labels."""

    def __init__(self, rect: pygame.Rect, rows: int, cols: int, margin: float = 1.0, flipped: bool = False):
        self.rows, self.cols, self.flipped = rows, cols, flipped
        # (cols - 1) gaps plus a margin of `margin` gaps on each side
        self.gap = max(1.0, min(rect.width / (cols - 1 + 2 * margin), rect.height / (rows - 1 + 2 * margin)))
        w = self.gap * (cols - 1)
        h = self.gap * (rows - 1)
        self.x0 = rect.x + (rect.width - w) / 2
        self.y0 = rect.y + (rect.height - h) / 2
        m = self.gap * margin
        self.rect = pygame.Rect(round(self.x0 - m), round(self.y0 - m), round(w + 2 * m), round(h + 2 * m))

    def _view(self, r: int, c: int) -> tuple[int, int]:
        return (self.rows - 1 - r, self.cols - 1 - c) if self.flipped else (r, c)

    def point(self, r: int, c: int) -> tuple[float, float]:
        vr, vc = self._view(r, c)
        return (self.x0 + vc * self.gap, self.y0 + vr * self.gap)

    def point_at(self, pos) -> tuple[int, int] | None:
        vc = round((pos[0] - self.x0) / self.gap)
        vr = round((pos[1] - self.y0) / self.gap)
        if not (0 <= vr < self.rows and 0 <= vc < self.cols):
            return None
        px, py = self.x0 + vc * self.gap, self.y0 + vr * self.gap
        if (pos[0] - px) ** 2 + (pos[1] - py) ** 2 > (0.5 * self.gap) ** 2:
            return None
        return self._view(vr, vc)


def ease_out(t: float) -> float:
    t = max(0.0, min(1.0, t))
    return 1 - (1 - t) ** 3


class BoardRenderer:
    """Base class: cell-grid geometry, hint badges, and the click-to-action default."""

    #: board variants the setup scene offers: ((label, variant dict), ...); () = default only
    VARIANTS: tuple = ()
    #: turn the board 180° when the person plays second (xiangqi)
    FLIP_FOR_SECOND = False
    #: seconds a move's animation lasts
    ANIM_SECONDS = 0.25

    def __init__(self, game, flipped: bool = False, animations: bool = True):
        self.game = game
        self.flipped = flipped
        self.animations = animations
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.rows, self.cols = game.board_shape
        self.anim: dict | None = None

    # --- geometry -------------------------------------------------------------
    def layout(self, rect) -> None:
        self.rect = pygame.Rect(rect)
        self.grid = CellGrid(self.rect, self.rows, self.cols, pad=max(8, self.rect.width * 0.03),
                             flipped=self.flipped)

    def _ensure_layout(self, rect) -> None:
        if pygame.Rect(rect) != self.rect or not hasattr(self, "grid"):
            self.layout(rect)

    def hit_test(self, pos):
        if not hasattr(self, "grid"):
            return None
        return self.grid.cell_at(pos)

    def target_center(self, target):
        """The pixel at the middle of a target (the inverse of `hit_test`)."""
        return self.grid.center(*target)

    def cell_action(self, r: int, c: int) -> int:
        return r * self.cols + c

    def action_cell(self, action: int) -> tuple[int, int] | None:
        """The board cell an action is drawn on; None for extra actions (a pass)."""
        if action is None or not 0 <= action < self.rows * self.cols:
            return None
        return divmod(action, self.cols)

    def is_board_action(self, state, action) -> bool:
        """False for actions that are not played on the board (othello's pass): those get a button."""
        return self.action_cell(action) is not None

    def anchor(self, state, action):
        cell = self.action_cell(action)
        if cell is None or not hasattr(self, "grid"):
            return None
        return self.grid.center(*cell)

    def played_anchor(self, state, action, before=None):
        """Where the move ``action``, just played to reach ``state`` from ``before``, is shown
        (read in the position it was played in: xiangqi's moves are the mover's)."""
        return self.anchor(before if before is not None else state, action)

    # --- input ------------------------------------------------------------------
    def click(self, state, target, selection=None):
        """(action or None, new selection) for a click on ``target``."""
        if target is None:
            return None, None
        try:
            action = self.cell_action(*target) if isinstance(target, tuple) else int(target)
        except (TypeError, ValueError):
            return None, None
        return (action if action in state.legal_actions() else None), None

    def hover_action(self, state, pos):
        """The legal action a click at ``pos`` would play, for previews."""
        action, _ = self.click(state, self.hit_test(pos), None)
        return action

    # --- animation ---------------------------------------------------------------
    def on_move(self, before, after, action) -> None:
        if self.animations:
            self.anim = {"before": before, "after": after, "action": action, "t": 0.0}

    def update(self, dt: float) -> None:
        if self.anim is not None:
            self.anim["t"] += dt
            if self.anim["t"] >= self.ANIM_SECONDS:
                self.anim = None

    def anim_progress(self, state) -> float | None:
        """0..1 while ``state`` is being animated in, else None."""
        a = self.anim
        if a is None or a["after"] is not state:
            return None
        return min(1.0, a["t"] / self.ANIM_SECONDS)

    # --- drawing -----------------------------------------------------------------
    def draw(self, surface: pygame.Surface, rect, state, ov: Overlays | None = None) -> None:
        ov = ov or Overlays()
        self._ensure_layout(rect)
        self.draw_board(surface, state, ov)
        self.draw_pieces(surface, state, ov)
        self.draw_marks(surface, state, ov)
        if ov.move_mark is not None and ov.last_action is not None:
            pos = self.played_anchor(state, ov.last_action, ov.before)
            if pos is not None:
                r = self.hint_radius() * 1.3
                theme.disc(surface, (16, 16, 20), pos, r + 2, width=max(3, int(r * 0.16)) + 2)
                theme.disc(surface, ov.move_mark, pos, r, width=max(3, int(r * 0.16)))
        if ov.hints:
            self.draw_hints(surface, state, ov)

    def draw_board(self, surface, state, ov: Overlays) -> None:
        raise NotImplementedError

    def draw_pieces(self, surface, state, ov: Overlays) -> None:
        raise NotImplementedError

    def draw_marks(self, surface, state, ov: Overlays) -> None:
        """Last move, legal moves and hover previews; nothing by default."""

    def hint_radius(self) -> float:
        return getattr(self.grid, "cell", 40) * 0.36

    def draw_hints(self, surface, state, ov: Overlays) -> None:
        """Badges with the win rate each of the AI's top moves keeps for the person (the same
        number as the side panel's hint table; the best move brighter)."""
        r = min(self.hint_radius(), 30)
        size = max(9, int(r * 0.62))
        if ov.move_scores:
            self._draw_move_scores(surface, state, ov, r, size)
            return
        for i, h in enumerate(reversed(ov.hints[:5])):
            best = i == min(5, len(ov.hints)) - 1
            pos = self.anchor(state, h.get("action"))
            if pos is None:
                continue
            color = ov.palette.hint
            theme.alpha_disc(surface, (10, 14, 20), (pos[0], pos[1] + 2), r, 90)
            theme.alpha_disc(surface, color, pos, r, 235 if best else 150)
            theme.disc(surface, theme.shade(color, 1.45) if best else color, pos, r, width=2)
            label = hint_label(h)
            theme.text(surface, label, pos, size, (12, 18, 26) if best else (236, 242, 248), bold=True,
                       anchor="center")

    def _draw_move_scores(self, surface, state, ov: Overlays, r: float, size: int) -> None:
        """Every legal move's exact disc margin ("+6") or, with labels, its exact result ("win"),
        the best ones bright, the others in the hint colour; a losing move's badge darker."""
        best = max(ov.move_scores.values())
        for action, margin in ov.move_scores.items():
            pos = self.anchor(state, action)
            if pos is None:
                continue
            top = margin == best
            color = ov.palette.hint if margin >= 0 or top else theme.shade(ov.palette.hint, 0.55)
            theme.alpha_disc(surface, (10, 14, 20), (pos[0], pos[1] + 2), r, 90)
            theme.alpha_disc(surface, color, pos, r, 235 if top else 150)
            theme.disc(surface, theme.shade(color, 1.45) if top else color, pos, r, width=2)
            label = ov.move_score_labels.get(action, margin_text(margin))
            theme.text(surface, label, pos, size, (12, 18, 26) if top else (236, 242, 248), bold=True,
                       anchor="center")

    def move_origin(self, state, action):
        """Where the piece that ``action`` moves stands, for games that move pieces (a
        hinted line then shows which piece goes); None for games that place them."""
        return None

    def side_colors(self, pal: Palette) -> tuple:
        """The two sides' colours, for win-rate bars and labels."""
        return (pal.side0, pal.side1)

    def side_icon(self, surface, center, radius: float, player: int, pal: Palette) -> None:
        """A small picture of one side's piece (status lines, demo panel)."""
        theme.disc(surface, self.side_colors(pal)[player], center, radius)

    def thumbnail(self, surface, rect, state, palette: Palette = DEFAULT_PALETTE) -> None:
        """A small picture of ``state`` for the home cards."""
        self.draw(surface, rect, state, Overlays(palette=palette))


def margin_text(margin: int) -> str:
    """A disc margin with its sign ("+6", "−2", "0")."""
    return f"+{margin}" if margin > 0 else f"−{-margin}" if margin < 0 else "0"


def hint_label(hint: dict) -> str:
    """A hinted move's badge: the win rate it keeps for the person ("63%"), "–" where the
    search never tried it."""
    win = hint.get("winrate")
    return "–" if win is None else f"{round(100 * win)}%"


class GridRenderer(BoardRenderer):
    """A plain grid with round pieces: the fallback for a game without its own renderer."""

    def draw_board(self, surface, state, ov):
        g = self.grid
        theme.rounded_rect(surface, (58, 62, 72), g.rect.inflate(12, 12), 10)
        for r in range(self.rows):
            for c in range(self.cols):
                theme.rounded_rect(surface, (72, 77, 89), g.cell_rect(r, c).inflate(-3, -3), 4)

    def draw_pieces(self, surface, state, ov):
        try:
            board = state.board_array()
        except NotImplementedError:
            return
        colors = (ov.palette.side0, ov.palette.side1)
        for r in range(min(self.rows, board.shape[0])):
            for c in range(min(self.cols, board.shape[1])):
                v = int(board[r, c])
                if v:
                    center = self.grid.center(r, c)
                    theme.disc(surface, colors[0 if v > 0 else 1], center, self.grid.cell * 0.38)
                    if abs(v) > 1:
                        theme.text(surface, str(abs(v)), center, int(self.grid.cell * 0.35), (20, 20, 20),
                                   bold=True, anchor="center")

    def draw_marks(self, surface, state, ov):
        cell = self.action_cell(ov.last_action) if ov.last_action is not None else None
        if cell:
            pygame.draw.rect(surface, ov.palette.last_move, self.grid.cell_rect(*cell).inflate(-2, -2), 2, 4)
