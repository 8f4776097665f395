"""Train: keep improving a game's AI in the background; live progress and charts, and the
choice between the shipped model and the newest trained one."""
from __future__ import annotations

import time

import pygame

from engine.core.parallel import usable_cores
from engine.core.paths import user_model_path
from games import GAME_IDS, get_game
from gui import theme
from gui.i18n import t
from gui.scenes.base import Scene
from gui.scenes.home import game_name
from gui.training import translated, workers_for
from gui.widgets import Button, line_chart, panel, segmented


def _fmt_duration(seconds: float) -> str:
    seconds = int(seconds)
    h, rem = divmod(seconds, 3600)
    m, s = divmod(rem, 60)
    return f"{h}:{m:02d}:{s:02d}" if h else f"{m}:{s:02d}"


class TrainScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        tr = app.trainer
        self.game_id = tr.game_id if tr.running and tr.game_id else app.settings["last_game"]
        if self.game_id not in GAME_IDS:
            self.game_id = GAME_IDS[0]
        self._load_history()

    def _load_history(self):
        """Show the run's earlier generations (they survive restarts of the app and of training)."""
        tr = self.app.trainer
        game = self._game()
        if game is not None and not tr.running:
            tr.load_history(game.key, self.game_id)

    def _game(self):
        try:
            return get_game(self.game_id)
        except Exception:
            return None

    def pick(self, gid):
        if self.app.trainer.running:
            self.app.toast(t("train.stop_first"))
            return
        self.game_id = gid
        self._load_history()

    def toggle(self):
        tr = self.app.trainer
        if tr.running:
            tr.stop()
        elif self._game() is None:
            self.app.toast(t("home.unavailable"), error=True)
        elif self.damaged():
            self.offer_set_aside()   # starting again would fail on the same damaged file
        else:
            tr.start(self.game_id, workers=self.workers())

    def workers(self) -> int:
        """The self-play workers (cores) the next start uses: the ``train_workers`` setting."""
        return workers_for(self.app.settings["train_workers"])

    def cores_text(self) -> str:
        """How many cores the training in progress uses (and, when the setting changed since it
        started, how many the next start will), or how many a start would use."""
        tr, total, wanted = self.app.trainer, usable_cores(), self.workers()
        if not tr.running:
            return t("train.cores_next", n=wanted, total=total)
        if tr.workers != wanted:
            return t("train.cores_changed", n=tr.workers, total=total, next=wanted)
        return t("train.cores_used", n=tr.workers, total=total)

    def damaged(self) -> bool:
        """Whether this game's last training failed on a damaged run folder or trained model."""
        tr = self.app.trainer
        return not tr.running and tr.status == "error" and tr.game_id == self.game_id and bool(tr.damage)

    def offer_set_aside(self):
        """Ask, then move the damaged run folder or trained model aside (renamed, never
        deleted) and start training afresh."""
        tr = self.app.trainer
        path = tr.damaged_path() if self.damaged() else None
        if path is None:
            return
        key = "train.set_aside_run_text" if tr.damage == "run_damaged" else "train.set_aside_model_text"
        text = t(key, game=game_name(self.game_id), name=path.name, folder=path.parent)
        self.app.ask(t("train.set_aside_title"), text,
                     [(t("train.set_aside_yes"), self.set_aside_and_start, "primary"),
                      (t("common.cancel"), lambda: None, "normal")])

    def set_aside_and_start(self):
        tr = self.app.trainer
        game = self._game()
        path, damage = tr.damaged_path(), tr.damage
        moved = tr.set_aside_damaged()
        if moved is None:
            self.app.toast(t("train.set_aside_failed", path=path), error=True)
            return
        if damage == "model_damaged" and game is not None:
            self.app.settings.set_model_choice(game.key, "shipped")   # the file is gone: the shipped model plays
        self.app.toast(t("train.set_aside_done", path=moved))
        tr.start(self.game_id, workers=self.workers())

    def choose_model(self, choice):
        game = self._game()
        if game is None:
            return
        if choice == "trained" and not self.trained_path(game):
            self.app.toast(t("train.no_trained"))
            return
        self.app.settings.set_model_choice(game.key, choice)

    @staticmethod
    def trained_path(game):
        try:
            p = user_model_path(game.key)
            return p if p.exists() else None
        except OSError:
            return None

    def build(self, size):
        super().build(size)
        w, h = size
        self.buttons.append(self.back_button())
        m = 28
        self.top = pygame.Rect(m, 84, w - 2 * m, 150)
        self.buttons += segmented(pygame.Rect(m + 20, self.top.y + 40, self.top.width - 40, 36),
                                  [(game_name(g), g) for g in GAME_IDS], self.game_id, self.pick, gap=4, size=13)
        tr = self.app.trainer
        running = tr.running
        label = t("train.stop") if running else t("train.start")
        narrow = self.top.width < 900  # small windows: narrower buttons leave the status line its room
        self.start_rect = sb = pygame.Rect(m + 20, self.top.y + 94, 150 if narrow else 200, 38)
        self.buttons.append(Button(sb, label, self.toggle, kind="danger" if running else "primary",
                                   enabled=tr.status != "stopping", hint="" if narrow else "Space"))
        game = self._game()
        self.model_rect = None
        if game is not None:
            choice = self.app.settings.model_choice(game.key)
            mw = min(250 if narrow else 360, self.top.width // 3)
            mr = pygame.Rect(self.top.right - 20 - mw, sb.y, mw, 38)
            self.buttons += segmented(mr, [(t("train.model_shipped"), "shipped"), (t("train.model_trained"), "trained")],
                                      choice, self.choose_model, size=14)
            self.model_rect = mr
        self.stats_y = self.top.bottom + 18
        # a damaged run folder or trained model: what is wrong and the way out, where the numbers are
        self.notice_rect = self.notice_button = None
        if self.damaged():
            self.notice_rect = r = pygame.Rect(m, self.stats_y, w - 2 * m, 74)
            label = t("train.set_aside")
            bw = min(theme.FONTS.size(label, 14)[0] + 40, r.width // 3)
            self.notice_button = Button(pygame.Rect(r.right - 16 - bw, r.centery - 18, bw, 36), label,
                                        self.offer_set_aside, kind="primary", size=14)
            self.buttons.append(self.notice_button)

    def frame_rate(self) -> float:
        return 1.0 if self.app.trainer.running else 0.0  # the running time counts seconds

    def on_key(self, key, mod):
        if key == pygame.K_SPACE:
            self.toggle()
        elif key == pygame.K_TAB:
            self.pick(GAME_IDS[(GAME_IDS.index(self.game_id) + 1) % len(GAME_IDS)])

    def draw_notice(self, surface):
        pal = self.pal
        tr = self.app.trainer
        r = self.notice_rect
        panel(surface, pal, r, 12)
        room = self.notice_button.rect.x - 16 - (r.x + 16)
        theme.text(surface, theme.fit_text(translated(tr.message), 15, room, True), (r.x + 16, r.y + 10), 15,
                   pal.bad, bold=True)
        help_key = "train.damaged_run_help" if tr.damage == "run_damaged" else "train.damaged_model_help"
        for i, line in enumerate(theme.wrap_text(t(help_key), 13, room)[:2]):
            theme.text(surface, line, (r.x + 16, r.y + 34 + 17 * i), 13, pal.text_dim)

    def draw(self, surface):
        pal = self.pal
        tr = self.app.trainer
        w, h = self.size
        self.header(surface, t("train.title"))
        panel(surface, pal, self.top, 16)
        choose = theme.text(surface, t("train.choose"), (self.top.x + 20, self.top.y + 14), 14, pal.text_dim)
        # the cores of the run (the setting is in Settings), right of the games' label
        cores = theme.fit_text(self.cores_text(), 13, self.top.right - 20 - (choose.right + 24))
        theme.text(surface, cores, (self.top.right - 20, choose.centery), 13, pal.text_faint, anchor="midright")
        # status line
        own = tr.game_id == self.game_id
        x = self.start_rect.right + 20
        if tr.running and own:
            status = {"starting": t("train.starting"), "running": t("train.running"),
                      "stopping": t("train.stopping")}.get(tr.status, tr.status)
            status += f" · {_fmt_duration(time.monotonic() - tr.started_at)}"
            color = pal.good
        elif tr.running:
            status, color = t("train.busy_other", game=game_name(tr.game_id)), pal.text_dim
        elif self.notice_rect is not None:   # what went wrong is said below, with the way out
            status, color = t("train.stopped"), pal.bad
        elif tr.status == "error" and own:
            status, color = t("train.failed", message=translated(tr.message)), pal.bad
        else:
            status, color = t("train.idle"), pal.text_dim
        # the status comes first; the model choice's label takes what is left (small windows)
        end = (self.model_rect.x - 14 - 60) if self.model_rect is not None else self.top.right - 20
        status = theme.fit_text(status, 15, end - x - 16)
        shown = theme.text(surface, status, (x, self.start_rect.centery - (6 if tr.selfplay and own else 0)),
                           15, color, anchor="midleft")
        label_left = self.top.right - 20
        if self.model_rect is not None:
            label = theme.fit_text(t("train.model_used"), 14, self.model_rect.x - 14 - (x + shown.width + 16))
            label_left = theme.text(surface, label, (self.model_rect.x - 14, self.model_rect.centery), 14,
                                    pal.text_dim, anchor="midright").x
        # the running generation's self-play: a bar and its count, in the room left of the label
        sp = tr.selfplay if own and tr.running else {}
        if sp.get("of"):
            count = t("train.selfplay", generation=(sp.get("generation") or 0), games=sp.get("games") or 0, of=sp["of"])
            room = label_left - 16 - x
            count_w = theme.FONTS.size(count, 12)[0]
            bar = pygame.Rect(x, self.start_rect.bottom - 6, max(40, min(360, room - count_w - 10)), 6)
            from gui.widgets import progress_bar
            progress_bar(surface, pal, bar, (sp.get("games") or 0) / max(1, sp["of"]), pal.good)
            theme.text(surface, theme.fit_text(count, 12, label_left - 16 - bar.right - 10),
                       (bar.right + 10, bar.centery), 12, pal.text_faint, anchor="midleft")
        # numbers
        last = tr.latest() if own else {}
        stats = [(t("train.games"), last.get("games")), (t("train.generation"), last.get("generation")),
                 (t("train.positions"), last.get("positions")), (t("train.elo"), last.get("elo"))]
        m = 28
        gap = 14
        sw = (w - 2 * m - gap * 3) / 4
        y = self.stats_y
        if self.notice_rect is not None:
            self.draw_notice(surface)
            stats = []
        for i, (label, value) in enumerate(stats):
            r = pygame.Rect(round(m + i * (sw + gap)), y, round(sw), 74)
            panel(surface, pal, r, 12)
            theme.text(surface, label, (r.x + 14, r.y + 10), 13, pal.text_faint)
            if isinstance(value, float):
                vs = f"{value:,.0f}" if abs(value) >= 100 else f"{value:.3g}"
            elif isinstance(value, int):
                vs = f"{value:,}"
            else:
                vs = "–"
            theme.text(surface, vs, (r.x + 14, r.y + 32), 26, pal.text, bold=True)
        # charts
        y += 90
        points = tr.points if own else []
        log_h = 96 if h >= 700 else 58  # small windows keep the charts and show less of the log
        ch = h - y - 28 - log_h - 14
        if ch > 80:
            cw = (w - 2 * m - gap * 2) / 3
            charts = [("loss", t("train.loss"), pal.bad, "{:.3f}"), ("elo", t("train.elo_chart"), pal.good, "{:.0f}"),
                      ("games", t("train.games"), pal.accent, "{:,.0f}")]
            for i, (key, title, color, fmt) in enumerate(charts):
                r = pygame.Rect(round(m + i * (cw + gap)), y, round(cw), ch)
                line_chart(surface, pal, r, [p.get(key) for p in points], color, title, fmt, t("train.no_data"))
            y += ch + 14
        lr = pygame.Rect(m, y, w - 2 * m, h - y - 28)
        if lr.height > 30:
            panel(surface, pal, lr, 12)
            lines = (tr.log if own else [])[-max(1, (lr.height - 16) // 18):]
            if not lines:
                lines = theme.wrap_text(t("train.explain"), 13, lr.width - 28)[:max(1, (lr.height - 16) // 18)]
            for i, line in enumerate(lines):
                line = translated(line)
                theme.text(surface, theme.fit_text(line, 13, lr.width - 28), (lr.x + 14, lr.y + 10 + i * 18), 13,
                           pal.text_dim)
        self.draw_buttons(surface)
