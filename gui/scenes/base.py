"""The scene base class: widgets rebuilt from the window size, events forwarded to them."""
from __future__ import annotations

import pygame

from gui import theme
from gui.i18n import t
from gui.widgets import Button, hit_buttons


class Scene:
    """One screen of the app. Subclasses override `build`, `draw` and maybe `on_key`/`update`."""

    title_key = ""

    def __init__(self, app):
        self.app = app
        self.buttons: list[Button] = []
        self.size = (0, 0)

    @property
    def pal(self):
        return self.app.palette

    # --- per frame -----------------------------------------------------------
    def build(self, size: tuple[int, int]) -> None:
        """Recompute rectangles and widgets for a window of ``size``."""
        self.size = size
        self.buttons = []

    def handle_event(self, ev) -> None:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            self.on_click(ev.pos)
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (4, 5):
            self.on_wheel(1 if ev.button == 4 else -1, getattr(ev, "pos", (0, 0)))
        elif ev.type == pygame.MOUSEWHEEL:
            self.on_wheel(int(ev.y), self.app.mouse_pos())
        elif ev.type == pygame.MOUSEMOTION:
            self.on_motion(ev.pos)
        elif ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.back()
            else:
                self.on_key(ev.key, ev.mod)

    def on_click(self, pos) -> None:
        hit_buttons(self.buttons, pos)

    def on_wheel(self, dy: int, pos) -> None:
        pass

    def on_motion(self, pos) -> None:
        pass

    def on_key(self, key: int, mod: int) -> None:
        pass

    def back(self) -> None:
        self.app.go_home()

    def update(self, dt: float) -> None:
        pass

    def frame_rate(self) -> float:
        """Frames per second this scene needs while nothing happens: 0 for a still picture
        (redrawn on input and replies), more while something animates or counts."""
        return 0.0

    def draw(self, surface: pygame.Surface) -> None:
        self.draw_buttons(surface)

    def draw_buttons(self, surface) -> None:
        mouse = self.app.mouse_pos()
        for b in self.buttons:
            b.draw(surface, self.pal, mouse)

    def close(self) -> None:
        """Leaving the scene: cancel what it started."""

    # --- shared pieces ----------------------------------------------------------
    def header(self, surface, title: str, subtitle: str = "") -> None:
        pal = self.pal
        w = self.size[0]
        theme.text(surface, "ZeroBoard", (28, 22), 24, pal.accent, bold=True)
        x = 28 + theme.FONTS.size("ZeroBoard", 24, True)[0] + 16
        if title:
            pygame.draw.line(surface, pal.panel_border, (x - 8, 26), (x - 8, 48), 1)
            theme.text(surface, theme.fit_text(title, 20, w // 2 - x), (x + 4, 25), 20, pal.text)
        if subtitle:
            theme.text(surface, subtitle, (28, 56), 14, pal.text_dim)

    def back_button(self, label_key: str = "common.home") -> Button:
        w = self.size[0]
        return Button(pygame.Rect(w - 28 - 130, 18, 130, 36), t(label_key), self.back, kind="ghost", hint="Esc")
