"""Play: the board, and a side panel with the turn, the AI's thinking, the evaluation,
the move list and the game's commands (each with a key)."""
from __future__ import annotations

import time

import pygame

from gui import theme
from gui.boards import Overlays
from gui.controller import PlayController
from gui.i18n import language, t
from gui.scenes.base import Scene
from gui.scenes.boardview import BoardView
from gui.scenes.home import game_name
from gui.scenes.loaddialog import LoadDialog
from gui.scenes.setup import level_name, side_name
from gui.scenes.sidepanel import MoveList, evaluation, reason_text, thinking_block
from gui.widgets import Button, panel


def panel_width(w: int) -> int:
    return max(300, min(400, int(w * 0.3)))


def board_and_panel(size, margin: int = 24) -> tuple[pygame.Rect, pygame.Rect]:
    """The board area on the left and the side panel on the right of a window of ``size``."""
    w, h = size
    pw = panel_width(w)
    panel_rect = pygame.Rect(w - margin - pw, margin, pw, h - 2 * margin)
    board_rect = pygame.Rect(margin, margin, w - 3 * margin - pw, h - 2 * margin)
    return board_rect, panel_rect


class PlayScene(Scene):
    def __init__(self, app, controller: PlayController):
        super().__init__(app)
        self.c = controller
        self.view = BoardView(app, controller.game, flipped=self._flip())
        self.moves = MoveList()
        self.dialog: LoadDialog | None = None
        self.confirm_resign_until = 0.0
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.result_dismissed = False  # a click on the board hides the result banner

    def _flip(self) -> bool:
        return bool(self.view_cls_flip() and self.c.human == 1)

    def view_cls_flip(self) -> bool:
        from gui.boards import renderer_class
        return renderer_class(self.c.game.id).FLIP_FOR_SECOND

    # --- commands (buttons and keys) ---------------------------------------------
    def undo(self):
        if not self.c.undo():
            self.app.toast(t("play.nothing_to_undo"))

    def hint(self):
        on = self.c.toggle_hints()
        self.app.settings.set("hints", on)

    def new_game(self):
        from gui.controller import pick_side
        self.c.new_game(pick_side(self.c.side_choice))
        self.view.set_flipped(self._flip())

    def resign(self):
        if self.c.over:
            return
        if time.monotonic() < self.confirm_resign_until:
            self.confirm_resign_until = 0.0
            self.c.resign()
        else:
            self.confirm_resign_until = time.monotonic() + 3.0

    def save(self):
        self.app.save_game(self.c)

    def load(self):
        self.dialog = LoadDialog(self.app, on_pick=self._load_path, on_close=self._close_dialog)

    def _close_dialog(self):
        self.dialog = None

    def _load_path(self, path):
        self.dialog = None
        self.app.load_game(path, self)

    def retry(self):
        self.c.retry()

    def pass_move(self):
        extra = self.view.extra_actions(self.c.state)
        if extra and self.c.human_to_move:
            self.c.play(extra[0])

    # --- frame ----------------------------------------------------------------------
    def build(self, size):
        super().build(size)
        if self.dialog is not None:
            self.dialog.build(size)
        self.board_rect, self.panel_rect = board_and_panel(size)
        p = self.panel_rect.inflate(-36, -36)
        bh, gap = 38, 8
        half = (p.width - gap) // 2
        specs = [
            (t("play.undo"), self.undo, "normal", "U", True),
            (t("play.hint_off") if self.c.hints_on else t("play.hint"), self.hint,
             "primary" if self.c.hints_on else "normal", "H", True),
            (t("play.new"), self.new_game, "normal", "N", True),
            (t("play.confirm_resign") if time.monotonic() < self.confirm_resign_until else t("play.resign"),
             self.resign, "danger", "", not self.c.over),
            (t("play.save"), self.save, "normal", "Ctrl+S", True),
            (t("play.load"), self.load, "normal", "Ctrl+O", True),
        ]
        rows = (len(specs) + 1) // 2 + 1
        top = p.bottom - rows * bh - (rows - 1) * gap
        for i, (label, action, kind, key, enabled) in enumerate(specs):
            r, c = divmod(i, 2)
            rect = pygame.Rect(p.x + c * (half + gap), top + r * (bh + gap), half, bh)
            self.buttons.append(Button(rect, label, action, kind=kind, hint=key, enabled=enabled, size=15))
        home = pygame.Rect(p.x, p.bottom - bh, p.width, bh)
        self.buttons.append(Button(home, t("common.home"), self.back, kind="ghost", hint="Esc", size=15))
        self.buttons_top = top
        extra = self.view.extra_actions(self.c.state) if self.c.human_to_move else []
        self.pass_rect = None
        if extra:
            self.pass_rect = pygame.Rect(p.x, top - bh - 14, p.width, bh + 4)
            label = t("play.pass_button", move=self.c.state.action_to_display(extra[0], language()))
            self.buttons.append(Button(self.pass_rect, label, self.pass_move, kind="primary", hint="Space"))
        if self.c.error:
            self.retry_rect = pygame.Rect(p.right - 110, p.y + 62, 110, 28)
            self.buttons.append(Button(self.retry_rect, t("play.retry"), self.retry, size=14))
        if not self.c.over:
            self.result_dismissed = False
        if self.c.over and not self.result_dismissed:
            ob = self.overlay_rect()
            nb = pygame.Rect(0, 0, 200, 40)
            nb.midbottom = (ob.centerx, ob.bottom - 16)
            self.buttons.append(Button(nb, t("play.new"), self.new_game, kind="primary", hint="N"))

    def overlay_rect(self) -> pygame.Rect:
        """The result banner: low on the board, so the final position (a winning line) stays visible."""
        r = pygame.Rect(0, 0, min(440, self.board_rect.width - 40), 150)
        r.midbottom = (self.board_rect.centerx, self.board_rect.bottom - self.board_rect.height // 8)
        return r

    def handle_event(self, ev):
        if self.dialog is not None:
            self.dialog.handle_event(ev)
            return
        super().handle_event(ev)

    def on_click(self, pos):
        if super_hit(self, pos):
            return
        if self.c.over and self.board_rect.collidepoint(pos):
            self.result_dismissed = True
            return
        target = self.view.hit(pos)
        if target is None or not self.c.human_to_move:
            return
        action, selection = self.view.renderer.click(self.c.state, target, self.c.selection)
        if action is not None:
            self.c.play(action)
        else:
            self.c.selection = selection

    def on_wheel(self, dy, pos):
        self.moves.wheel(dy, pos)

    def on_key(self, key, mod):
        ctrl = mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        if key == pygame.K_z and ctrl or key == pygame.K_u and not ctrl:
            self.undo()
        elif key == pygame.K_s and ctrl:
            self.save()
        elif key == pygame.K_o and ctrl:
            self.load()
        elif ctrl:
            return
        elif key == pygame.K_h:
            self.hint()
        elif key == pygame.K_n:
            self.new_game()
        elif key == pygame.K_SPACE:
            self.pass_move()

    def back(self):
        self.app.go_home()

    def update(self, dt):
        self.c.update()
        self.view.take_events(self.c, lambda p: side_name(self.c.game.id, p))
        for key, fields in self.c.notices:
            self.app.toast(t(key, **fields), error=key.endswith("failed"))
        self.c.notices.clear()
        self.view.update(dt)

    def close(self):
        self.c.close()

    def frame_rate(self) -> float:
        if self.view.renderer.anim is not None:
            return 60.0
        if self.c.ai_thinking or self.c.hint.rid is not None or self.c.analysing:
            return 15.0  # the spinner and the progress bar
        if time.monotonic() < self.confirm_resign_until:
            return 4.0
        return 0.0

    # --- drawing ------------------------------------------------------------------------
    def draw(self, surface):
        pal = self.pal
        state = self.c.state
        mouse = self.app.mouse_pos()
        can_move = self.c.human_to_move and not self.c.pending_move
        ov = Overlays(palette=pal, last_action=self.c.last_action(), before=self.c.before_last(), show_legal=can_move,
                      hints=self.c.hint_moves(), selection=self.c.selection,
                      hover=mouse if can_move and self.board_rect.collidepoint(mouse) else None,
                      lang=language(), game_over=self.c.over)
        self.view.draw(surface, self.board_rect, state, ov)
        if self.c.over and self.view.renderer.anim is None and not self.result_dismissed:
            self.draw_result(surface)
        self.draw_panel(surface)
        self.draw_buttons(surface)
        if self.dialog is not None:
            self.dialog.draw(surface)

    def result_text(self) -> tuple[str, tuple]:
        pal = self.pal
        w = self.c.winner()
        if w is None:
            return t("play.draw"), pal.text
        if w == self.c.human:
            return t("play.you_win"), pal.good
        return (t("play.you_resigned") if self.c.resigned_by is not None else t("play.ai_wins")), pal.bad

    def draw_result(self, surface):
        r = self.overlay_rect()
        theme.alpha_rect(surface, (16, 18, 22), r, 215, 16)
        text, color = self.result_text()
        theme.text(surface, text, (r.centerx, r.y + 36), 30, color, bold=True, anchor="center")
        reason = reason_text(self.c.end_reason())
        if reason:
            theme.text(surface, theme.fit_text(reason, 15, r.width - 30), (r.centerx, r.y + 66), 15, self.pal.text_dim,
                       anchor="center")

    def draw_panel(self, surface):
        pal = self.pal
        c = self.c
        panel(surface, pal, self.panel_rect, 16)
        p = self.panel_rect.inflate(-36, -36)
        y = p.y
        theme.text(surface, theme.fit_text(game_name(c.game.id), 22, p.width, True), (p.x, y), 22, pal.text, bold=True)
        sub = t("play.subtitle", side=side_name(c.game.id, c.human), level=level_name(c.level))
        theme.text(surface, theme.fit_text(sub, 14, p.width), (p.x, y + 32), 14, pal.text_dim)
        y += 66
        # status: whose turn, the AI's progress, the result or a problem
        status = pygame.Rect(p.x, y, p.width, 60)
        r = self.view.renderer
        if c.error:
            theme.text(surface, theme.fit_text(t("play.ai_problem"), 16, p.width - 120, True), (p.x, y), 16,
                       pal.bad, bold=True)
            for i, line in enumerate(theme.wrap_text(c.error, 13, p.width)[:2]):
                theme.text(surface, theme.fit_text(line, 13, p.width), (p.x, y + 30 + i * 17), 13, pal.text_dim)
        elif c.over:
            text, color = self.result_text()
            reason = reason_text(c.end_reason())
            theme.text(surface, theme.fit_text(text + (f" · {reason}" if reason else ""), 20, p.width, True),
                       (p.x, y + 6), 20, color, bold=True)
            theme.text(surface, t("play.press_new"), (p.x, y + 36), 13, pal.text_faint)
        elif c.ai_thinking:
            thinking_block(surface, pal, status, self.app, c.thinking, self.app.ai.status, t("play.ai_thinking"))
        else:
            r.side_icon(surface, (p.x + 13, y + 14), 12, c.human, pal)
            key = "play.your_move_pass" if self.view.extra_actions(c.state) else "play.your_move"
            theme.text(surface, t(key), (p.x + 34, y + 14), 18, pal.text, bold=True, anchor="midleft")
            sub = t("play.select_target") if c.selection is not None else (
                t("play.hints_thinking") if c.hints_on and c.hint.rid is not None else "")
            if sub:
                theme.text(surface, sub, (p.x, y + 38), 13, pal.text_faint)
        y += 74
        labels = (side_name(c.game.id, 0), side_name(c.game.id, 1))
        evaluation(surface, pal, pygame.Rect(p.x, y, p.width, 44), c.value0, r.side_colors(pal), labels, c.proven0)
        y += 58
        bottom = (self.pass_rect.y if self.pass_rect else self.buttons_top) - 14
        if bottom - y > 40:
            theme.text(surface, t("play.moves"), (p.x, y), 13, pal.text_faint)
            first = c.history[0].current_player if c.history else 0
            self.moves.draw(surface, pal, pygame.Rect(p.x, y + 20, p.width, bottom - y - 20),
                            c.move_texts(language()), first)


def super_hit(scene, pos) -> bool:
    from gui.widgets import hit_buttons
    return hit_buttons(scene.buttons, pos)
