"""Settings: language, sound, animations, colour-blind palette, window size, the AI's threads,
training's cores."""
from __future__ import annotations

import pygame

from engine.core.parallel import default_threads, usable_cores
from engine.core.paths import __version__, user_data_dir
from gui import theme
from gui.i18n import t
from gui.scenes.base import Scene
from gui.settings import WINDOW_PRESETS
from gui.training import default_workers, workers_for
from gui.widgets import Button, panel, segmented

#: thread counts offered besides "automatic", at most this many (the largest ones and 1)
THREAD_CHOICES = 5


def thread_options(cores: int, automatic: int, saved: int) -> list[tuple[str, int]]:
    """A row of counts of cores (the AI's threads, training's workers): automatic (0, which
    means ``automatic`` of them), then 1, powers of two below ``cores`` and ``cores`` itself (1
    and the largest, `THREAD_CHOICES` in all), and ``saved`` where a settings file asked for
    another number."""
    counts = sorted({n for n in (1, 2, 4, 8, 16, 32, 64, 128) if n < cores} | {cores})
    counts = counts[:1] + counts[1:][-(THREAD_CHOICES - 1):]
    if saved > 0 and saved not in counts:
        counts = sorted(counts + [saved])
    return [(t("settings.threads_auto", n=automatic), 0)] + [(str(n), n) for n in counts]


class SettingsScene(Scene):
    def build(self, size):
        super().build(size)
        w, h = size
        self.buttons.append(self.back_button())
        self.card = pygame.Rect(0, 0, min(760, w - 56), min(h - 110, 470))
        rowh, step = (38, 56) if h >= 760 else (32, 44)
        self.card.midtop = (w // 2, 84)
        s = self.app.settings
        on_off = [(t("settings.on"), True), (t("settings.off"), False)]
        label_w = min(260, self.card.width // 3)
        x = self.card.x + 28 + label_w
        cw = self.card.width - 56 - label_w
        y = self.card.y + 28
        self.rows = []
        specs = [
            ("settings.language", [("English", "en"), ("中文", "zh")], s["language"], self.app.set_language),
            ("settings.sound", on_off, s["sound"], self.app.set_sound),
            ("settings.animations", on_off, s["animations"], lambda v: s.set("animations", v)),
            ("settings.colorblind", on_off, s["colorblind"], self.app.set_colorblind),
            ("settings.window", [(p.replace("x", "×"), p) for p in WINDOW_PRESETS], s["window"], self.app.set_window),
            ("settings.fullscreen", on_off, s["fullscreen"], self.app.set_fullscreen),
            ("settings.ai_threads", thread_options(usable_cores(), default_threads(), s["ai_threads"]),
             s["ai_threads"], self.app.set_ai_threads),
            ("settings.train_workers", thread_options(usable_cores(), default_workers(), self.train_workers()),
             self.train_workers(), self.set_train_workers),
            ("settings.clock_pause", on_off, s["clock_pause"], lambda v: s.set("clock_pause", v)),
            ("settings.rate_takebacks", on_off, s["rate_takebacks"], lambda v: s.set("rate_takebacks", v)),
        ]
        for key, options, value, setter in specs:
            rect = pygame.Rect(x, y, cw, rowh)
            self.rows.append((t(key), rect))
            if key == "settings.rate_takebacks":   # the ratings' reset shares their row
                reset_w = min(cw // 2, theme.FONTS.size(t("settings.rating_reset"), 14)[0] + 28)
                self.buttons.append(Button(pygame.Rect(rect.right - reset_w, y, reset_w, rowh),
                                           t("settings.rating_reset"), self.app.reset_ratings, kind="danger", size=14))
                rect = pygame.Rect(x, y, cw - reset_w - 12, rowh)
            self.buttons += segmented(rect, options, value, setter, size=14)
            y += step
        self.info_y = y + 4
        self.info = [t("settings.data", path=str(user_data_dir())), t("settings.version", version=__version__)]
        if s["sound"] and self.app.sound._tried and not self.app.sound.available:
            self.info.append(t("settings.no_audio"))
        self.card.height = self.info_y + 20 * len(self.info) + 22 - self.card.y

    def train_workers(self) -> int:
        """The training cores row's choice: automatic (0), or the count a start would use (a
        settings file's count above this machine's cores shows as all of them)."""
        saved = self.app.settings["train_workers"]
        return saved and workers_for(saved)

    def set_train_workers(self, count: int) -> None:
        """Training's self-play workers from its next start (0: automatic); a training in
        progress keeps its own, and the person is told so."""
        self.app.settings.set("train_workers", count)
        tr = self.app.trainer
        if tr.running and workers_for(count) != tr.workers:
            self.app.toast(t("settings.train_workers_next", n=tr.workers, next=workers_for(count)))

    def draw(self, surface):
        pal = self.pal
        self.header(surface, t("settings.title"))
        panel(surface, pal, self.card, 18)
        for label, rect in self.rows:   # a name too long for its column ends in an ellipsis, never under the choices
            theme.text(surface, theme.fit_text(label, 16, rect.x - self.card.x - 36), (self.card.x + 28, rect.centery),
                       16, pal.text_dim, anchor="midleft")
        for i, line in enumerate(self.info):
            theme.text(surface, theme.fit_text(line, 13, self.card.width - 56), (self.card.x + 28, self.info_y + i * 20),
                       13, pal.text_faint)
        self.draw_buttons(surface)
