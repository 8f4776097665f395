"""The in-app list of saved games (newest first); a click loads one."""
from __future__ import annotations

import pygame

from gui import theme
from gui.i18n import t
from gui.records import list_records, summary
from gui.scenes.home import game_name
from gui.widgets import Button, hit_buttons, panel


class LoadDialog:
    ROW = 44

    def __init__(self, app, on_pick, on_close):
        self.app = app
        self.on_pick = on_pick
        self.on_close = on_close
        self.records = list_records()
        self.scroll = 0
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []

    def build(self, size):
        w, h = size
        self.rect = pygame.Rect(0, 0, min(640, w - 40), min(560, h - 40))
        self.rect.center = (w // 2, h // 2)
        self.list_rect = pygame.Rect(self.rect.x + 20, self.rect.y + 64, self.rect.width - 40, self.rect.height - 64 - 70)
        cancel = pygame.Rect(0, 0, 140, 38)
        cancel.bottomright = (self.rect.right - 20, self.rect.bottom - 18)
        self.buttons = [Button(cancel, t("common.cancel"), self.on_close, kind="ghost", hint="Esc", size=15)]
        visible = max(1, self.list_rect.height // self.ROW)
        self.scroll = max(0, min(self.scroll, len(self.records) - visible))

    def _row_at(self, pos):
        if not self.list_rect.collidepoint(pos):
            return None
        i = self.scroll + (pos[1] - self.list_rect.y) // self.ROW
        return i if 0 <= i < len(self.records) else None

    def handle_event(self, ev):
        if ev.type == pygame.KEYDOWN and ev.key == pygame.K_ESCAPE:
            self.on_close()
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if hit_buttons(self.buttons, ev.pos):
                return
            i = self._row_at(ev.pos)
            if i is not None:
                self.on_pick(self.records[i].path)
            elif not self.rect.collidepoint(ev.pos):
                self.on_close()
        elif ev.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - int(ev.y))
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (4, 5):
            self.scroll = max(0, self.scroll + (-1 if ev.button == 4 else 1))

    def draw(self, surface):
        pal = self.app.palette
        theme.alpha_rect(surface, (0, 0, 0), surface.get_rect(), 150)
        panel(surface, pal, self.rect, 16)
        theme.text(surface, t("load.title"), (self.rect.x + 20, self.rect.y + 20), 20, pal.text, bold=True)
        theme.text(surface, t("load.folder"), (self.rect.right - 20, self.rect.y + 26), 12, pal.text_faint,
                   anchor="topright")
        lr = self.list_rect
        theme.rounded_rect(surface, pal.bg2, lr, 10)
        if not self.records:
            theme.text(surface, t("load.empty"), lr.center, 15, pal.text_faint, anchor="center")
        mouse = self.app.mouse_pos()
        clip = surface.get_clip()
        surface.set_clip(lr)
        visible = max(1, lr.height // self.ROW)
        for k, rec in enumerate(self.records[self.scroll:self.scroll + visible]):
            row = pygame.Rect(lr.x + 4, lr.y + 4 + k * self.ROW, lr.width - 8, self.ROW - 4)
            if row.collidepoint(mouse):
                theme.rounded_rect(surface, pal.button_hover, row, 8)
            name = game_name(rec.game_id) if rec.game_id else t("load.unreadable")
            if rec.variant:
                name += " " + "×".join(str(v) for v in rec.variant.values())
            r = theme.text(surface, name, (row.x + 12, row.centery), 15, pal.text if rec.game_id else pal.bad,
                           bold=True, anchor="midleft")
            level = rec.meta.get("level", "")
            if level:
                r = theme.text(surface, t(f"level.{level}") if t(f"level.{level}") != f"level.{level}" else level,
                               (r.right + 12, row.centery), 13, pal.text_dim, anchor="midleft")
            about = summary(rec.meta)
            if about:
                theme.text(surface, theme.fit_text(about, 13, max(0, row.right - 12 - row.width // 3 - r.right - 12)),
                           (r.right + 12, row.centery), 13, pal.text_faint, anchor="midleft")
            theme.text(surface, theme.fit_text(rec.date or rec.path.name, 13, row.width // 3), (row.right - 12, row.centery),
                       13, pal.text_dim, anchor="midright")
        surface.set_clip(clip)
        if len(self.records) > visible:
            theme.text(surface, t("load.more", n=len(self.records)), (self.rect.x + 20, self.rect.bottom - 36), 13,
                       pal.text_faint, anchor="midleft")
        mouse = self.app.mouse_pos()
        for b in self.buttons:
            b.draw(surface, pal, mouse)
