"""Home: the six games as cards (name, a small board, the model's strength note)."""
from __future__ import annotations

import json
import random

import pygame

from engine.core.paths import models_dir
from games import GAME_IDS, get_game
from gui import theme
from gui.boards import renderer_class
from gui.i18n import has, language, t
from gui.scenes.base import Scene
from gui.widgets import Button

_reports: dict[str, dict | None] = {}


def model_report(game) -> dict | None:
    """The shipped model's strength report (models/<key>.json), or None when absent or unreadable."""
    if game.key not in _reports:
        report = None
        try:
            data = json.loads((models_dir() / f"{game.key}.json").read_text(encoding="utf-8"))
            if isinstance(data, dict):
                report = data
        except (OSError, ValueError):
            pass
        _reports[game.key] = report
    return _reports[game.key]


def engine_match(game) -> dict | None:
    """The largest match of ``game``'s model report against an outside engine (its ``wins`` and
    ``games`` as ints), or None."""
    report = model_report(game)
    try:
        ms = [m for m in report["results"]["matches"] if isinstance(m, dict) and _is_engine(m.get("spec", ""))]
        best = max(ms, key=lambda m: int(m["games"]))
        return {**best, "wins": int(best["wins"]), "games": int(best["games"])}
    except (KeyError, TypeError, ValueError, AttributeError):
        return None


def _opponent(spec: str, label: str) -> str:
    kind, _, arg = str(spec).partition(":")
    if kind == "rollout" and arg.isdigit():
        return t("opponent.rollout", n=int(arg))
    if kind in ("random", "greedy", "solver"):
        return t(f"opponent.{kind}")
    if kind == "uci":
        # fairy-stockfish's fixed-work settings of the xiangqi suite; an older report's 100 ms
        # at its weakest keeps its own words
        if "@depth1" in arg:
            return t("opponent.uci_depth1")
        if "@nodes1000" in arg and "UCI_Elo=1350" in arg:
            return t("opponent.uci_elo1350")
        return t("opponent.uci")
    if kind == "gomocup" and "rapfi" in arg.lower() and "@nodes1000" in arg:
        return t("opponent.rapfi1000")   # Rapfi with its classical evaluation (the gomoku suite's reference)
    if kind == "nboard" and "egaroucid" in arg.lower():
        level = arg.rpartition(" ")[2].partition("@")[0]
        if level.isdigit():
            return t("opponent.egaroucid", level=int(level))
    return str(label or spec)


def _is_engine(spec) -> bool:
    """A match against an outside engine (what a player reads as "how strong is it really")."""
    from engine.commands.specs import ENGINE_KINDS
    return str(spec).partition(":")[0] in ENGINE_KINDS


def _engine_result(m: dict, more: bool = False) -> str:
    """One match against an outside engine in words: "Wins 7 of 20 games against ...", and
    shorter after the first ("2 of 20 against ...")."""
    wins, draws, games = int(m["wins"]), int(m.get("draws", 0)), int(m["games"])
    opponent = _opponent(m.get("spec", ""), m.get("label", ""))
    key = "home.note.engine_more" if more else "home.note.engine"
    if draws:
        return t(key + ("_draw" if draws == 1 else "_draws"), wins=wins, draws=draws, games=games, opponent=opponent)
    return t(key, wins=wins, games=games, opponent=opponent)


def _pct(x) -> str:
    v = 100 * float(x)
    return f"{v:.0f}%" if abs(v - round(v)) < 1e-6 else f"{v:.1f}%"


_notes: dict[tuple, str] = {}


def model_note(game, first_engine_only: bool = False) -> str:
    """The home card's one-line strength note, in the interface language, built from the
    report's figures (its English ``summary`` is the fallback for suites this does not know).
    ``first_engine_only``: where the note lists several outside programs, only the first (the
    shorter note a small card shows beside the level's rating). Built once per game, language
    and length: the cards are drawn every frame."""
    key = (game.key, language(), first_engine_only)
    if key not in _notes:
        _notes[key] = _build_note(game, first_engine_only)
    return _notes[key]


def _build_note(game, first_engine_only: bool = False) -> str:
    report = model_report(game)
    if report is None:
        return t("home.unmeasured") if (models_dir() / f"{game.key}.pt").is_file() else t("home.untrained")
    results = report.get("results")
    try:
        suite = report.get("suite")
        if suite == "solved" and results["non_optimal"] == 0:
            return t("home.note.solved", n=f"{int(results['positions']):,}")
        if suite == "solved":
            return t("home.note.solved_partly", good=f"{int(results['positions']) - int(results['non_optimal']):,}",
                     n=f"{int(results['positions']):,}")
        if suite == "benchmark":   # in plain words: right moves out of test positions (the sets are in the README)
            n = sum(int(s["positions"]) for s in results["sets"])
            errors = sum(int(s["errors"]) if "errors" in s else round(float(s["error_rate"]) * int(s["positions"]))
                         for s in results["sets"])
            if n <= 0:
                raise ValueError("no positions")
            return t("home.note.benchmark", good=f"{n - errors:,}", n=f"{n:,}")
        if suite == "matches" and results["matches"]:
            ms = results["matches"]
            engines = {}  # one line per opponent setting: its largest match
            for m in ms:
                if isinstance(m, dict) and _is_engine(m.get("spec", "")):
                    spec = m.get("spec", "")
                    if spec not in engines or int(m["games"]) > int(engines[spec]["games"]):
                        engines[spec] = m
            engines = list(engines.values())[:1 if first_engine_only else None]
            if engines:  # what a player can expect, in plain words: games won against real engines
                return t("home.note.sep_engines").join(_engine_result(m, i > 0) for i, m in enumerate(engines))
            scores = t("home.note.sep").join(t("home.note.score", pct=_pct(m["score"]),
                                                opponent=_opponent(m.get("spec", ""), m.get("label", "")))
                                             for m in ms)
            games = {int(m["games"]) for m in ms}
            key = "home.note.matches_one" if len(ms) == 1 else "home.note.matches"
            return t(key, scores=scores, games=games.pop() if len(games) == 1 else "/".join(
                str(int(m["games"])) for m in ms))
    except (KeyError, TypeError, ValueError, AttributeError):
        pass
    summary = report.get("summary")
    return summary.strip() if isinstance(summary, str) and summary.strip() else t("home.unmeasured")


def sample_state(game, moves: int, seed: int = 7):
    """A position a few moves in, for a board picture (deterministic, never finished)."""
    rng = random.Random(f"{game.key}-{seed}")
    state = game.initial_state()
    h, w = game.board_shape
    for _ in range(moves):
        legal = state.legal_actions()
        if not legal:
            break
        # prefer moves near the centre of the board, so pictures look like real games
        def dist(a):
            if game.policy_planes is None or a >= h * w * (game.policy_planes or 1):
                return 0
            r, c = divmod(a % (h * w), w)
            return abs(r - (h - 1) / 2) + abs(c - (w - 1) / 2)
        near = sorted(legal, key=lambda a: (dist(a), rng.random()))[:max(3, len(legal) // 4)]
        nxt = state.apply(rng.choice(near))
        if nxt.is_terminal():
            break
        state = nxt
    return state


def game_name(game_id: str) -> str:
    key = f"game.{game_id}"
    name = t(key)
    if name == key:
        try:
            return get_game(game_id).name
        except Exception:
            return game_id
    return name


def rating_words(app, game) -> str:
    """The card's line on levels, where the game's levels are rated: the level nearest the
    person's rating with both ratings ("Medium — about 1450 on the Fairy-Stockfish scale; you:
    1390 ± 120 after 14 games"), or the chosen level's before any rated game; "" otherwise."""
    from gui.controller import LEVELS
    from gui.ratings import level_line, suggested_level
    levels = app.rated_levels(game)
    if not levels:
        return ""
    player = app.ratings.get(game.key)
    level = suggested_level(player, levels) if player is not None else None
    if level is None:
        saved = app.settings["level"]
        level = saved if saved in levels else min(levels, key=lambda k: abs(LEVELS.index(k) - LEVELS.index("strong")))
    return level_line(game, level, player)


class HomeScene(Scene):
    CARD_MIN_W = 260
    NAME_FROM_BOTTOM = 98   # the game name's top, above up to three lines of strength note

    def __init__(self, app):
        super().__init__(app)
        self.cards: list[tuple[pygame.Rect, str]] = []
        self._thumbs: dict = {}
        self._games: dict = {}
        self._frames = 0
        self._budget = 0  # thumbnails still to draw this frame: none in the very first one
        self._missing_thumbs = True
        from gui import autosave
        self.saved = autosave.load_all()  # the unfinished games to offer, one per game, newest first
        self.resume = self.saved[0] if self.saved else None
        self.resume_text_width = 0  # room for the bar's text before its buttons
        self.hover = None

    def _game(self, game_id):
        if game_id not in self._games:
            try:
                self._games[game_id] = get_game(game_id)
            except Exception:  # a game whose module is missing or broken: shown as unavailable
                self._games[game_id] = None
        return self._games[game_id]

    def build(self, size):
        super().build(size)
        w, h = size
        bw, bh, gap = 128, 36, 10
        x = w - 28
        for label, action, kind in ((t("home.settings"), self.app.open_settings, "ghost"),
                                    (t("home.train"), self.app.open_train, "ghost"),
                                    (t("home.demo"), lambda: self.app.open_setup(self.app.settings["last_game"], "demo"), "ghost")):
            bw_i = max(bw, theme.FONTS.size(label, 16)[0] + 36)
            x -= bw_i
            self.buttons.append(Button(pygame.Rect(x, 18, bw_i, bh), label, action, kind=kind))
            x -= gap
        self.buttons_left = x + gap  # the header's text must end before the buttons
        # the unfinished games kept by the autosave: an offer to resume them, above the footer
        self.resume_rect = None
        if self.saved:
            self.resume_rect = pygame.Rect(28, h - 44 - 40, w - 56, 44)
            self._resume_buttons(self.resume_rect)
        # cards: 3 columns x 2 rows, or 2 x 3 when narrow
        top, bottom, side = 80, 44 + (52 if self.resume_rect else 0), 28
        cols = 3 if w >= 3 * self.CARD_MIN_W + 2 * side + 40 else 2
        rows = (len(GAME_IDS) + cols - 1) // cols
        gap = 18
        cw = (w - 2 * side - gap * (cols - 1)) / cols
        ch = (h - top - bottom - gap * (rows - 1)) / rows
        self.cards = []
        for i, gid in enumerate(GAME_IDS):
            r, c = divmod(i, cols)
            rect = pygame.Rect(round(side + c * (cw + gap)), round(top + r * (ch + gap)), round(cw), round(ch))
            self.cards.append((rect, gid))
            if self._game(gid) is not None:
                # beside the game's name, so that the strength note below can use the card's width
                if self._compact(rect):
                    wb = pygame.Rect(rect.right - 10 - 84, rect.bottom - 10 - 28, 84, 28)
                else:
                    wb = pygame.Rect(rect.right - 14 - 96, rect.bottom - self.NAME_FROM_BOTTOM - 5, 96, 30)
                self.buttons.append(Button(wb, t("home.watch"), lambda g=gid: self.app.open_setup(g, "demo"),
                                           kind="ghost", size=14))

    def _compact(self, rect) -> bool:
        """A short card (small windows): the picture goes to the left of the name and note."""
        return rect.height - self.NAME_FROM_BOTTOM - 26 < 90

    def _resume_buttons(self, bar: pygame.Rect) -> None:
        """One game: its name in words, Resume and Discard. Several: a button per game (newest
        first, as many as fit) with a small discard cross beside each."""
        y = bar.y + 6
        if len(self.saved) == 1:
            rb = pygame.Rect(bar.right - 8 - 120, y, 120, 32)
            db = pygame.Rect(rb.x - 8 - 110, y, 110, 32)
            self.buttons.append(Button(rb, t("home.resume"), self.resume_game, kind="primary", hint="R", size=14))
            self.buttons.append(Button(db, t("home.discard"), lambda s=self.saved[0]: self.discard_resume(s),
                                       kind="ghost", size=14))
            self.resume_text_width = db.x - 16 - (bar.x + 16)
            return
        x = bar.x + 16 + theme.FONTS.size(t("home.resume_many"), 15)[0] + 12
        for k, saved in enumerate(self.saved):
            label = t("home.resume_chip", game=game_name(saved["game"]), n=saved["moves"])
            bw = min(230, theme.FONTS.size(label, 13)[0] + 24 + (28 if k == 0 else 0))
            if x + bw + 36 > bar.right - 8:
                break
            self.buttons.append(Button(pygame.Rect(x, y, bw, 32), label, lambda s=saved: self.resume_game(s),
                                       kind="primary" if k == 0 else "normal", hint="R" if k == 0 else "", size=13))
            self.buttons.append(Button(pygame.Rect(x + bw + 4, y, 32, 32), "×", lambda s=saved: self.discard_resume(s),
                                       kind="ghost", size=16))
            x += bw + 4 + 32 + 14
        self.resume_text_width = 0

    def resume_game(self, saved=None):
        saved = saved or self.resume
        if saved is None:
            return
        self.app.resume_game(saved)

    def discard_resume(self, saved=None):
        """Delete a saved unfinished game, after a confirmation."""
        from gui import autosave
        saved = saved or self.resume
        if saved is None:
            return

        def discard():
            autosave.clear(saved["key"])
            self.saved = [s for s in self.saved if s["key"] != saved["key"]]
            self.resume = self.saved[0] if self.saved else None
        text = t("confirm.discard_text", game=game_name(saved["game"]), n=saved["moves"])
        self.app.ask(t("confirm.discard_title"), text,
                     [(t("home.discard"), discard, "danger"), (t("common.cancel"), lambda: None, "normal")])

    def frame_rate(self) -> float:
        # the thumbnails are drawn one per frame at first, then the picture is still
        return 60.0 if self._frames < 2 or self._missing_thumbs else 0.0

    def on_click(self, pos):
        if super_hit(self, pos):
            return
        for rect, gid in self.cards:
            if rect.collidepoint(pos) and self._game(gid) is not None:
                self.app.open_setup(gid, "play")
                return

    def on_key(self, key, mod):
        if key == pygame.K_r and self.resume is not None:
            self.resume_game()
        elif key == pygame.K_QUESTION or key == pygame.K_SLASH and mod & pygame.KMOD_SHIFT:
            self.app.open_help(None)
        elif pygame.K_1 <= key <= pygame.K_9:
            i = key - pygame.K_1
            if i < len(GAME_IDS) and self._game(GAME_IDS[i]) is not None:
                self.app.open_setup(GAME_IDS[i], "play")

    def back(self):
        pass  # Esc on the home screen does nothing (closing is the window's job)

    def _thumbnail(self, gid: str, size: tuple[int, int]) -> pygame.Surface | None:
        key = (gid, size, self.pal.colorblind)
        surf = self._thumbs.get(key)
        if surf is None:
            if self._budget <= 0:
                return None  # one picture per frame, so the first frame appears at once
            game = self._game(gid)
            if game is None or size[0] < 8 or size[1] < 8:
                return None
            self._budget -= 1
            # drawn at twice the size and scaled down: small boards stay crisp and smooth
            big = pygame.Surface((size[0] * 2, size[1] * 2), pygame.SRCALPHA)
            try:
                cls = renderer_class(gid)
                renderer = cls(game, animations=False)
                renderer.thumbnail(big, big.get_rect(), sample_state(game, getattr(cls, "THUMB_MOVES", 4)), self.pal)
            except Exception:
                if self.app.strict:
                    raise
                big.fill((0, 0, 0, 0))
            surf = pygame.transform.smoothscale(big, size)
            if len(self._thumbs) > 24:
                self._thumbs.clear()
            self._thumbs[key] = surf
        return surf

    def draw(self, surface):
        pal = self.pal
        self._budget = 1 if self._frames else 0
        self._frames += 1
        self._missing_thumbs = False
        self.header(surface, "", "")
        tx = 28 + theme.FONTS.size("ZeroBoard", 24, True)[0] + 16
        tagline = theme.fit_text(t("home.tagline"), 16, self.buttons_left - tx - 16)
        if len(tagline) > 8:  # a stub of the tagline says nothing: left out
            theme.text(surface, tagline, (tx, 27), 16, pal.text_dim)
        mouse = self.app.mouse_pos()
        training = self.app.trainer.game_id if self.app.trainer.running else None
        for rect, gid in self.cards:
            game = self._game(gid)
            hover = rect.collidepoint(mouse) and game is not None
            theme.rounded_rect(surface, pal.card_hover if hover else pal.card, rect, 16)
            if hover:
                theme.rounded_rect(surface, pal.accent, rect, 16, 2)
            compact = self._compact(rect)
            if compact:   # the picture leaves the name and note at least half the card's width
                side = max(40, min(rect.height - 20, int(rect.width * 0.42)))
                pic = pygame.Rect(rect.x + 10, rect.y + 10 + (rect.height - 20 - side) // 2, side, side)
                pic_h = side
            else:
                pic_h = rect.height - self.NAME_FROM_BOTTOM - 26   # clear of the name row and its button
                pic = pygame.Rect(rect.x + 14, rect.y + 14, rect.width - 28, pic_h)
            if pic_h > 30:
                thumb = self._thumbnail(gid, pic.size)
                if thumb is not None:
                    surface.blit(thumb, pic.topleft)
                else:  # still to be drawn: a quiet placeholder
                    self._missing_thumbs = True
                    ph = pygame.Rect(0, 0, min(pic.width, pic.height), min(pic.width, pic.height))
                    ph.center = pic.center
                    theme.rounded_rect(surface, pal.card_hover if not hover else pal.button, ph, 12)
            if compact:
                self._draw_compact_text(surface, rect, pic, gid, game, training == gid)
                continue
            name_y = rect.bottom - self.NAME_FROM_BOTTOM
            theme.text(surface, theme.fit_text(game_name(gid), 21, rect.width - 36 - 110, True), (rect.x + 18, name_y), 21,
                       pal.text, bold=True)
            room = max(1, min(3, (rect.bottom - 8 - (name_y + 31)) // 17))
            notes = self._card_notes(game, lambda text: len(theme.wrap_box(text, 13, [rect.width - 36] * 9)), room)
            i = 0
            for note, color in notes:
                if not note or i >= room:
                    continue
                for line in theme.wrap_box(note, 13, [rect.width - 36] * (room - i)):
                    theme.text(surface, line, (rect.x + 18, name_y + 31 + i * 17), 13, color)
                    i += 1
            if training == gid:
                badge = t("home.training_badge")
                bw = theme.FONTS.size(badge, 12, True)[0] + 16
                br = pygame.Rect(rect.right - 14 - bw, rect.y + 14, bw, 22)
                theme.rounded_rect(surface, pal.good, br, 11)
                theme.text(surface, badge, br.center, 12, (20, 30, 20), bold=True, anchor="center")
        if self.resume_rect is not None:
            r = self.resume_rect
            theme.rounded_rect(surface, pal.card, r, 12)
            theme.rounded_rect(surface, pal.accent, r, 12, 1)
            if len(self.saved) == 1:
                text = t("home.resume_offer", game=game_name(self.resume["game"]), n=self.resume["moves"])
                text = theme.fit_text(text, 15, self.resume_text_width)
            else:
                text = t("home.resume_many")
            theme.text(surface, text, (r.x + 16, r.centery), 15, pal.text, anchor="midleft")
        self.draw_buttons(surface)
        theme.text(surface, theme.fit_text(t("home.footer"), 13, self.size[0] - 56), (28, self.size[1] - 30), 13,
                   pal.text_faint)

    def _card_notes(self, game, lines_of, room: int) -> list:
        """A card's notes, (text, colour) each, as `_fitting` leaves them for ``room`` lines of
        ``lines_of``: the level's rating and the strength note, or that the game is unavailable."""
        if game is None:
            return [(t("home.unavailable"), self.pal.bad)]
        if self.app.model_path_for(game):   # the shipped model's ratings and evidence are not this one's
            return [(t("home.note.trained"), self.pal.text_dim)]
        notes = [(rating_words(self.app, game), self.pal.text), (model_note(game), self.pal.text_dim)]
        return _fitting(notes, lines_of, room, model_note(game, True))

    def _draw_compact_text(self, surface, rect, pic, gid, game, training) -> None:
        pal = self.pal
        x = pic.right + 14
        width = rect.right - 12 - x
        theme.text(surface, theme.fit_text(game_name(gid), 19, width, True), (x, rect.y + 12), 19, pal.text, bold=True)
        room = max(1, (rect.height - 12 - 30 - 40) // 16)
        watch_top = rect.bottom - 10 - 28  # the Watch button, at the card's bottom right
        widths = [width if rect.y + 40 + i * 16 + 15 <= watch_top else width - 84 - 8 for i in range(room)]
        notes = self._card_notes(game, lambda text: len(theme.wrap_box(text, 12, widths + [widths[-1]] * 9)), room)
        i = 0
        for note, color in notes:
            if not note or i >= room:
                continue
            for line in theme.wrap_box(note, 12, widths[i:]):
                theme.text(surface, line, (x, rect.y + 40 + i * 16), 12, color)
                i += 1
        if training:
            theme.text(surface, t("home.training_badge"), (x, rect.bottom - 26), 12, pal.good, bold=True)


def _fitting(notes: list, lines_of, room: int, shorter: str = "") -> list:
    """The card's notes (the level's rating line, then the strength note) that fit in ``room``
    lines. Where both do not, the strength note gives way to ``shorter`` (its first outside
    program only) if that makes both fit; failing that, the rating line stays and the strength
    note is left out: how strong the level is, in the player's words, is what the card is for
    (a small Chinese window once showed xiangqi's evidence and not its rating); the person's own
    rating, when there is one, is on the same line."""
    if len(notes) == 2 and notes[0][0] and notes[1][0]:
        if lines_of(notes[0][0]) + lines_of(notes[1][0]) > room:
            if shorter and lines_of(notes[0][0]) + lines_of(shorter) <= room:
                return [notes[0], (shorter, notes[1][1])]
            if lines_of(notes[0][0]) <= room:
                return notes[:1]
    return notes


def super_hit(scene, pos) -> bool:
    from gui.widgets import hit_buttons
    return hit_buttons(scene.buttons, pos)
