"""The board editor: set up any position by hand (place and remove pieces, choose the side
to move), see at once why it cannot be played (the game's own `validate_position`, said in
the interface language), then play it against the AI or analyse it with hints on.

The rules live in ``games/`` (`games.base.Game.validate_position` and `from_setup`); this
scene only keeps the board being edited and draws it with the game's renderer.
"""
from __future__ import annotations

import numpy as np
import pygame

from gui import theme
from gui.boards import Overlays
from gui.i18n import has, t
from gui.scenes.base import Scene
from gui.scenes.boardview import BoardView, board_and_panel
from gui.scenes.home import game_name
from gui.scenes.setup import side_name
from gui.widgets import Button, panel


class EditedPosition:
    """The board being edited, shaped like a finished-for-drawing `games.State`: renderers
    read ``board_array`` and the turn, and find no moves to show."""

    moves = ()

    def __init__(self, game, board, to_move: int):
        self.game = game
        self.board = board
        self.current_player = to_move

    def board_array(self):
        return self.board

    def legal_actions(self):
        return []

    def is_terminal(self) -> bool:
        return False

    def winner(self):
        return None

    def is_check(self) -> bool:
        return False

    def __getattr__(self, name):
        # what a renderer asks that does not depend on the position (coordinate names)
        return getattr(self.game.initial_state(), name)


def palette_codes(game) -> list[int]:
    """What a click can put on the board: the first side's pieces, the second's, then the
    eraser (0). One kind of piece per side except xiangqi's seven."""
    if game.id == "xiangqi":
        return [1, 2, 3, 4, 5, 6, 7, -1, -2, -3, -4, -5, -6, -7, 0]
    return [1, -1, 0]


def problem_text(game_id: str, problem) -> str:
    """A `games.base.SetupProblem` in the interface language (the game's English message
    where the catalogue has no words for it)."""
    key = f"editor.err.{problem.code}"
    if not has(key):
        return problem.message
    fields = dict(problem.fields)
    for name in ("side", "mover"):
        if name in fields:
            fields[name] = side_name(game_id, int(fields[name]))
    if "piece" in fields:
        fields["piece"] = t(f"editor.piece.{int(fields['piece'])}")
    fields.setdefault("side0", side_name(game_id, 0))
    fields.setdefault("side1", side_name(game_id, 1))
    return t(key, **fields)


class EditorScene(Scene):
    """Set up a position of ``game``, starting from ``board`` (default: the start position)
    with ``to_move`` to move; ``back_scene`` is the play scene it was opened from, which
    plays the position (after a confirmation when a game is in progress there)."""

    def __init__(self, app, game, board=None, to_move: int = 0, back_scene=None):
        super().__init__(app)
        self.game = game
        self.game_id = game.id
        self.back_scene = back_scene
        start = game.initial_state()
        self.board = np.array(board if board is not None else start.board_array(), dtype=np.int8)
        self.to_move = int(to_move)
        self.codes = palette_codes(game)
        self.pen = self.codes[0]
        self.view = BoardView(app, game)
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.swatches: list[tuple[pygame.Rect, int]] = []
        self.problems: list = []
        self.check()

    # --- the position ---------------------------------------------------------------
    def check(self) -> None:
        """Judge the edited position (after every change)."""
        try:
            self.problems = self.game.validate_position(self.board, self.to_move)
        except Exception as e:  # a rules bug must not close the editor
            if self.app.strict:
                raise
            from games.base import SetupProblem
            self.problems = [SetupProblem("internal", f"cannot check the position ({type(e).__name__})")]
        self.app.invalidate()

    def place(self, cell, code: int | None = None) -> None:
        """Put the pen's piece on ``cell`` (row, column); the same piece again, or ``code`` 0,
        takes it off."""
        code = self.pen if code is None else code
        r, c = cell
        if not (0 <= r < self.board.shape[0] and 0 <= c < self.board.shape[1]):
            return
        self.board[r, c] = 0 if code and int(self.board[r, c]) == code else code
        self.check()

    def set_side(self, player: int) -> None:
        self.to_move = player
        self.check()

    def clear(self) -> None:
        self.board[:] = 0
        self.check()

    def reset(self) -> None:
        self.board = np.array(self.game.initial_state().board_array(), dtype=np.int8)
        self.to_move = 0
        self.check()

    def setup_state(self):
        """The state of the edited position, or None (and a message) when it cannot be played."""
        if self.problems:
            self.app.toast(problem_text(self.game_id, self.problems[0]), error=True)
            return None
        try:
            return self.game.from_setup(self.board, self.to_move)
        except Exception as e:
            self.app.toast(str(e)[:120], error=True)
            return None

    def play_from_here(self, analyse: bool = False) -> None:
        """Play the position against the AI, the person taking the side to move (``analyse``:
        with hints on, so the AI's view of every move shows at once)."""
        state = self.setup_state()
        if state is None:
            return
        setup = len(state.moves)   # the stones placed in turn (games where only the stones count)
        scene = self.back_scene
        c = getattr(scene, "c", None)

        def go():
            if c is not None and c.game.key == self.game.key:
                c.load(state, setup)
                c.human = state.current_player
                if analyse and not c.hints_on:
                    c.toggle_hints()
                scene.view.set_flipped(scene._flip())
                self.app.goto(scene)
            else:
                side = "first" if state.current_player == 0 else "second"
                self.app.start_play(self.game.id, side, self.app.settings["level"], self.game.variant, state=state,
                                    setup=setup)
                new = getattr(self.app.scene, "c", None)
                if analyse and new is not None and not new.hints_on:
                    new.toggle_hints()
        if c is not None and c.in_progress:
            self.app.ask(t("confirm.new_title"), t("confirm.new_text"),
                         [(t("editor.play"), go, "primary"), (t("common.cancel"), lambda: None, "normal")])
        else:
            go()

    def back(self) -> None:
        if self.back_scene is not None:
            self.app.goto(self.back_scene)
        else:
            self.app.go_home()

    # --- frame ------------------------------------------------------------------------
    def build(self, size):
        super().build(size)
        self.board_rect, self.panel_rect = board_and_panel(size)
        p = self.panel_rect.inflate(-36, -36)
        small = size[1] < 700
        bh, gap = (32, 6) if small else (36, 8)
        # the palette: one swatch per piece, the eraser last
        self.swatches = []
        per_row = 8 if self.game_id == "xiangqi" else 3
        sw = min(56, (p.width - gap * (per_row - 1)) // per_row)
        self.how_lines = theme.wrap_text(t("editor.how"), 13, p.width)[:2]
        y = p.y + 44 + 17 * len(self.how_lines)
        for i, code in enumerate(self.codes):
            if self.game_id == "xiangqi":   # a row for each side's seven pieces, the eraser last
                row, col = (1, 7) if code == 0 else divmod(i, 7)
            else:
                row, col = 0, i
            self.swatches.append((pygame.Rect(p.x + col * (sw + gap), y + row * (sw + gap), sw, sw), code))
        y = max(r.bottom for r, _ in self.swatches) + 30
        half = (p.width - gap) // 2
        for player in (0, 1):
            self.buttons.append(Button(pygame.Rect(p.x + player * (half + gap), y, half, bh),
                                       side_name(self.game_id, player), lambda pl=player: self.set_side(pl),
                                       selected=self.to_move == player, size=14))
        self.side_y = y - 22
        self.status_y = y + bh + 14
        # the commands, from the bottom up
        bottom = p.bottom
        rows = [
            [(t("editor.cancel"), self.back, "ghost", "Esc")],
            [(t("editor.play"), self.play_from_here, "primary", "Enter"),
             (t("editor.analyse"), lambda: self.play_from_here(analyse=True), "play", "A")],
            [(t("editor.clear"), self.clear, "normal", "C"), (t("editor.reset"), self.reset, "normal", "S")],
        ]
        for row in rows:
            top = bottom - bh
            w = (p.width - gap * (len(row) - 1)) // len(row)
            for i, (label, action, kind, key) in enumerate(row):
                plays = kind in ("primary", "play")   # the commands that need a playable position
                room = w - 24 - theme.FONTS.size(label, 14, kind == "primary")[0]
                self.buttons.append(Button(pygame.Rect(p.x + i * (w + gap), top, w, bh), label, action,
                                           kind="normal" if kind == "play" else kind,
                                           hint=key if room >= 8 * len(key) + 10 else "", size=14,
                                           enabled=not (plays and self.problems)))
            bottom = top - gap
        self.status_bottom = bottom - 8

    def handle_event(self, ev):
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 3:
            cell = self.cell_at(ev.pos)
            if cell is not None:
                self.place(cell, 0)
                self.build(self.size)
            return
        super().handle_event(ev)

    def cell_at(self, pos):
        """The board cell (row, column) under ``pos``, or None."""
        if not self.board_rect.collidepoint(pos):
            return None
        r = self.view.renderer
        grid = getattr(r, "grid", None)
        if grid is None:
            return None
        if self.game_id == "connect4":   # its grid has a row above the board, where a disc drops from
            cell = grid.cell_at(pos)
            if cell is None:
                return None
            row, col = cell
            if row == 0:   # above the board: the disc falls to the lowest empty cell
                empty = [rr for rr in range(self.board.shape[0]) if not self.board[rr, col]]
                return (max(empty), col) if empty else None
            return row - 1, col
        target = r.hit_test(pos)
        return target if isinstance(target, tuple) else None

    def on_click(self, pos):
        for rect, code in self.swatches:
            if rect.collidepoint(pos):
                self.pen = code
                self.app.invalidate()
                return
        from gui.widgets import hit_buttons
        if hit_buttons(self.buttons, pos):
            self.build(self.size)
            return
        cell = self.cell_at(pos)
        if cell is not None:
            self.place(cell)
            self.build(self.size)

    def on_key(self, key, mod):
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.play_from_here()
        elif key == pygame.K_a:
            self.play_from_here(analyse=True)
        elif key == pygame.K_c:
            self.clear()
        elif key == pygame.K_s:
            self.reset()
        elif key == pygame.K_TAB:
            self.set_side(1 - self.to_move)
        elif pygame.K_1 <= key <= pygame.K_9 and key - pygame.K_1 < len(self.codes):
            self.pen = self.codes[key - pygame.K_1]
        elif key == pygame.K_0:
            self.pen = 0
        else:
            return
        if self.app.scene is self:
            self.build(self.size)

    def draw(self, surface):
        pal = self.pal
        self.view.draw(surface, self.board_rect, EditedPosition(self.game, self.board, self.to_move),
                       Overlays(palette=pal))
        panel(surface, pal, self.panel_rect, 16)
        p = self.panel_rect.inflate(-36, -36)
        theme.text(surface, theme.fit_text(t("editor.title", game=game_name(self.game_id)), 22, p.width, True),
                   (p.x, p.y), 22, pal.text, bold=True)
        for i, line in enumerate(getattr(self, "how_lines", [])):
            theme.text(surface, line, (p.x, p.y + 32 + 17 * i), 13, pal.text_dim)
        r = self.view.renderer
        for rect, code in self.swatches:
            chosen = code == self.pen
            theme.rounded_rect(surface, pal.button_hover if chosen else pal.button, rect, 8)
            if chosen:
                theme.rounded_rect(surface, pal.accent, rect, 8, 3)
            center, radius = rect.center, rect.width * 0.34
            if code == 0:   # the eraser: a cross
                d = rect.width * 0.22
                for sx in (-1, 1):
                    pygame.draw.line(surface, pal.text, (center[0] - d, center[1] - sx * d),
                                     (center[0] + d, center[1] + sx * d), max(2, rect.width // 12))
            elif self.game_id == "xiangqi" and hasattr(r, "_blit_piece"):
                r._blit_piece(surface, code, (center[0] + 1, center[1] + 1), rect.width * 0.4, pal)
            else:
                r.side_icon(surface, center, radius, 0 if code > 0 else 1, pal)
        theme.text(surface, t("editor.to_move"), (p.x, self.side_y), 13, pal.text_faint)
        self.draw_status(surface, p)
        self.draw_buttons(surface)

    def draw_status(self, surface, p) -> None:
        """Why the position cannot be played, or that it can."""
        pal = self.pal
        y = self.status_y
        if not self.problems:
            for line in theme.wrap_text(t("editor.ok"), 15, p.width)[:2]:
                theme.text(surface, line, (p.x, y), 15, pal.good, bold=True)
                y += 20
            return
        theme.text(surface, theme.fit_text(t("editor.problems"), 15, p.width, True), (p.x, y), 15, pal.bad,
                   bold=True)
        y += 24
        for problem in self.problems:
            lines = theme.wrap_text("· " + problem_text(self.game_id, problem), 13, p.width)
            for line in lines:
                if y + 17 > self.status_bottom:
                    return
                theme.text(surface, line, (p.x, y), 13, pal.text)
                y += 17
            y += 4
