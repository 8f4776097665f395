"""Setup: choose the game, your side and the AI's level (or both levels for a demo)."""
from __future__ import annotations

import pygame

from games import GAME_IDS, get_game
from games.renju import RULES
from gui import theme
from gui.boards import renderer_class
from gui.controller import ADAPTIVE, LEVELS
from gui.i18n import has, t
from gui.scenes.base import Scene
from gui.scenes.home import game_name
from gui.widgets import Button, panel, segmented


def level_name(level: str) -> str:
    return t(f"level.{level}")


#: gomoku's opening rules (games.swap2), offered beside "free"
OPENINGS = ("swap1", "swap2")
#: the time controls a game can start with ("-": no clock); gomoku adds byo-yomi
CLOCK_CHOICES = ("-", "180+2", "300", "600+5")
BYOYOMI_CHOICES = ("600 3x30",)


def clock_choices(game_id: str) -> tuple[str, ...]:
    return CLOCK_CHOICES + (BYOYOMI_CHOICES if game_id == "gomoku" else ())


def clock_label(text: str) -> str:
    """A time control in words: "No clock", "5 min", "3 min + 2 s", "10 min + 3×30 s"."""
    from engine.play.clock import parse_control
    c = parse_control(text)
    if c is None or not c.timed:
        return t("clock.none")

    def num(x):
        return str(int(x)) if float(x).is_integer() else f"{x:g}"
    minutes = num(c.main / 60)
    if c.kind == "byoyomi":
        return t("clock.byoyomi", min=minutes, n=c.periods, s=num(c.period))
    if c.kind == "increment":
        return t("clock.increment", min=minutes, inc=num(c.increment))
    return t("clock.sudden", min=minutes)


def side_name(game_id: str, player: int) -> str:
    """'Red' / 'Black' etc. for games whose sides have names, else 'First' / 'Second'."""
    key = f"sides.{game_id}.{player}"
    if theme.colorblind_active() and has(key + ".cb"):
        key += ".cb"  # the colour-blind palette's discs are another colour
    name = t(key)
    return name if name != key else t("setup.first" if player == 0 else "setup.second")


class SetupScene(Scene):
    def __init__(self, app, game_id: str, mode: str = "play"):
        super().__init__(app)
        self.game_id = game_id if game_id in GAME_IDS else GAME_IDS[0]
        self.mode = mode if mode in ("play", "demo") else "play"
        s = app.settings
        self.side = s["side"]
        self.level = s["level"] if s["level"] in LEVELS + (ADAPTIVE,) else "strong"
        self.demo_levels = [lv if lv in LEVELS else "strong" for lv in s["demo_levels"]]
        self.variant_index = 0
        self.rule = "freestyle"   # gomoku's rule set (games.renju)
        self.opening = "free"     # gomoku's opening rule: "free", "swap1" or "swap2" (games.swap2)
        self.clock = s["time_control"]
        self.rows: list[tuple[str, pygame.Rect]] = []

    def variants(self):
        return renderer_class(self.game_id).VARIANTS

    def variant(self) -> dict:
        v = self.variants()
        out = dict(v[self.variant_index][1]) if v and self.variant_index < len(v) else {}
        if self.game_id == "gomoku" and self.rule != "freestyle":
            out["rule"] = self.rule
        return out

    def _pick_game(self, gid):
        try:
            get_game(gid)
        except Exception:
            self.app.toast(t("home.unavailable"), error=True)
            return
        self.game_id = gid
        self.variant_index = 0

    def _set_mode(self, mode):
        self.mode = mode

    def _set_side(self, side):
        self.side = side
        self.app.settings.set("side", side)

    def _set_level(self, level):
        self.level = level
        self.app.settings.set("level", level)

    def rated_game(self):
        """The chosen game and variant, when it can be made (for its levels' ratings)."""
        try:
            return get_game(self.game_id, **self.variant())
        except Exception:
            return None

    def level_choices(self) -> tuple[str, ...]:
        """The levels, and "adaptive" where the game's levels are rated."""
        game = self.rated_game()
        return LEVELS + ((ADAPTIVE,) if game is not None and self.app.rated_levels(game) else ())

    def chosen_level(self) -> str:
        return self.level if self.level in self.level_choices() else "strong"

    def level_words(self) -> list[str]:
        """What the chosen level means: its rating on the game's scale and the person's, when
        measured ("Medium — about 1450 on the Fairy-Stockfish scale; you: 1390 ± 120 after 14
        games"), then its plain description."""
        from gui.ratings import level_line
        level = self.chosen_level()
        game = self.rated_game()
        out = []
        if game is not None and self.app.rated_levels(game):   # measured for the shipped model only
            shown = self.app.adaptive_level(game) if level == ADAPTIVE else level
            line = level_line(game, shown, self.app.ratings.get(game.key))
            if line:
                out.append(line)
        out.append(t(f"level.{level}.note"))
        return out

    def chosen_opening(self) -> str | None:
        """Gomoku's opening rule when one is chosen ("swap1", "swap2"), else None (free)."""
        return self.opening if self.game_id == "gomoku" and self.opening in OPENINGS else None

    def _set_clock(self, text):
        self.clock = text
        self.app.settings.set("time_control", text)

    def _set_demo_level(self, i, level):
        self.demo_levels[i] = level
        self.app.settings.set("demo_levels", list(self.demo_levels))

    def start(self):
        self.app.settings.set("last_game", self.game_id)
        if self.mode == "play":
            clock = self.clock if self.clock in clock_choices(self.game_id) else "-"
            self.app.start_play(self.game_id, self.side, self.chosen_level(), self.variant(),
                                opening=self.chosen_opening(), time_control=clock)
        else:
            self.app.start_demo(self.game_id, tuple(self.demo_levels), self.variant())

    def build(self, size):
        super().build(size)
        w, h = size
        self.buttons.append(self.back_button())
        self.card = pygame.Rect(0, 0, min(820, w - 56), min(h - 110, 600))
        self.card.midtop = (w // 2, 84)
        x0 = self.card.x + 28
        inner = self.card.width - 56
        labels = [t(k) for k in ("setup.mode", "setup.game", "setup.board", "setup.board_rule", "setup.you_play",
                                 "setup.level", "setup.opening_side", "setup.clock")]
        labels += [side_name(self.game_id, 0), side_name(self.game_id, 1)]
        label_w = min(inner // 4, max(theme.FONTS.size(s, 16)[0] for s in labels) + 32)
        cx = x0 + label_w
        cw = inner - label_w
        y = self.card.y + 24
        rowh, gap = (38, 22) if h >= 760 else (34, 14)
        self.rows = []

        def row(key):
            nonlocal y
            rect = pygame.Rect(cx, y, cw, rowh)
            self.rows.append((t(key), rect))
            y += rowh + gap
            return rect

        self.buttons += segmented(row("setup.mode"), [(t("setup.mode_play"), "play"), (t("setup.mode_demo"), "demo")],
                                  self.mode, self._set_mode, size=15)
        self.buttons += segmented(row("setup.game"), [(game_name(g), g) for g in GAME_IDS], self.game_id,
                                  self._pick_game, gap=4, size=13)
        variants = self.variants()
        if len(variants) > 1:
            board = row("setup.board_rule" if self.game_id == "gomoku" else "setup.board")
            if self.game_id == "gomoku":   # the rule set shares the board's row: no taller card
                split = int(board.width * 0.36)
                rules = pygame.Rect(board.x + split + 10, board.y, board.width - split - 10, board.height)
                board = pygame.Rect(board.x, board.y, split, board.height)
                self.buttons += segmented(rules, [(t(f"rule.{r}"), r) for r in RULES], self.rule,
                                          lambda r: setattr(self, "rule", r), gap=4, size=14)
            self.buttons += segmented(board, [(lbl, i) for i, (lbl, _) in enumerate(variants)],
                                      self.variant_index, lambda i: setattr(self, "variant_index", i), size=15)
        levels = [(level_name(lv), lv) for lv in (self.level_choices() if self.mode == "play" else LEVELS)]
        swap = self.mode == "play" and self.chosen_opening() is not None
        if self.mode == "play":
            # under a swap opening the person picks a seat (first: places the opening), the colours come later
            sides = [(t("setup.first") if swap else side_name(self.game_id, 0), "first"),
                     (t("setup.second") if swap else side_name(self.game_id, 1), "second"),
                     (t("setup.random"), "random")]
            side_row = row("setup.opening_side" if self.game_id == "gomoku" else "setup.you_play")
            if self.game_id == "gomoku":   # the opening rule shares the side's row: no taller card
                split = int(side_row.width * 0.36)
                opening = pygame.Rect(side_row.x, side_row.y, split, side_row.height)
                side_row = pygame.Rect(side_row.x + split + 10, side_row.y, side_row.width - split - 10,
                                       side_row.height)
                self.buttons += segmented(opening, [(t("setup.opening_free"), "free")]
                                          + [(t(f"{o}.name"), o) for o in OPENINGS],
                                          self.opening, lambda o: setattr(self, "opening", o), gap=4, size=14)
            self.buttons += segmented(side_row, sides, self.side, self._set_side, size=15)
            self.buttons += segmented(row("setup.level"), levels, self.chosen_level(), self._set_level, gap=4, size=13)
            choices = clock_choices(self.game_id)
            clocks = [(clock_label(c), c) for c in choices]
            self.buttons += segmented(row("setup.clock"), clocks, self.clock if self.clock in choices else "-",
                                      self._set_clock, gap=4, size=13)
        else:
            for i in (0, 1):
                self.rows.append((side_name(self.game_id, i), pygame.Rect(cx, y, cw, rowh)))
                self.buttons += segmented(pygame.Rect(cx, y, cw, rowh), levels, self.demo_levels[i],
                                          lambda lv, i=i: self._set_demo_level(i, lv), gap=4, size=13)
                y += rowh + gap
        self.note_y = y
        if len(variants) <= 1:  # the same card height for every game: the Start button never moves
            y += rowh + gap
        self.card.height = min(h - 110, y - self.card.y + 2 * 22 + 24 + 48 + 28)
        start = pygame.Rect(0, 0, 220, 48)
        start.bottomright = (self.card.right - 28, self.card.bottom - 24)
        self.start_rect = start   # the notes beside it are laid out around it (`note_lines`)
        self.buttons.append(Button(start, t("setup.start") if self.mode == "play" else t("setup.start_demo"),
                                   self.start, kind="primary", hint="Enter"))

    def on_key(self, key, mod):
        if key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.start()
        elif key in (pygame.K_LEFT, pygame.K_RIGHT) and self.mode == "play":
            choices = self.level_choices()
            i = choices.index(self.chosen_level()) + (1 if key == pygame.K_RIGHT else -1)
            self._set_level(choices[max(0, min(len(choices) - 1, i))])
        elif key == pygame.K_TAB:
            i = (GAME_IDS.index(self.game_id) + 1) % len(GAME_IDS)
            self._pick_game(GAME_IDS[i])

    NOTE_LINE = 22   # the notes' line height

    def note_paragraphs(self) -> list[tuple[str, int]]:
        """What the choices mean, each text with the most lines it may take, then the model's."""
        model = (self.app.model_label(self.game_id, self.variant()), 2)
        level = self.level_words() if self.mode == "play" else [t("setup.demo_note")]
        if self.game_id != "gomoku":
            return [(w, 2) for w in level] + [model]
        # the rule set, then the level (its rating and what it is) or, under an opening rule, the
        # opening rule (under a clock it also says when the clocks start), then the level's
        # rating where room is left (``note_lines`` fills the room in this order)
        rule = (t(f"rule.{self.rule}.note"), 1)
        opening = self.chosen_opening() if self.mode == "play" else None
        if opening is None:
            return [rule] + [(w, 2) for w in level] + [model]
        timed = self.clock != "-" and self.clock in clock_choices(self.game_id)
        note = t(f"{opening}.note") + (" " + t("swap.clock_note") if timed else "")
        return [rule, (note, 3), (level[0], 1), model]

    def note_lines(self) -> list[str]:
        """The notes as drawn from ``note_y`` down, a line every ``NOTE_LINE`` pixels: as many as
        fit above the card's bottom margin; a line beside the Start button is only as wide as the
        room left of it; the model's line always shows, the level's plain note gives way to it."""
        start = self.start_rect
        full = self.card.width - 56
        narrow = start.left - 16 - (self.card.x + 28)
        top = self.note_y + 4
        height = theme.FONTS.size("Ag", 15)[1]
        slots = max(1, (start.bottom - top - height) // self.NOTE_LINE + 1)
        widths = [full if top + i * self.NOTE_LINE + height <= start.top else narrow for i in range(slots)]
        *notes, (model, model_most) = self.note_paragraphs()
        # room for the model's line(s) as they would wrap beside the button, the worst case
        reserve = min(model_most, len(theme.wrap_text(model, 15, narrow))) if model else 0
        out: list[str] = []
        for text, most in notes:
            n = min(most, slots - reserve - len(out))
            if n <= 0:
                break
            out += theme.wrap_box(text, 15, widths[len(out):len(out) + n])
        return out + (theme.wrap_box(model, 15, widths[len(out):len(out) + reserve]) if model else [])

    def draw(self, surface):
        pal = self.pal
        title = t("setup.title_play") if self.mode == "play" else t("setup.title_demo")
        self.header(surface, f"{title} · {game_name(self.game_id)}")
        panel(surface, pal, self.card, 18)
        for label, rect in self.rows:
            theme.text(surface, label, (self.card.x + 28, rect.centery), 16, pal.text_dim, anchor="midleft")
        for i, line in enumerate(self.note_lines()):
            theme.text(surface, line, (self.card.x + 28, self.note_y + 4 + i * self.NOTE_LINE), 15,
                       pal.text_faint)
        self.draw_buttons(surface)
