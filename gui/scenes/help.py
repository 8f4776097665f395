"""The help sheet (F1 or ?): the rules of a game, the keyboard shortcuts, and about the app
(version and licences). Drawn over the current scene, which keeps running underneath."""
from __future__ import annotations

import pygame

from engine.core.paths import APP_NAME, __version__
from games import GAME_IDS
from gui import theme
from gui.i18n import t
from gui.widgets import Button, hit_buttons, segmented

TABS = ("rules", "keys", "about")
#: (keys, i18n key of what they do), in the order of the sheet
SHORTCUTS = (
    ("U  ·  Ctrl+Z", "keys.undo"), ("Y  ·  Ctrl+Shift+Z", "keys.redo"),
    ("←  →  Home  End", "keys.step"), ("keys.click_move_keys", "keys.click_move"),
    ("↑  ↓  ·  Ctrl+↑  ·  Del  ·  K", "keys.variations"),
    ("H", "keys.hints"), ("P", "keys.policy"), ("N  ·  D", "keys.new"), ("E  ·  A", "keys.study"), ("Space", "keys.pass"),
    ("Ctrl+S  Ctrl+O", "keys.save_load"),
    ("Ctrl+Shift+S", "keys.save_as"),
    ("Ctrl+C  Ctrl+V", "keys.copy_paste"),
    ("F1  ?", "keys.help"), ("Esc", "keys.back"), ("F11", "keys.fullscreen"),
    ("keys.demo_keys", "keys.demo"), ("1–6  ·  R", "keys.home"),
)
LICENCES = ("about.licence_code", "about.licence_font", "about.licence_pygame", "about.licence_torch", "about.licence_numpy",
            "about.licence_onnx")


class HelpOverlay:
    #: a sheet to read, not a question: a game under it stops its clocks, as for the board editor
    asks = False

    def __init__(self, app, game_id: str | None, tab: str = "rules"):
        self.app = app
        self.game_id = game_id if game_id in GAME_IDS else app.settings["last_game"]
        if self.game_id not in GAME_IDS:
            self.game_id = GAME_IDS[0]
        self.tab = tab
        self.buttons: list[Button] = []
        self.rect = pygame.Rect(0, 0, 0, 0)

    def set_tab(self, tab: str) -> None:
        self.tab = tab

    def set_game(self, game_id: str) -> None:
        self.game_id = game_id

    def close(self) -> None:
        self.app.overlay = None
        self.app.invalidate()

    def build(self, size) -> None:
        w, h = size
        self.rect = pygame.Rect(0, 0, min(760, w - 48), min(620, h - 40))
        self.rect.center = (w // 2, h // 2)
        r = self.rect
        self.buttons = segmented(pygame.Rect(r.x + 24, r.y + 58, min(420, r.width - 48), 32),
                                 [(t(f"help.tab.{k}"), k) for k in TABS], self.tab, self.set_tab, size=14)
        self.buttons.append(Button(pygame.Rect(r.right - 24 - 110, r.y + 16, 110, 32), t("help.close"), self.close,
                                   kind="ghost", hint="Esc", size=14))
        self.body = pygame.Rect(r.x + 24, r.y + 104, r.width - 48, r.height - 124)
        if self.tab == "rules":
            from gui.scenes.home import game_name
            self.buttons += segmented(pygame.Rect(self.body.x, self.body.y, self.body.width, 30),
                                      [(game_name(g), g) for g in GAME_IDS], self.game_id, self.set_game, gap=4,
                                      size=12)

    def handle_event(self, ev) -> None:
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if not self.rect.collidepoint(ev.pos):
                self.close()
                return
            self.build(self.app.screen.get_size())
            hit_buttons(self.buttons, ev.pos)
        elif ev.type == pygame.KEYDOWN:
            if ev.key in (pygame.K_ESCAPE, pygame.K_F1, pygame.K_RETURN):
                self.close()
            elif ev.key == pygame.K_TAB:
                self.tab = TABS[(TABS.index(self.tab) + 1) % len(TABS)]
            elif ev.key in (pygame.K_LEFT, pygame.K_RIGHT) and self.tab == "rules":
                step = 1 if ev.key == pygame.K_RIGHT else -1
                self.game_id = GAME_IDS[(GAME_IDS.index(self.game_id) + step) % len(GAME_IDS)]

    def draw(self, surface) -> None:
        pal = self.app.palette
        theme.alpha_rect(surface, (8, 9, 12), surface.get_rect(), 160)
        theme.rounded_rect(surface, pal.panel, self.rect, 16)
        theme.rounded_rect(surface, pal.panel_border, self.rect, 16, 1)
        theme.text(surface, t("help.title"), (self.rect.x + 24, self.rect.y + 20), 22, pal.text, bold=True)
        body = self.body
        if self.tab == "rules":
            self._paragraphs(surface, pygame.Rect(body.x, body.y + 46, body.width, body.height - 46),
                             [t(f"rules.{self.game_id}")])
        elif self.tab == "keys":
            y = body.y
            kw = min(230, body.width // 3)
            for keys, what in SHORTCUTS:
                label = t(keys) if keys.startswith("keys.") else keys
                theme.text(surface, theme.fit_text(label, 14, kw - 10), (body.x, y), 14, pal.accent, bold=True)
                lines = theme.wrap_box(t(what), 14, [body.width - kw] * 2)   # a long one on two lines, not cut
                for k, line in enumerate(lines):
                    theme.text(surface, line, (body.x + kw, y + 19 * k), 14, pal.text)
                y += 25 + 19 * (len(lines) - 1)
                if y > body.bottom - 20:
                    break
        else:
            paras = [f"{APP_NAME} {__version__}", t("about.text")] + [t(k) for k in LICENCES]
            self._paragraphs(surface, body, paras)
        mouse = self.app.mouse_pos()
        for b in self.buttons:
            b.draw(surface, pal, mouse)

    def _paragraphs(self, surface, rect, paras) -> None:
        pal = self.app.palette
        y = rect.y
        for k, para in enumerate(paras):
            for line in theme.wrap_text(para, 15, rect.width):
                if y > rect.bottom - 20:
                    return
                theme.text(surface, line, (rect.x, y), 15, pal.text if k == 0 else pal.text_dim)
                y += 22
            y += 10
