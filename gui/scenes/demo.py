"""Demo: two AIs play each other, with pause, single step and speed control."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards import Overlays
from gui.controller import LEVELS, DemoController
from gui.i18n import language, t
from gui.scenes.base import Scene
from gui.scenes.boardview import BoardView
from gui.scenes.home import game_name
from gui.scenes.play import board_and_panel
from gui.scenes.setup import level_name, side_name
from gui.scenes.sidepanel import MoveList, evaluation, result_detail, thinking_block
from gui.widgets import Button, hit_buttons, panel, segmented, winrate_graph

#: the side panel's status under the sides' rows (which side thinks, paused, the result banner)
STATUS_HEIGHT = 70


class DemoScene(Scene):
    def __init__(self, app, controller: DemoController):
        super().__init__(app)
        self.c = controller
        self.view = BoardView(app, controller.game)
        self.moves = MoveList()
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.graph_rect = pygame.Rect(0, 0, 0, 0)

    def cycle_level(self, side: int, step: int = 1) -> None:
        i = (LEVELS.index(self.c.levels[side]) + step) % len(LEVELS) if self.c.levels[side] in LEVELS else 0
        self.c.levels[side] = LEVELS[i]
        self.app.settings.set("demo_levels", list(self.c.levels))

    def build(self, size):
        super().build(size)
        self.board_rect, self.panel_rect = board_and_panel(size)
        p = self.panel_rect.inflate(-36, -36)
        bh, gap = 38, 8
        # each side's level: a button that cycles through the levels
        self.side_rows = []
        y = p.y + 66
        for side in (0, 1):
            row = pygame.Rect(p.x, y, p.width, 36)
            self.side_rows.append(row)
            lb = pygame.Rect(row.right - 130, row.y + 2, 130, 32)
            self.buttons.append(Button(lb, level_name(self.c.levels[side]), lambda s=side: self.cycle_level(s),
                                       size=14))
            y += 42
        self.status_y = y + 10
        if self.c.error:
            self.buttons.append(Button(pygame.Rect(p.right - 110, self.status_y - 4, 110, 28), t("play.retry"),
                                       self.c.retry, size=14))
        half = (p.width - gap) // 2
        home = pygame.Rect(p.x, p.bottom - bh, p.width, bh)
        row2 = home.y - gap - bh
        row1 = row2 - gap - bh
        speed_y = row1 - gap - 34
        self.buttons.append(Button(pygame.Rect(p.x, row1, half, bh),
                                   t("demo.resume") if self.c.paused else t("demo.pause"), self.c.toggle_pause,
                                   kind="primary" if self.c.paused else "normal", hint="Space", size=15))
        self.buttons.append(Button(pygame.Rect(p.x + half + gap, row1, half, bh), t("demo.step"), self.c.step,
                                   hint="→", size=15, enabled=not self.c.over))
        self.buttons.append(Button(pygame.Rect(p.x, row2, half, bh), t("demo.restart"), self.c.restart, hint="R",
                                   size=15))
        self.buttons.append(Button(pygame.Rect(p.x + half + gap, row2, half, bh), t("demo.play_this"),
                                   self.play_this, size=15))
        self.buttons.append(Button(home, t("common.home"), self.back, kind="ghost", hint="Esc", size=15))
        speeds = [(t(f"demo.speed{i}"), i) for i in range(len(self.c.SPEEDS))]
        self.speed_rect = pygame.Rect(p.x, speed_y, p.width, 32)
        self.buttons += segmented(self.speed_rect, speeds, self.c.speed, self.c.set_speed, gap=4, size=13)
        self.list_bottom = speed_y - 28

    def play_this(self):
        """Take over the demo's position on the board against the AI (the person plays the side
        to move), with the moves that led to it; a finished game opens as it ended, to be
        looked through and played on from any earlier position (the person as the first player)."""
        c = self.c
        state = c.viewed  # the position on the board: an earlier one when looking back
        side = "first" if state.is_terminal() or state.current_player == 0 else "second"
        self.app.start_play(c.game.id, side, self.app.settings["level"], dict(c.game.variant), state=state)

    def on_click(self, pos):
        if hit_buttons(self.buttons, pos):
            return
        index = self.moves.hit(pos)
        if index is not None:
            self.c.go_to(index)
        elif self.graph_rect.width and self.graph_rect.inflate(0, 12).collidepoint(pos):
            n = len(self.c.history)
            self.c.go_to(round((pos[0] - self.graph_rect.x) / max(1, self.graph_rect.width) * (n - 1)))

    def on_wheel(self, dy, pos):
        self.moves.wheel(dy, pos)

    def on_key(self, key, mod):
        if key == pygame.K_SPACE or key == pygame.K_p:
            self.c.toggle_pause()
        elif key == pygame.K_RIGHT and self.c.reviewing:
            self.c.step_forward()  # looking back: forward through the moves already played
        elif key in (pygame.K_RIGHT, pygame.K_s, pygame.K_PERIOD):
            self.c.step()
        elif key == pygame.K_LEFT:
            self.c.step_back()
        elif key == pygame.K_HOME:
            self.c.go_start()
        elif key == pygame.K_END:
            self.c.go_end()
        elif key == pygame.K_r:
            self.c.restart()
        elif pygame.K_1 <= key <= pygame.K_4:
            self.c.set_speed(key - pygame.K_1)
        elif key in (pygame.K_PLUS, pygame.K_EQUALS, pygame.K_KP_PLUS):
            self.c.set_speed(self.c.speed + 1)
        elif key in (pygame.K_MINUS, pygame.K_KP_MINUS):
            self.c.set_speed(self.c.speed - 1)

    def update(self, dt):
        self.c.update()
        self.view.take_events(self.c, lambda p: side_name(self.c.game.id, p))
        self.view.update(dt)

    def close(self):
        self.c.close()

    def result_rect(self) -> pygame.Rect:
        """A finished demo's result banner: in the side panel's status place, between the
        sides' level buttons and the evaluation bar, clear of the board's cells."""
        p = self.panel_rect.inflate(-36, -36)
        return pygame.Rect(p.x - 8, self.status_y - 8, p.width + 16, 70)

    def toast_area(self) -> pygame.Rect:
        """Messages appear in the side panel under the status (which side thinks, paused, the
        result), never over it nor over the sides' rows with their levels, clear of the board
        and its coordinates, and above the speed and the commands."""
        top = self.status_y + STATUS_HEIGHT
        return pygame.Rect(self.panel_rect.x, top, self.panel_rect.width, max(0, self.list_bottom - 8 - top))

    def frame_rate(self) -> float:
        if self.view.renderer.anim is not None:
            return 60.0
        if self.c.ai_thinking or (not self.c.over and not self.c.paused and not self.c.error):
            return 8.0  # the spinner, and the timer before the next move
        return 0.0

    def result_text(self) -> str:
        """"White wins" or "Draw" for a finished demo."""
        w = self.c.winner()
        return t("play.draw") if w is None else t("demo.wins", side=side_name(self.c.game.id, w))

    def draw(self, surface):
        pal = self.pal
        c = self.c
        ov = Overlays(palette=pal, last_action=c.last_action(), before=c.before_last(), lang=language(),
                      game_over=c.viewed.is_terminal(),
                      hints=self._live_top() if c.thinking.rid is not None and not c.reviewing else [])
        self.view.draw(surface, self.board_rect, c.viewed, ov)
        panel(surface, pal, self.panel_rect, 16)
        p = self.panel_rect.inflate(-36, -36)
        theme.text(surface, theme.fit_text(f"{t('demo.title')} · {game_name(c.game.id)}", 22, p.width, True),
                   (p.x, p.y), 22, pal.text, bold=True)
        theme.text(surface, t("demo.subtitle"), (p.x, p.y + 32), 14, pal.text_dim)
        r = self.view.renderer
        for side, row in enumerate(self.side_rows):
            r.side_icon(surface, (row.x + 13, row.centery), 12, side, pal)
            color = pal.text if (not c.over and c.state.current_player == side) else pal.text_dim
            theme.text(surface, side_name(c.game.id, side), (row.x + 34, row.centery), 16, color,
                       bold=not c.over and c.state.current_player == side, anchor="midleft")
        y = self.status_y
        status = pygame.Rect(p.x, y, p.width, 60)
        if c.error:
            theme.text(surface, theme.fit_text(t("play.ai_problem"), 16, p.width - 120, True), (p.x, y), 16,
                       pal.bad, bold=True)
            for i, line in enumerate(theme.wrap_text(c.error, 13, p.width)[:2]):
                theme.text(surface, theme.fit_text(line, 13, p.width), (p.x, y + 30 + i * 17), 13, pal.text_dim)
        elif c.reviewing:
            theme.text(surface, theme.fit_text(t("play.viewing", n=c.view_index, total=len(c.history) - 1), 17,
                                               p.width, True), (p.x, y + 6), 17, pal.text, bold=True)
            theme.text(surface, theme.fit_text(t("demo.review_keys"), 13, p.width), (p.x, y + 34), 13, pal.text_faint)
        elif c.over:  # who won and why, on a banner in the panel: the board's final position stays in view
            box = self.result_rect()
            theme.rounded_rect(surface, pal.card_hover, box, 12)
            theme.rounded_rect(surface, pal.accent, box, 12, 2)
            theme.text(surface, theme.fit_text(self.result_text(), 22, box.width - 24, True),
                       (box.centerx, box.y + 22), 22, pal.text, bold=True, anchor="center")
            detail = result_detail(c)
            if detail:
                theme.text(surface, theme.fit_text(detail, 14, box.width - 24), (box.centerx, box.y + 50), 14,
                           pal.text_dim, anchor="center")
        elif c.ai_thinking:
            side = side_name(c.game.id, c.state.current_player)
            thinking_block(surface, pal, status, self.app, c.thinking, self.app.ai.status,
                           t("demo.thinking", side=side))
        elif c.paused:
            theme.text(surface, t("demo.paused"), (p.x, y + 6), 18, pal.text_dim, bold=True)
        y += STATUS_HEIGHT
        labels = (side_name(c.game.id, 0), side_name(c.game.id, 1))
        evaluation(surface, pal, pygame.Rect(p.x, y, p.width, 44), c.value0, r.side_colors(pal), labels,
                   c.proven0, readout=c.readout, mover=c.viewed.current_player)
        y += 54
        self.graph_rect = pygame.Rect(0, 0, 0, 0)
        if self.list_bottom - y > 56 + 70:  # the win-rate graph, from the two AIs' own searches
            self.graph_rect = winrate_graph(surface, pal, pygame.Rect(p.x, y, p.width, 56), c.graph_values(),
                                            r.side_colors(pal), c.view_index, mouse=self.app.mouse_pos(), labels=labels)
            y += 64
        if self.list_bottom - y > 40:
            theme.text(surface, t("play.moves"), (p.x, y), 13, pal.text_faint)
            self.moves.draw(surface, pal, pygame.Rect(p.x, y + 20, p.width, self.list_bottom - y - 20),
                            c.move_texts(language()), c.history[0].current_player, c.view_index)
        theme.text(surface, t("demo.speed"), (p.x, self.speed_rect.y - 21), 13, pal.text_faint)
        self.draw_buttons(surface)

    def _live_top(self):
        total = sum(m.get("visits", 0) for m in self.c.thinking.top) or 1
        return [dict(m, share=m.get("visits", 0) / total) for m in self.c.thinking.top[:3]]
