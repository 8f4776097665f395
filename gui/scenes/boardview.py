"""The board part of the play and demo scenes: a renderer plus the sounds, animations and
announcements that follow the controller's moves."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards import Overlays, renderer_class
from gui.i18n import t


class BoardView:
    def __init__(self, app, game, flipped: bool = False):
        self.app = app
        self.game = game
        cls = renderer_class(game.id)
        self.renderer = cls(game, flipped=flipped, animations=app.settings["animations"])
        self.rect = pygame.Rect(0, 0, 0, 0)

    def set_flipped(self, flipped: bool) -> None:
        if self.renderer.flipped != flipped:
            self.renderer.flipped = flipped
            self.renderer.rect = pygame.Rect(0, 0, 0, 0)  # forces a new layout

    def take_events(self, controller, side_name) -> None:
        """Sounds, animations and pass announcements for the moves the controller made."""
        events, controller.events = controller.events, []
        if events:
            self.app.invalidate()  # a move, an undo, another position looked at: the whole frame changes
        self.renderer.animations = self.app.settings["animations"]
        for ev in events:
            kind = ev.get("type")
            if kind == "move":
                if ev.get("shown", True):  # a move made while an earlier position is looked at is not animated
                    self.renderer.on_move(ev["before"], ev["after"], ev["action"])
                self.app.sound.play(self.app.sound.for_move(ev["before"], ev["after"]))
                if not self.renderer.is_board_action(ev["before"], ev["action"]):
                    self.app.toast(t("play.passed", side=side_name(ev["player"])))
            elif kind == "end" and ev.get("resigned"):
                self.app.sound.play("end")
            elif kind in ("new", "undo", "view"):
                self.renderer.anim = None

    def extra_actions(self, state) -> list[int]:
        """Legal actions that are not on the board (othello's pass): shown as buttons."""
        if state.is_terminal():
            return []
        return [a for a in state.legal_actions() if not self.renderer.is_board_action(state, a)]

    def update(self, dt: float) -> None:
        self.renderer.update(dt)

    def draw(self, surface, rect, state, ov: Overlays) -> None:
        self.rect = pygame.Rect(rect)
        try:
            self.renderer.draw(surface, self.rect, state, ov)
        except Exception as e:  # a renderer bug shows as a message, not a crash
            if self.app.strict:
                raise
            theme.text(surface, f"cannot draw the board: {e}", self.rect.center, 16, self.app.palette.bad,
                       anchor="center")

    def hit(self, pos):
        if not self.rect.collidepoint(pos):
            return None
        return self.renderer.hit_test(pos)
