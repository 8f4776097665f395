"""The in-app file dialog for loading and saving games (pygame has no native one, and
tkinter may be missing from the packaged app): it opens on the saved-games folder, browses
any folder (a click on a folder, "Up", Backspace), and lists the records it can read (PGN,
SGF, PSQ, the app's text records) with their game, level, moves, result and date, newest
first. A file that cannot be read is listed in red with the reason. To load, a click on a
record loads it; to save ("save as"), a file name is typed (the game and the time at first),
a format chosen, and the game written to the folder shown."""
from __future__ import annotations

from pathlib import Path

import pygame

from gui import theme
from gui.i18n import t
from gui.records import RecordInfo, games_dir, list_folder, summary, verify
from gui.scenes.home import game_name
from gui.widgets import Button, hit_buttons, panel, segmented


class LoadDialog:
    ROW = 48

    NAME_LIMIT = 80

    def __init__(self, app, on_pick, on_close, folder: Path | None = None, on_save=None, formats=(), name: str = ""):
        """``on_pick(path)`` loads a record; with ``on_save(folder, format_id, name)`` and
        ``formats`` (`games.records.Format`s, the default first) the dialog saves instead, under
        the file name typed in its name box (``name`` at first)."""
        self.name = name
        self.app = app
        self.on_pick = on_pick
        self.on_close = on_close
        self.on_save = on_save
        self.formats = list(formats)
        self.format = self.formats[0].id if self.formats else None
        self.folder = Path(folder) if folder else games_dir()
        self.folders: list[Path] = []
        self.records: list[RecordInfo] = []
        self.scroll = 0
        self.selected: int | None = None
        self.rect = pygame.Rect(0, 0, 0, 0)
        self.list_rect = pygame.Rect(0, 0, 0, 0)
        self.buttons: list[Button] = []
        self.format_buttons: list[Button] = []
        self.open_folder(self.folder)

    # --- navigation ------------------------------------------------------------------------
    def open_folder(self, folder: Path) -> None:
        """List ``folder``: the records' headers at once, each record replayed to its end when
        its row is first shown (`gui.records.verify`), so a big folder opens without a wait."""
        self.folder = Path(folder)
        self.folders, self.records = list_folder(self.folder, replay=False)
        self.scroll = 0
        self.selected = None

    def go_up(self) -> None:
        parent = self.folder.parent
        if parent != self.folder:
            self.open_folder(parent)

    def go_home(self) -> None:
        self.open_folder(games_dir())

    @property
    def entries(self) -> list:
        return list(self.folders) + list(self.records)

    def checked(self, i: int):
        """Entry ``i``, its record replayed to its end (an unreadable one says why)."""
        j = i - len(self.folders)
        if 0 <= j < len(self.records):
            self.records[j] = verify(self.records[j])
        return self.entries[i]

    def activate(self, i: int) -> None:
        entry = self.checked(i)
        if isinstance(entry, Path):
            self.open_folder(entry)
        elif self.on_save is not None:
            return                  # saving: a record row is only shown
        elif not entry.game_id:   # the reason is on the row already; say it and stay open
            name = entry.path.name
            message = entry.error if name in entry.error else f"{name}: {entry.error}"
            self.app.toast(t("play.load_failed", message=message), error=True)
        else:
            self.on_pick(entry.path)

    # --- layout and input ------------------------------------------------------------------------
    def build(self, size):
        w, h = size
        self.rect = pygame.Rect(0, 0, min(760, w - 40), min(600, h - 40))
        self.rect.center = (w // 2, h // 2)
        name_row = 46 if self.on_save is not None else 0   # saving: the file name box above the format
        self.list_rect = pygame.Rect(self.rect.x + 20, self.rect.y + 108, self.rect.width - 40,
                                     self.rect.height - 108 - 66 - name_row)
        self.name_rect = pygame.Rect(0, 0, 0, 0)
        y = self.rect.y + 62
        up = pygame.Rect(self.rect.x + 20, y, 96, 32)
        home = pygame.Rect(up.right + 8, y, 150, 32)
        cancel = pygame.Rect(0, 0, 140, 38)
        cancel.bottomright = (self.rect.right - 20, self.rect.bottom - 16)
        self.buttons = [Button(up, t("load.up"), self.go_up, kind="ghost", size=14),
                        Button(home, t("load.games_folder"), self.go_home, kind="ghost", size=14),
                        Button(cancel, t("common.cancel"), self.on_close, kind="ghost", hint="Esc", size=15)]
        self.format_buttons: list[Button] = []
        if self.on_save is not None:
            save = pygame.Rect(0, 0, 200, 38)
            save.bottomright = (cancel.x - 10, cancel.bottom)
            self.buttons.append(Button(save, t("save.here"), self.save, kind="primary", hint="Enter", size=15))
            label_w = theme.FONTS.size(t("save.format"), 13)[0] + 12
            row = pygame.Rect(self.rect.x + 20 + label_w, cancel.y, max(0, save.x - 16 - self.rect.x - 20 - label_w),
                              cancel.height)
            options = [(_format_label(f), f.id) for f in self.formats]
            self.format_buttons = segmented(row, options, self.format, self._pick_format, size=13)
            label_w = theme.FONTS.size(t("save.name"), 13)[0] + 12
            self.name_rect = pygame.Rect(self.rect.x + 20 + label_w, self.list_rect.bottom + 8,
                                         self.rect.width - 40 - label_w - 60, 32)
        self._clamp()

    def _pick_format(self, fid) -> None:
        self.format = fid

    def save(self) -> None:
        from gui.records import clean_name
        if self.on_save is not None and self.format:
            self.on_save(self.folder, self.format, clean_name(self.name) or None)

    def _type(self, text: str) -> None:
        """Typed characters go into the name box (those no file name may hold are left out)."""
        from gui.records import clean_name
        kept = "".join(ch for ch in text if clean_name("a" + ch + "a") == "a" + ch + "a")
        self.name = (self.name + kept)[:self.NAME_LIMIT]

    def _visible(self) -> int:
        return max(1, (self.list_rect.height - 8) // self.ROW)

    def _clamp(self):
        self.scroll = max(0, min(self.scroll, len(self.entries) - self._visible()))

    def _row_at(self, pos):
        if not self.list_rect.collidepoint(pos):
            return None
        i = self.scroll + (pos[1] - self.list_rect.y - 4) // self.ROW
        return i if 0 <= i < len(self.entries) else None

    def handle_event(self, ev):
        n = len(self.entries)
        if ev.type == pygame.KEYDOWN:
            if ev.key == pygame.K_ESCAPE:
                self.on_close()
            elif ev.key == pygame.K_BACKSPACE and self.on_save is not None:
                self.name = self.name[:-1]   # saving: Backspace edits the name (the Up button goes up)
            elif ev.key == pygame.K_BACKSPACE:
                self.go_up()
            elif ev.key in (pygame.K_DOWN, pygame.K_UP, pygame.K_PAGEDOWN, pygame.K_PAGEUP) and n:
                step = {pygame.K_DOWN: 1, pygame.K_UP: -1, pygame.K_PAGEDOWN: self._visible(),
                        pygame.K_PAGEUP: -self._visible()}[ev.key]
                self.selected = max(0, min(n - 1, (self.selected if self.selected is not None else -1) + step))
                if self.selected < self.scroll:
                    self.scroll = self.selected
                elif self.selected >= self.scroll + self._visible():
                    self.scroll = self.selected - self._visible() + 1
            elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.selected is not None and self.selected < n \
                    and (self.on_save is None or isinstance(self.entries[self.selected], Path)):
                self.activate(self.selected)
            elif ev.key in (pygame.K_RETURN, pygame.K_KP_ENTER) and self.on_save is not None:
                self.save()
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 1:
            if hit_buttons(self.buttons, ev.pos) or hit_buttons(self.format_buttons, ev.pos):
                return
            i = self._row_at(ev.pos)
            if i is not None:
                self.activate(i)
            elif not self.rect.collidepoint(ev.pos):
                self.on_close()
        elif ev.type == pygame.TEXTINPUT and self.on_save is not None:
            self._type(ev.text)
        elif ev.type == pygame.MOUSEMOTION and self.on_save is None:
            i = self._row_at(ev.pos)   # the row under the mouse is the one Enter opens
            if i is not None:
                self.selected = i
        elif ev.type == pygame.MOUSEWHEEL:
            self.scroll = max(0, self.scroll - int(ev.y))
            self._clamp()
        elif ev.type == pygame.MOUSEBUTTONDOWN and ev.button in (4, 5):
            self.scroll = max(0, self.scroll + (-1 if ev.button == 4 else 1))
            self._clamp()

    # --- drawing -------------------------------------------------------------------------------
    def draw(self, surface):
        pal = self.app.palette
        theme.alpha_rect(surface, (0, 0, 0), surface.get_rect(), 150)
        panel(surface, pal, self.rect, 16)
        title = theme.text(surface, t("load.title") if self.on_save is None else t("save.title"), (self.rect.x + 20, self.rect.y + 20), 20, pal.text, bold=True)
        if self.on_save is None:
            theme.text(surface, theme.fit_text(t("load.formats"), 12, self.rect.right - 20 - title.right - 20),
                       (self.rect.right - 20, self.rect.y + 26), 12, pal.text_faint, anchor="topright")
        mouse = self.app.mouse_pos()
        for b in self.buttons[:2]:
            b.draw(surface, pal, mouse)
        x0 = self.buttons[1].rect.right + 12
        theme.text(surface, _tail(str(self.folder), 13, self.rect.right - 20 - x0), (x0, self.buttons[0].rect.centery),
                   13, pal.text_dim, anchor="midleft")
        lr = self.list_rect
        theme.rounded_rect(surface, pal.bg2, lr, 10)
        entries = self.entries
        if not entries:
            empty = t("load.empty") if self.folder == games_dir() else t("load.folder_empty")
            theme.text(surface, empty, lr.center, 15, pal.text_faint, anchor="center")
        clip = surface.get_clip()
        surface.set_clip(lr)
        visible = self._visible()
        for k in range(len(entries[self.scroll:self.scroll + visible])):
            i = self.scroll + k
            entry = self.checked(i)
            row = pygame.Rect(lr.x + 4, lr.y + 4 + k * self.ROW, lr.width - 8, self.ROW - 4)
            if row.collidepoint(mouse) or i == self.selected:
                theme.rounded_rect(surface, pal.button_hover, row, 8)
            if isinstance(entry, Path):
                self._draw_folder(surface, pal, row, entry)
            else:
                self._draw_record(surface, pal, row, entry)
        surface.set_clip(clip)
        if self.on_save is None:
            count = t("load.count", folders=len(self.folders), n=len(self.records))
            if len(entries) > visible:
                count += t("home.note.sep") + t("load.scroll")
            theme.text(surface, count, (self.rect.x + 20, self.buttons[2].rect.centery), 13, pal.text_faint,
                       anchor="midleft")
        else:
            self._draw_name(surface, pal)
            theme.text(surface, t("save.format"), (self.rect.x + 20, self.buttons[2].rect.centery), 13,
                       pal.text_dim, anchor="midleft")
            for b, f in zip(self.format_buttons, self.formats):
                b.selected = f.id == self.format
                b.draw(surface, pal, mouse)
        for b in self.buttons[2:]:
            b.draw(surface, pal, mouse)

    def _draw_name(self, surface, pal) -> None:
        """The file name box: its label, the name typed so far with a caret, the extension after it."""
        r = self.name_rect
        theme.text(surface, t("save.name"), (self.rect.x + 20, r.centery), 13, pal.text_dim, anchor="midleft")
        theme.rounded_rect(surface, pal.bg2, r, 8)
        theme.rounded_rect(surface, pal.accent, r, 8, 1)
        ext = next((f.extension for f in self.formats if f.id == self.format), "")
        theme.text(surface, ext, (r.right + 8, r.centery), 14, pal.text_faint, anchor="midleft")
        shown = _tail(self.name, 14, r.width - 24) if self.name else ""
        end = theme.text(surface, shown, (r.x + 10, r.centery), 14, pal.text, anchor="midleft").right if shown \
            else r.x + 10
        pygame.draw.line(surface, pal.text, (end + 2, r.y + 7), (end + 2, r.bottom - 8), 2)

    def _draw_folder(self, surface, pal, row, path: Path):
        icon = pygame.Rect(row.x + 12, row.centery - 8, 22, 16)
        theme.rounded_rect(surface, pal.text_dim, icon, 3)
        theme.rounded_rect(surface, pal.text_dim, pygame.Rect(icon.x, icon.y - 4, 10, 6), 2)
        theme.text(surface, theme.fit_text(path.name or str(path), 15, row.width - 60, bold=True),
                   (icon.right + 12, row.centery), 15, pal.text, bold=True, anchor="midleft")

    def _draw_record(self, surface, pal, row, rec: RecordInfo):
        top, bottom = row.y + 14, row.y + 33
        x = row.x + 12
        if not rec.game_id:
            r = theme.text(surface, t("load.unreadable"), (x, top), 15, pal.bad, bold=True, anchor="midleft")
            theme.text(surface, theme.fit_text(rec.error, 12, row.right - 12 - r.right - 12), (r.right + 12, top),
                       12, pal.text_faint, anchor="midleft")
            theme.text(surface, theme.fit_text(rec.path.name, 12, row.width - 24), (x, bottom), 12, pal.text_faint,
                       anchor="midleft")
            return
        name = game_name(rec.game_id)
        if rec.variant:
            name += " " + " ".join(f"{v}×{v}" if k == "size" else str(v) for k, v in rec.variant.items())
        r = theme.text(surface, name, (x, top), 15, pal.text, bold=True, anchor="midleft")
        level = str(rec.meta.get("level", ""))
        if level:
            shown = t(f"level.{level}")
            r = theme.text(surface, shown if shown != f"level.{level}" else level[:20], (r.right + 12, top), 13,
                           pal.text_dim, anchor="midleft")
        date = str(rec.meta.get("date", ""))
        if len(date) <= 10 and rec.date.startswith(date):   # the day only: the file's time says more
            date = rec.date
        date_w = theme.text(surface, date[:19], (row.right - 12, top), 13, pal.text_dim, anchor="midright").width \
            if date else 0
        about = summary(rec.meta)
        if about:
            theme.text(surface, theme.fit_text(about, 13, max(0, row.right - 24 - date_w - r.right - 12)),
                       (r.right + 12, top), 13, pal.text_faint, anchor="midleft")
        players = " – ".join(p for p in (rec.meta.get("first_player", ""), rec.meta.get("second_player", ""))
                             if p and _drawable(p))
        line2 = rec.path.name + (f"   {players}" if players else "")
        theme.text(surface, theme.fit_text(line2, 12, row.width - 24), (x, bottom), 12, pal.text_faint,
                   anchor="midleft")



def _tail(path: str, size: int, width: int) -> str:
    """``path`` cut at its start ("…/games/downloads") to fit ``width``: the end says where one is."""
    if theme.FONTS.size(path, size)[0] <= width:
        return path
    lo, hi = 0, len(path)
    while lo < hi:   # the longest tail that fits
        mid = (lo + hi) // 2
        if theme.FONTS.size("…" + path[mid:], size)[0] <= width:
            hi = mid
        else:
            lo = mid + 1
    return "…" + path[lo:]


def _format_label(f) -> str:
    shown = t(f"save.fmt.{f.id}")
    return shown if shown != f"save.fmt.{f.id}" else f.name


_GLYPHS: dict[str, bool] = {}
_TOFU: list[bytes] = []


def _drawable(text: str, size: int = 12) -> bool:
    """Does the bundled font have every character of ``text``? A name from another program's
    record may use characters the app's font subset leaves out, which would be drawn as boxes."""
    try:
        font = theme.FONTS.get(size)

        def pixels(c):
            return pygame.image.tobytes(font.render(c, False, (255, 255, 255), (0, 0, 0)), "RGB")
        if not _TOFU:
            _TOFU.append(pixels("\ue000"))  # a private-use character: drawn as the missing-glyph box
        for c in set(text):
            if c not in _GLYPHS:
                _GLYPHS[c] = not c.strip() or pixels(c) != _TOFU[0]
            if not _GLYPHS[c]:
                return False
        return True
    except Exception:
        return False
