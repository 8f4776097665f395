"""The app: window, frame loop, scene switching, and the command-line entry points.

`App` runs one frame at a time (`step`), so tests and the self-test can drive it without
a real window; `run` is the 60 fps loop around it. The window's process imports only
pygame, games and engine.core.paths: the AI and the trainer run in other processes.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
import traceback
from collections import deque
from pathlib import Path

import pygame

from engine.core.paths import APP_NAME, __version__, user_model_path
from games import GAME_IDS, get_game
from gui import i18n, theme
from gui.controller import ADAPTIVE, LEVELS, AIClient, DemoController, PlayController, pick_side
from gui.ai_worker import DEFAULT_FACTORY
from gui.i18n import t
from gui.settings import Settings
from gui.sound import Sound
from gui.training import TrainController, announcement

MIN_SIZE = (800, 560)
#: what a window leaves of the desktop for its frame, title bar, task bar or menu bar (pixels)
DESKTOP_MARGIN = (16, 80)
FPS = 60
HEARTBEAT = 1.0  # an idle window is redrawn at least this often (seconds), for clocks and timers
INPUT_SLICE = 0.025  # seconds between looks at the input queue while idle
IDLE_WAIT = 0.1  # longest sleep between looks at the AI's and the trainer's replies (seconds)


def _preset_size(preset: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in preset.lower().split("x"))
        return max(MIN_SIZE[0], w), max(MIN_SIZE[1], h)
    except ValueError:
        return (1280, 800)


def fit_to_desktop(size: tuple[int, int], desktop: tuple[int, int] | None) -> tuple[int, int]:
    """``size`` made small enough that the window, with its frame and the desktop's own bars,
    fits on a desktop of ``desktop`` pixels: a 1280x800 window on a 1366x768 laptop or a
    1024x640 screen would otherwise open partly off the screen. ``desktop`` None (unknown) leaves
    ``size`` as it is; a desktop too small even for MIN_SIZE gets a window that shows the
    scenes scaled down (`App._fit_canvas`)."""
    if not desktop or desktop[0] <= 0 or desktop[1] <= 0:
        return size
    room = (max(320, desktop[0] - DESKTOP_MARGIN[0]), max(240, desktop[1] - DESKTOP_MARGIN[1]))
    return min(size[0], room[0]), min(size[1], room[1])


def _desktop_size() -> tuple[int, int] | None:
    """The first display's size in pixels, None where SDL cannot say."""
    try:
        sizes = pygame.display.get_desktop_sizes()
        return tuple(sizes[0]) if sizes else None
    except (pygame.error, AttributeError, IndexError, TypeError):
        return None


def _display_window():
    """The display module's window as a ``pygame.Window``: through ``pygame.display.get_window``
    where pygame-ce has it, else ``Window.from_display_module``, whose deprecation notice (it
    speaks of drawing through a Window, which the app does not do) is not shown."""
    get_window = getattr(pygame.display, "get_window", None)
    if get_window is not None:
        return get_window()
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return pygame.Window.from_display_module()


class App:
    """The whole app; ``headless`` draws into an off-screen surface instead of a window."""

    def __init__(self, size: tuple[int, int] | None = None, *, headless: bool = False, ai_enabled: bool = True,
                 ai_factory: str = DEFAULT_FACTORY, trainer_factory: str | None = None,
                 settings: Settings | None = None, strict: bool = False):
        self.headless = headless
        self.strict = strict  # tests: let exceptions through instead of showing them
        self.settings = settings or Settings()
        i18n.set_language(self.settings["language"])
        self.palette = theme.palette(self.settings["colorblind"])
        pygame.display.init()
        pygame.font.init()
        self.size = size or _preset_size(self.settings["window"])
        self.window = self._open_window(self.size)  # the real window (or off-screen surface)
        self.screen = self.window  # what scenes draw on; larger than a too-small window
        self._fit_canvas()
        self.clock = pygame.time.Clock()
        self.time = 0.0
        self.frame_times: deque = deque(maxlen=1200)  # ms between frames
        self.work_times: deque = deque(maxlen=1200)  # ms spent computing each frame
        self.ai = AIClient(ai_factory, enabled=ai_enabled)
        self.ai.threads = self.settings["ai_threads"]
        self.trainer = TrainController(trainer_factory) if trainer_factory else TrainController()
        self.sound = Sound(self.settings["sound"])
        self.toasts: list[list] = []  # [text, error, expires]
        self._game_toasts: set[str] = set()   # the toasts' texts about the game on the screen
        if self.settings.problem:  # an unusable settings file was set aside: say so, once
            self.toast(t("settings.reset", file=self.settings.problem), error=True, seconds=12)
        from gui.ratings import PlayerRatings
        self.ratings = PlayerRatings(autosave=self.settings.autosave)   # the person's rating per game
        if self.ratings.problem:
            self.toast(t("rating.unreadable", file=self.ratings.problem), error=True, seconds=12)
        self._mouse = (-1, -1)
        self.focused = True   # the window is in front (see handle_event)
        self.running = True
        self.overlay = None  # a sheet over the scene (help), which then gets the input
        self._dirty = True  # something changed that the next frame must draw
        self._last_draw = -1e9  # monotonic time of the last drawn frame
        self.frames_drawn = 0
        self.update_rect = None  # the part of the window the last frame changed (None: all of it)
        from gui.scenes.home import HomeScene
        self.scene = HomeScene(self)
        self.scene.build(self.screen.get_size())

    # --- window ------------------------------------------------------------------
    def _open_window(self, size):
        if self.headless:
            return pygame.Surface(size)
        flags = pygame.RESIZABLE
        if self.settings["fullscreen"]:
            screen = pygame.display.set_mode((0, 0), pygame.FULLSCREEN)
        else:
            screen = pygame.display.set_mode(fit_to_desktop(size, _desktop_size()), flags)
        pygame.display.set_caption(APP_NAME)
        try:
            pygame.display.set_icon(_icon())
            _display_window().minimum_size = MIN_SIZE
        except Exception:
            pass
        return screen

    def resize(self, size) -> None:
        if self.headless:
            self.window = pygame.Surface((max(1, int(size[0])), max(1, int(size[1]))))
        else:
            self.window = pygame.display.get_surface() or self.window
        self._fit_canvas()

    def _fit_canvas(self) -> None:
        """Scenes are laid out for at least MIN_SIZE; a smaller window shows them scaled down."""
        w, h = self.window.get_size()
        if w >= MIN_SIZE[0] and h >= MIN_SIZE[1]:
            self.screen = self.window
        else:
            size = (max(w, MIN_SIZE[0]), max(h, MIN_SIZE[1]))
            if self.screen is self.window or self.screen.get_size() != size:
                self.screen = pygame.Surface(size)
        self.size = self.screen.get_size()
        cw, ch = self.size
        self._scale = min(w / cw, h / ch)
        self._offset = ((w - cw * self._scale) / 2, (h - ch * self._scale) / 2)

    def _to_canvas(self, ev):
        """A mouse event with its position moved from window to canvas coordinates."""
        if self.screen is self.window or not hasattr(ev, "pos"):
            return ev
        x, y = ev.pos
        pos = (int((x - self._offset[0]) / self._scale), int((y - self._offset[1]) / self._scale))
        return pygame.event.Event(ev.type, {**ev.dict, "pos": pos})

    def mouse_pos(self):
        return self._mouse

    # --- scenes ------------------------------------------------------------------------
    def goto(self, scene) -> None:
        old = self.scene
        if old is not None and old is not scene:
            try:
                old.close()
            except Exception:
                if self.strict:
                    raise
        self.scene = scene
        self.overlay = None
        if self._game_toasts:   # what was said about the game left behind goes with it
            self.toasts = [x for x in self.toasts if x[0] not in self._game_toasts]
            self._game_toasts.clear()
        scene.build(self.screen.get_size())

    def go_home(self) -> None:
        from gui.scenes.home import HomeScene
        self.goto(HomeScene(self))

    def open_setup(self, game_id: str, mode: str) -> None:
        from gui.scenes.setup import SetupScene
        self.goto(SetupScene(self, game_id, mode))

    def open_settings(self) -> None:
        from gui.scenes.settings import SettingsScene
        self.goto(SettingsScene(self))

    def open_train(self) -> None:
        from gui.scenes.train import TrainScene
        self.goto(TrainScene(self))

    def model_path_for(self, game) -> str | None:
        """The trained model when the person chose it and it exists; None means the shipped one."""
        if self.settings.model_choice(game.key) == "trained":
            try:
                p = user_model_path(game.key)
                if p.exists():
                    return str(p)
            except OSError:
                pass
        return None

    def rated_levels(self, game) -> dict[str, dict]:
        """The levels' ratings (`gui.ratings.level_ratings`, only the app's LEVELS) where they say
        how the AI plays: they were measured for the shipped model, so none with a trained model
        chosen (its strength is not measured; its games do not count for the person's rating)."""
        from gui.ratings import level_ratings
        if self.model_path_for(game):
            return {}
        return {k: v for k, v in level_ratings(game).items() if k in LEVELS}

    def model_label(self, game_id: str, variant: dict | None = None) -> str:
        from engine.core.paths import shipped_model_path
        try:
            game = get_game(game_id, **(variant or {}))
        except Exception:
            return ""
        if self.model_path_for(game):
            return t("model.trained")
        if shipped_model_path(game.key):
            if game.key != game.network_key:   # a network trained for this rule set: how it does under it
                from gui.scenes.home import engine_match
                m = engine_match(game)
                if m is not None:
                    return t("model.shipped_rule", rule=t(f"rule.{game.rule}"), wins=m["wins"], games=m["games"])
            return t("model.shipped")
        if shipped_model_path(game.network_key):   # a rule variant plays its base game's network
            return t("model.shipped_base")
        return t("model.none")

    def ask(self, title: str, text: str, choices) -> None:
        """A question over the current scene: ``choices`` are (label, action, kind); Enter
        picks the first, Esc the last (which should be the harmless one)."""
        self.overlay = QuestionOverlay(self, title, text, choices)

    def start_play(self, game_id: str, side: str = "first", level: str = "strong", variant: dict | None = None,
                   state=None, resumed: bool = False, setup: int = 0, opening: str | None = None, tree=None,
                   time_control: str | None = None, on_start=None) -> None:
        """A game against the AI (from ``state`` when given), under ``time_control`` (its text,
        `engine.play.clock.TimeControl.text`; None or "-": no clocks), opened with ``opening``
        (gomoku's "swap2" or "swap1"; None: free; the clocks start once its colours are settled).
        When an unfinished game of the same game is saved and this is not it, the person first
        chooses: resume that one, start this one (the saved one is discarded), or cancel.
        ``on_start()`` runs once this game has started (never if the person resumes or cancels)."""
        from gui import autosave
        game = get_game(game_id, **(variant or {}))
        saved = None if resumed else autosave.load(game.key)
        if saved is not None:
            from gui.scenes.home import game_name

            def replace():
                autosave.clear(game.key)
                self._start_play(game, side, level, state, setup, opening, tree, time_control)
                if on_start is not None:
                    on_start()
            self.ask(t("confirm.saved_title"),
                     t("confirm.saved_text", game=game_name(game_id), n=saved["moves"]),
                     [(t("home.resume"), lambda: self.resume_game(saved), "primary"),
                      (t("confirm.saved_replace"), replace, "danger"),
                      (t("common.cancel"), lambda: None, "normal")])
            return
        self._start_play(game, side, level, state, setup, opening, tree, time_control)
        if on_start is not None:
            on_start()

    def _start_play(self, game, side: str, level: str, state=None, setup: int = 0, opening: str | None = None,
                    tree=None, time_control: str | None = None) -> None:
        from engine.play.clock import parse_control
        from gui.scenes.play import PlayScene
        adaptive = level == ADAPTIVE
        level = self.adaptive_level(game) if adaptive else level
        control = parse_control(time_control) if time_control else None
        if opening in ("swap1", "swap2") and game.id == "gomoku" and state is None:
            from gui.opening import Swap2PlayController   # side: the person's seat (first places the opening)
            c = Swap2PlayController(self.ai, game, pick_side(side), level, self.model_path_for,
                                    hints_on=self.settings["hints"], side_choice=side, rule=opening,
                                    time_control=control)
        else:
            c = PlayController(self.ai, game, pick_side(side), level, self.model_path_for,
                               hints_on=self.settings["hints"], side_choice=side, time_control=control)
        c.adaptive = adaptive
        if state is not None:
            c.load(state, setup, tree)
        self.goto(PlayScene(self, c))

    def resume_game(self, saved: dict) -> None:
        """Continue the autosaved game (see `gui.autosave.load`) with the person's side and level."""
        level = saved["level"] if saved.get("level") in LEVELS else self.settings["level"]
        self.start_play(saved["game"], saved.get("side_choice", "first"), level, saved.get("variant"),
                        state=saved["state"], resumed=True, setup=saved.get("setup", 0), tree=saved.get("tree"))
        c = self.scene.c
        c.human = saved["human"]
        c.from_start = saved.get("from_start") is True   # a game played from its start still counts
        c.took_back = saved.get("took_back") is not False
        c.adaptive = saved.get("adaptive") is True
        c.load_clocks(saved)   # the control and each side's time left, when the game had clocks
        self.scene.view.set_flipped(self.scene._flip())

    def _scene_game(self) -> str | None:
        """The game the current scene is about, for the help sheet's rules."""
        c = getattr(self.scene, "c", None)
        game = getattr(c, "game", None)
        return getattr(game, "id", None) or getattr(self.scene, "game_id", None)

    def open_help(self, game_id: str | None, back=None) -> None:
        """The help sheet (rules of ``game_id``, keys, about) over the current scene."""
        from gui.scenes.help import HelpOverlay
        self.overlay = HelpOverlay(self, game_id)

    def start_demo(self, game_id: str, levels=("strong", "strong"), variant: dict | None = None) -> None:
        from gui.scenes.demo import DemoScene
        game = get_game(game_id, **(variant or {}))
        self.goto(DemoScene(self, DemoController(self.ai, game, tuple(levels), self.model_path_for)))

    def save_game(self, controller, folder=None, fmt: str | None = None, name: str | None = None) -> Path | None:
        """Save the game as a new record in ``folder`` (the saved-games folder by default), in
        format ``fmt`` (the game's exchange format by default), named ``name`` (default: the
        game and the time)."""
        from gui.records import save_record
        from gui.records import result_text
        state, tree = controller.record_line()   # the main line, with the variations and comments beside it
        # how the main line ended off the board: the controller's, or kept at its end while another line is shown
        from gui.variations import OFF_BOARD_ENDS
        end = tree.main_line()[-1].data
        ends = {name: getattr(controller, name) if state is controller.state else end.get(name, none)
                for name, none in OFF_BOARD_ENDS.items()}
        resigned, lost, agreed = ends["resigned_by"], ends["time_loss"], ends["agreed_draw"]
        if agreed:
            result = result_text(True, None)   # a draw the board does not show: agreed
        elif resigned is not None:
            result = result_text(True, 1 - resigned, True)
        else:
            result = result_text(state.is_terminal(), state.winner())
        meta = {"you": "first" if controller.human == 0 else "second", "level": controller.level,
                "moves": len(state.moves), "result": result,
                "app": f"{APP_NAME} {__version__}"}
        if getattr(controller, "setup_plies", 0):
            meta["setup"] = str(controller.setup_plies)
        meta.update(controller.analysis_meta())   # the analysis goes into the record: no search on reload
        meta.update(controller.clock_meta(main_line=True))   # the record's moves are the main line
        if lost is not None and resigned is None:
            meta["result"] = ("first" if lost == 1 else "second") + " (time)"
        try:
            path = save_record(state, meta, folder, fmt, name, tree=tree)
        except OSError as e:
            self.toast(t("play.save_failed", message=str(e)), error=True)
            return None
        self.toast(t("play.saved", name=path.name))
        return path

    def play_record(self, state, meta: dict, scene=None, tree=None, on_loaded=None) -> None:
        """Show a loaded or pasted game in the play scene (switching game if needed), with the
        person on the side the record says they played, against the level it names; ``tree``:
        the record's variations and comments (`games.records.Record.tree`). Its analysis and clocks
        come with it, also where the person first chooses to discard an unfinished game of the same
        game (`start_play`); ``on_loaded()`` runs once it is on the board (not if they cancel)."""
        level = meta.get("level") if meta.get("level") in LEVELS else self.settings["level"]
        setup = int(meta["setup"]) if str(meta.get("setup", "")).isdigit() else 0
        c = getattr(scene, "c", None)
        if isinstance(c, PlayController) and c.game.key == state.game.key:
            c.level = level
            c.load(state, setup, tree)
            c.load_analysis(meta)
            c.load_clocks(meta)
            scene.view.set_flipped(scene._flip())
            if on_loaded is not None:
                on_loaded()
        else:
            def started():
                new = getattr(self.scene, "c", None)
                if isinstance(new, PlayController) and new.game.key == state.game.key and new.state == state:
                    new.load_analysis(meta)
                    new.load_clocks(meta)
                if on_loaded is not None:
                    on_loaded()
            side = meta.get("you") if meta.get("you") in ("first", "second") else "first"
            self.start_play(state.game.id, side, level, state.game.variant, state=state, setup=setup, tree=tree,
                            on_start=started)

    # --- the person's rating ------------------------------------------------------------
    def adaptive_level(self, game) -> str:
        """The level nearest the person's rating for ``game`` (a newcomer: the middle of the
        ladder); the saved level where no level is rated."""
        from engine.play.rating import start_rating
        from gui.ratings import suggested_level
        levels = self.rated_levels(game)
        if not levels:
            return self.settings["level"] if self.settings["level"] in LEVELS else "medium"
        player = self.ratings.get(game.key) or start_rating({k: v["rating"] for k, v in levels.items()})
        return suggested_level(player, levels) or "medium"

    def rate_game(self, c) -> None:
        """Count a finished game for the person's rating, when it counts (see `gui.ratings`);
        ``c.rating_note`` says the new rating, or why the game did not count."""
        from gui.ratings import score_for, suggested_level
        c.rating_done = True
        levels = self.rated_levels(c.game)
        if c.level not in levels or not c.from_start or not c.person_moved:
            return
        if c.took_back and not self.settings["rate_takebacks"]:
            c.rating_note = t("rating.not_rated_undo")
            return
        counted = self.ratings.record(c.game, c.level, score_for(c.winner(), c.human), first=c.moved_first)
        if counted is None:
            return
        before, after = counted
        delta = round(after.rating - before.rating)
        level = suggested_level(after, levels)
        c.rating_note = t("rating.after", rating=round(after.rating), pm=round(after.interval),
                          delta=f"{delta:+d}".replace("-", "−"), level=t(f"level.{level}"))

    def reset_ratings(self, confirmed: bool = False) -> None:
        """Forget the person's ratings, after a confirmation."""
        if not confirmed:
            self.ask(t("settings.rating_reset"), t("settings.rating_reset_confirm"),
                     [(t("settings.rating_reset"), lambda: self.reset_ratings(True), "danger"),
                      (t("common.cancel"), lambda: None, "normal")])
            return
        self.ratings.reset()
        self.toast(t("settings.rating_reset_done"))

    # --- settings with side effects -------------------------------------------------------
    def set_language(self, lang: str) -> None:
        self.settings.set("language", lang)
        i18n.set_language(lang)

    def set_sound(self, on: bool) -> None:
        self.settings.set("sound", on)
        self.sound.enabled = on
        if on:
            self.sound.play("move")

    def set_colorblind(self, on: bool) -> None:
        self.settings.set("colorblind", on)
        self.palette = theme.palette(on)

    def set_window(self, preset: str) -> None:
        self.settings.set("window", preset)
        self.settings.set("fullscreen", False)
        size = _preset_size(preset)
        if self.headless:
            self.resize(size)
        else:
            self.window = self._open_window(size)
            self._fit_canvas()

    def set_ai_threads(self, count: int) -> None:
        """The AI's search threads from its next search on (0: every core but one)."""
        self.settings.set("ai_threads", count)
        self.ai.threads = self.settings["ai_threads"]

    def set_fullscreen(self, on: bool) -> None:
        self.settings.set("fullscreen", on)
        if not self.headless:
            self.window = self._open_window(_preset_size(self.settings["window"]))
            self._fit_canvas()

    # --- messages --------------------------------------------------------------------------
    def toast(self, text: str, error: bool = False, seconds: float = 3.5, about_game: bool = False) -> None:
        """Show ``text`` for ``seconds``. ``about_game``: it tells of the game on the screen (a
        pass, an answer to a draw offer), so it goes when the screen changes, rather than turn
        up over the next game's board."""
        self.toasts = [x for x in self.toasts if x[0] != text][-3:]
        self.toasts.append([text, error, self.time + seconds])
        if about_game:
            self._game_toasts.add(text)
        else:
            self._game_toasts.discard(text)

    def time_since_ai_start(self) -> float:
        return time.monotonic() - self.ai.started_at if self.ai.started_at else 0.0

    def _draw_toasts(self, surface) -> None:
        self.toasts = [x for x in self.toasts if x[2] > self.time]
        pal = self.palette
        area = surface.get_rect().inflate(0, -32)   # the window less a margin at the top and the bottom
        try:  # scenes with a board put messages where they hide neither it nor what says whose turn it is
            area = pygame.Rect(self.scene.toast_area()) if hasattr(self.scene, "toast_area") else area
        except Exception:
            pass
        shown = []   # the newest messages that fit in the area (each with its lines), oldest first
        room = area.height + 8
        for text, error, _ in reversed(self.toasts):
            lines = theme.wrap_text(text, 15, min(640, area.width - 48))[:3]
            room -= 20 * len(lines) + 28
            if room < 0 and shown:
                break
            shown.insert(0, (lines, error))
        y = area.y
        for lines, error in shown:
            w = max(theme.FONTS.size(line, 15)[0] for line in lines) + 36
            h = 20 * len(lines) + 20
            r = pygame.Rect(0, y, w, h)
            r.centerx = area.centerx
            theme.alpha_rect(surface, (14, 16, 20), r.move(0, 3), 120, 12)
            theme.rounded_rect(surface, pal.card_hover, r, 12)
            theme.rounded_rect(surface, pal.bad if error else pal.accent, r, 12, 2)
            for i, line in enumerate(lines):
                theme.text(surface, line, (r.centerx, r.y + 10 + 20 * i), 15, pal.text, anchor="midtop")
            y += h + 8

    # --- frames --------------------------------------------------------------------------------
    def handle_event(self, ev) -> None:
        ev = self._to_canvas(ev)
        if hasattr(ev, "pos") and ev.type in (pygame.MOUSEMOTION, pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
            self._mouse = ev.pos
        if ev.type == pygame.QUIT:
            self.running = False
        elif ev.type == pygame.VIDEORESIZE:
            self.resize(ev.size)
            self.scene.build(self.screen.get_size())
        elif ev.type == pygame.WINDOWLEAVE:
            self._mouse = (-1, -1)
        elif ev.type in (pygame.WINDOWFOCUSLOST, pygame.WINDOWFOCUSGAINED, pygame.WINDOWMINIMIZED,
                         pygame.WINDOWRESTORED):
            # the clocks may stop while the window is in the background (the "clock_pause" setting)
            self.focused = ev.type in (pygame.WINDOWFOCUSGAINED, pygame.WINDOWRESTORED)
            self._dirty = True
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_F11:
            self.set_fullscreen(not self.settings["fullscreen"])
        elif ev.type == pygame.KEYDOWN and ev.key == pygame.K_F1 and self.overlay is None:
            self.open_help(self._scene_game())
        elif self.overlay is not None and ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEWHEEL, pygame.KEYDOWN):
            self.overlay.handle_event(ev)
        elif ev.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP, pygame.MOUSEMOTION, pygame.MOUSEWHEEL,
                         pygame.KEYDOWN, pygame.TEXTINPUT):
            self.scene.handle_event(ev)

    def invalidate(self) -> None:
        """Ask for the next frame to be drawn (the window is otherwise redrawn only when something changes)."""
        self._dirty = True

    def wanted_fps(self) -> float:
        """Frames per second the screen needs now: 60 while something animates, a few while a
        spinner or a clock is shown, 0 when the picture only changes on input or replies."""
        try:
            fps = float(self.scene.frame_rate())
        except Exception:
            fps = 0.0
        return fps

    def step(self, events=(), dt: float = 1 / FPS, draw: bool | None = True) -> bool:
        """One frame: take replies, handle ``events``, update, draw. With ``draw=None`` the
        frame is drawn only when something changed (the interactive loop); returns whether it was."""
        t0 = time.perf_counter()
        self.time += dt
        drawn = False
        try:
            replies = self.ai.poll()
            replies = (self.trainer.poll() or 0) + (replies or 0)
            while self.trainer.announcements:
                self.toast(announcement(self.trainer.announcements.pop(0)), seconds=6)
            size = self.screen.get_size()
            if events or draw is not None:
                self.scene.build(size)
            for ev in events:
                self.handle_event(ev)
            self.scene.update(min(dt, 0.05))
            if draw is None:
                now = time.monotonic()
                fps = self.wanted_fps()
                since = now - self._last_draw
                expired = any(x[2] <= self.time for x in self.toasts)
                full = bool(events or self._dirty or expired or since >= HEARTBEAT)
                # replies (the AI's progress, ten a second) are shown at the scene's own pace
                pace = 0.9 / fps if fps > 0 else 0.1
                draw = full or (fps > 0 and since >= pace) or bool(replies and since >= pace)
                if draw and not full and self.overlay is None and self.screen is self.window:
                    # only the scene's live part (the AI's progress) changed: the rest of the
                    # window need not be sent to the screen again
                    live = getattr(self.scene, "live_rect", lambda: None)()
                    self.update_rect = pygame.Rect(live) if live is not None else None
                else:
                    self.update_rect = None
            else:
                self.update_rect = None
            if draw:
                self.scene.build(self.screen.get_size())
                self.draw()
                self._dirty = False
                self._last_draw = time.monotonic()
                self.frames_drawn += 1
                drawn = True
        except Exception as e:
            if self.strict:
                raise
            self._report(e)
            self._dirty = True
        self.work_times.append(1000 * (time.perf_counter() - t0))
        return drawn

    def draw(self) -> None:
        surface = self.screen
        surface.fill(self.palette.bg)
        self.scene.draw(surface)
        if self.overlay is not None:
            self.overlay.build(surface.get_size())
            self.overlay.draw(surface)
        self._draw_toasts(surface)
        if surface is not self.window:
            w, h = self.screen.get_size()
            size = (max(1, int(w * self._scale)), max(1, int(h * self._scale)))
            self.window.fill((0, 0, 0))
            self.window.blit(pygame.transform.smoothscale(surface, size), (int(self._offset[0]), int(self._offset[1])))

    def _report(self, exc: Exception) -> None:
        """Log an unexpected error, tell the person, and go back to a safe screen."""
        try:
            from engine.core.safefile import open_append, user_path
            with open_append(user_path("app error log")) as f:
                f.write(time.strftime("%Y-%m-%d %H:%M:%S ") + traceback.format_exc() + "\n")
        except OSError:
            pass
        self.toast(t("app.internal_error", message=f"{type(exc).__name__}: {exc}"), error=True, seconds=6)
        try:
            self.go_home()
        except Exception:
            pass

    def frame_stats(self) -> dict:
        """p50/p95/max of the recent frame intervals and frame work, in ms."""
        def pct(values, q):
            v = sorted(values)
            return v[min(len(v) - 1, int(q * len(v)))] if v else 0.0
        return {"frames": len(self.frame_times),
                "interval_p50": pct(self.frame_times, 0.5), "interval_p95": pct(self.frame_times, 0.95),
                "interval_max": max(self.frame_times, default=0.0),
                "work_p50": pct(self.work_times, 0.5), "work_p95": pct(self.work_times, 0.95),
                "work_max": max(self.work_times, default=0.0)}

    def run(self) -> int:
        """The frame loop at 60 fps until the window closes."""
        try:
            import signal
            signal.signal(signal.SIGTERM, lambda *_: setattr(self, "running", False))
        except (ValueError, OSError):  # not the main thread
            pass
        try:
            self.step((), 0.0)
            pygame.display.flip()
            trace = os.environ.get("ZEROBOARD_STARTUP_TRACE")
            if trace:
                try:
                    Path(trace).write_text(f"{time.time():.6f}\n")
                except OSError:
                    pass
            self.ai.start()  # after the first frame: the AI process loads torch in the background
            last = time.monotonic()
            while self.running:
                events = self._next_events()
                now = time.monotonic()
                dt = now - last
                last = now
                self.frame_times.append(1000.0 * dt)
                if self.step(events, dt, draw=None) and not self.headless:
                    if self.update_rect is not None:
                        pygame.display.update(self.update_rect)
                    else:
                        pygame.display.flip()
        finally:
            self.shutdown()
        return 0

    def _next_events(self) -> list:
        """The waiting input events, after sleeping until the next frame is due: a 60 fps tick
        while something animates, otherwise a wait for input that wakes for the AI's replies
        and the next timed frame (this is what keeps an idle window near 0% CPU)."""
        fps = self.wanted_fps()
        if fps >= 30:
            self.clock.tick(min(FPS, fps))
            return pygame.event.get()
        timeout = IDLE_WAIT if fps <= 0 else min(IDLE_WAIT, 1.0 / fps)
        if self.toasts:
            timeout = min(timeout, max(0.0, min(x[2] for x in self.toasts) - self.time))
        # short sleeps and a look at the input queue: pygame.event.wait with a timeout polls
        # SDL busily (2.7% of a core measured), sleeping costs nothing and a click waits ≤ 25 ms
        end = time.monotonic() + timeout
        while True:
            events = [] if self.headless else pygame.event.get()
            left = end - time.monotonic()
            if events or left <= 0:
                return events
            time.sleep(min(INPUT_SLICE, left))

    def shutdown(self) -> None:
        """Close the window at once, then stop the AI and training processes."""
        self.running = False
        try:
            self.scene.close()
        except Exception:
            pass
        try:
            pygame.display.quit()
        except Exception:
            pass
        self.ai.close()
        self.trainer.close()


class QuestionOverlay:
    """`gui.widgets.ConfirmDialog` as the app's overlay (over any scene); any choice closes it."""

    #: the app asks the person something (a game's clocks pause for it when the person wants that)
    asks = True

    def __init__(self, app, title: str, text: str, choices):
        from gui.widgets import ConfirmDialog
        self.app = app

        def answer(action):
            def do():
                if self.app.overlay is self:
                    self.app.overlay = None
                action()
            return do
        self.dialog = ConfirmDialog(title, text, [(label, answer(action), kind) for label, action, kind in choices])

    def build(self, size) -> None:
        self.dialog.build(size)

    def handle_event(self, ev) -> None:
        self.dialog.handle_event(ev)

    def draw(self, surface) -> None:
        self.dialog.draw(surface, self.app.palette, self.app.mouse_pos())


def _icon() -> pygame.Surface:
    """A small generated window icon: two discs on a board."""
    s = pygame.Surface((64, 64), pygame.SRCALPHA)
    pygame.draw.rect(s, (226, 170, 84), (2, 2, 60, 60), border_radius=14)
    pygame.draw.circle(s, (30, 30, 34), (24, 24), 12)
    pygame.draw.circle(s, (245, 243, 238), (40, 40), 12)
    return s


# --- entry points ---------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    def error(self, message):
        raise _ArgError(f"{self.prog}: {message}\n\n{self.format_usage()}")


class _ArgError(Exception):
    pass


def _parse(parser, argv):
    try:
        return parser.parse_args(argv), None
    except _ArgError as e:
        print(str(e).rstrip(), file=sys.stderr)
        return None, 2
    except SystemExit as e:  # --help
        return None, int(e.code or 0)


def _run_app(setup=None) -> int:
    try:
        app = App()
    except pygame.error as e:
        print(f"{APP_NAME}: cannot open a window: {e}", file=sys.stderr)
        return 1
    if setup is not None:
        setup(app)
    return app.run()


def app_main(argv: list[str]) -> int:
    """``python main.py``: open the app on the home screen."""
    p = _Parser(prog="main.py", description="Open the ZeroBoard app.")
    args, code = _parse(p, argv)
    if args is None:
        return code
    return _run_app()


def _game_arg(value: str) -> str:
    if value not in GAME_IDS:
        raise argparse.ArgumentTypeError(f"unknown game {value!r}; choose one of: {', '.join(GAME_IDS)}")
    return value


def _level_arg(value: str) -> str:
    if value not in LEVELS:
        raise argparse.ArgumentTypeError(f"unknown level {value!r}; choose one of: {', '.join(LEVELS)}")
    return value


def _variant(args) -> dict:
    return {"size": args.size} if getattr(args, "size", None) else {}


def _check_game(game_id: str, variant: dict) -> str | None:
    try:
        get_game(game_id, **variant)
    except Exception as e:
        return f"cannot open {game_id}{' ' + str(variant) if variant else ''}: {e}"
    return None


def play_main(argv: list[str]) -> int:
    """``python main.py play --game G --side first|second|random --level NAME``."""
    p = _Parser(prog="main.py play", description="Open the app on a game against the AI.")
    p.add_argument("--game", type=_game_arg, required=True, help="one of: " + ", ".join(GAME_IDS))
    p.add_argument("--side", choices=("first", "second", "random"), default="first", help="your side (default first)")
    p.add_argument("--level", type=_level_arg, default="strong", help="AI level: " + ", ".join(LEVELS))
    p.add_argument("--size", type=int, help="board size for games that have variants (othello 6/8, gomoku 9..19)")
    args, code = _parse(p, argv)
    if args is None:
        return code
    err = _check_game(args.game, _variant(args))
    if err:
        print(f"main.py play: {err}", file=sys.stderr)
        return 2
    return _run_app(lambda app: app.start_play(args.game, args.side, args.level, _variant(args)))


def demo_main(argv: list[str]) -> int:
    """``python main.py demo --game G [--first-level NAME] [--second-level NAME]``."""
    p = _Parser(prog="main.py demo", description="Open the app on an AI-vs-AI game.")
    p.add_argument("--game", type=_game_arg, required=True, help="one of: " + ", ".join(GAME_IDS))
    p.add_argument("--first-level", "--red-level", dest="first", type=_level_arg, default="strong",
                   help="level of the side that moves first (Red in xiangqi)")
    p.add_argument("--second-level", "--black-level", dest="second", type=_level_arg, default="strong",
                   help="level of the side that moves second")
    p.add_argument("--size", type=int, help="board size for games that have variants")
    args, code = _parse(p, argv)
    if args is None:
        return code
    err = _check_game(args.game, _variant(args))
    if err:
        print(f"main.py demo: {err}", file=sys.stderr)
        return 2
    return _run_app(lambda app: app.start_demo(args.game, (args.first, args.second), _variant(args)))
