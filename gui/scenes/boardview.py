"""The board part of the play and demo scenes: a renderer plus the sounds, animations and
announcements that follow the controller's moves."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards import Overlays, renderer_class
from gui.i18n import t


def panel_width(w: int) -> int:
    return max(300, min(400, int(w * 0.3)))


def board_and_panel(size, margin: int = 24) -> tuple[pygame.Rect, pygame.Rect]:
    """The board area on the left and the side panel on the right of a window of ``size``
    (the play, demo and board editor scenes)."""
    w, h = size
    pw = panel_width(w)
    panel_rect = pygame.Rect(w - margin - pw, margin, pw, h - 2 * margin)
    board_rect = pygame.Rect(margin, margin, w - 3 * margin - pw, h - 2 * margin)
    return board_rect, panel_rect


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
                    self.app.toast(t("play.passed", side=side_name(ev["player"])), about_game=True)
            elif kind == "end" and (ev.get("resigned") or ev.get("agreed")):
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

    # --- hints that teach --------------------------------------------------------------
    def hint_at(self, state, hints, mouse, rows=()) -> int | None:
        """The hinted move under the mouse: its badge on the board, or its row (``rows``:
        (rectangle, action) pairs of the side panel's hint table)."""
        for rect, action in rows:
            if rect.collidepoint(mouse):
                return action
        r = self.renderer
        if not hasattr(r, "grid"):   # not laid out yet (before the first frame)
            return None
        radius = min(r.hint_radius(), 30)
        for h in hints:
            pos = r.anchor(state, h.get("action"))
            if pos is not None and (mouse[0] - pos[0]) ** 2 + (mouse[1] - pos[1]) ** 2 <= radius ** 2:
                return h.get("action")
        return None

    def draw_variation(self, surface, line) -> None:
        """A hinted move and the line the search expects after it ((state, action) pairs),
        numbered in order, in the colour of the side that plays each."""
        r = self.renderer
        if not hasattr(r, "grid"):
            return
        colors = r.side_colors(self.app.palette)
        radius = min(r.hint_radius(), 26) * 0.9
        piece = getattr(r, "piece_radius", lambda: radius * 1.8)()
        for state, action in line:      # where a piece moves: a ring on it and a line to where it goes
            start, pos = r.move_origin(state, action), r.anchor(state, action)
            if start is not None and pos is not None:
                color = colors[state.current_player]
                pygame.draw.line(surface, theme.readable_on(color), start, pos, max(5, int(radius * 0.45)))
                pygame.draw.line(surface, color, start, pos, max(3, int(radius * 0.28)))
                theme.disc(surface, theme.readable_on(color), start, piece + 2, width=max(4, int(radius * 0.3)))
                theme.disc(surface, color, start, piece + 1, width=max(2, int(radius * 0.2)))
        for i, (state, action) in enumerate(line):
            pos = r.anchor(state, action)
            if pos is None:
                continue
            color = colors[state.current_player]
            theme.alpha_disc(surface, (10, 12, 16), (pos[0], pos[1] + 2), radius, 110)
            theme.alpha_disc(surface, color, pos, radius, 215)
            theme.disc(surface, theme.readable_on(color), pos, radius, width=2)
            theme.text(surface, str(i + 1), pos, max(10, int(radius * 0.95)), theme.readable_on(color), bold=True,
                       anchor="center")

    def draw_better(self, surface, state, action, label: str, color) -> None:
        """The better move the review found in ``state`` (the position before the move played):
        a ring where it goes, with the win rate it keeps, and for a piece that moves, a line
        from where it stands."""
        r = self.renderer
        if not hasattr(r, "grid"):
            return
        pos, start = r.anchor(state, action), r.move_origin(state, action)
        if pos is None:
            return
        radius = min(r.hint_radius(), 30)
        if start is not None:
            pygame.draw.line(surface, color, start, pos, max(3, int(radius * 0.25)))
        theme.alpha_disc(surface, (10, 12, 16), pos, radius, 170)
        theme.disc(surface, color, pos, radius, width=max(2, int(radius * 0.16)))
        theme.text(surface, label, pos, max(9, int(radius * 0.6)), color, bold=True, anchor="center")

    def draw_policy(self, surface, state, policy) -> None:
        """The network's prior ((action, prior) pairs) as a heatmap: the likelier a move, the
        stronger its spot; moves sharing a square (xiangqi's) add up."""
        r = self.renderer
        if not policy or not hasattr(r, "grid"):
            return
        spots: dict = {}
        for action, prior in policy:
            pos = r.anchor(state, action)
            if pos is not None:
                key = (int(pos[0]), int(pos[1]))
                spots[key] = spots.get(key, 0.0) + prior
        top = max(spots.values(), default=0.0) or 1.0
        radius = min(r.hint_radius(), 30)
        for pos, prior in spots.items():
            if prior < 0.005:
                continue  # the network gives it next to nothing: left plain
            strength = prior / top
            theme.alpha_disc(surface, self.app.palette.blunder, pos, radius * (0.45 + 0.55 * strength),
                             int(50 + 170 * strength))
            if prior >= 0.02:
                theme.text(surface, f"{round(100 * prior)}", pos, max(9, int(radius * 0.55)), (250, 250, 250),
                           bold=True, anchor="center")

    def hit(self, pos):
        if not self.rect.collidepoint(pos):
            return None
        return self.renderer.hit_test(pos)
