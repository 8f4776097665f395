"""Play: the board, and a side panel with the turn, the AI's thinking, the evaluation,
the move list and the game's commands (each with a key)."""
from __future__ import annotations

import time

import pygame

from gui import autosave, theme
from gui.boards import Overlays
from gui.controller import PlayController
from gui.i18n import has, language, t
from gui.record_errors import in_language
from gui.scenes.base import Scene
from gui.scenes.boardview import BoardView, board_and_panel, panel_width  # noqa: F401 (the scenes' layout)
from gui.scenes.home import game_name
from gui.scenes.loaddialog import LoadDialog
from gui.scenes.setup import level_name, side_name
from gui.scenes.sidepanel import (CLOCK_WIDTH, MoveList, clock_block, evaluation, hint_table, in_check, result_detail,
                                  thinking_block)
from gui.review import better_move, summary_counts
from gui.widgets import QUALITY_MARKS, Button, ConfirmDialog, TextDialog, panel, spinner, winrate_graph


#: the side panel's hint table: its caption, three moves and the heatmap's key
HINT_TABLE_HEIGHT = 18 + 3 * 18 + 22


def _two_lines(text: str, size: int, width: int, at_dot: bool = False) -> list[str]:
    """``text`` wrapped to ``width``: one line, or two with the second cut with an ellipsis.
    ``at_dot``: two parts joined by " · " that do not fit on one line go on a line each."""
    lines = theme.wrap_text(text, size, width) or [""]
    parts = [part.strip() for part in text.split("·")] if at_dot else []
    if len(lines) > 1 and len(parts) == 2 and all(theme.FONTS.size(part, size)[0] <= width for part in parts):
        return parts   # not "Your rating: 1330 ± 504 (−208) ·" over "nearest level: Easy"
    if len(lines) > 2:
        sep = " " if " " in text else ""   # CJK text wraps between characters
        lines = [lines[0], theme.fit_text(sep.join(lines[1:]), size, width)]
    return lines


class PanelDialog(ConfirmDialog):
    """A question drawn over the side panel (``area()``), its buttons two a row, so the board
    stays in sight: the Swap2 choice is made looking at the stones."""

    def __init__(self, area, title, text, choices):
        super().__init__(title, text, choices)
        self.area = area

    def build(self, size) -> None:
        area = pygame.Rect(self.area())
        if area.width < 200:
            super().build(size)
            return
        width = area.width - 12
        self.lines = theme.wrap_text(self.text, 15, width - 48)
        rows = (len(self.choices) + 1) // 2
        self.rect = pygame.Rect(0, 0, width, 84 + 21 * len(self.lines) + rows * 48)
        self.rect.center = area.center
        bw = (width - 48 - 10) // 2
        top = self.rect.y + 72 + 21 * len(self.lines)
        self.buttons = []
        for i, (label, action, kind) in enumerate(self.choices):
            rect = pygame.Rect(self.rect.x + 24 + (i % 2) * (bw + 10), top + (i // 2) * 48, bw, 40)
            self.buttons.append(Button(rect, label, action, kind=kind, size=15))


class PlayScene(Scene):
    def __init__(self, app, controller: PlayController):
        super().__init__(app)
        self.c = controller
        self.view = BoardView(app, controller.game, flipped=self._flip())
        self.moves = MoveList()
        self.dialog: LoadDialog | None = None
        self.confirm: ConfirmDialog | None = None
        self.board_rect = pygame.Rect(0, 0, 0, 0)
        self.panel_rect = pygame.Rect(0, 0, 0, 0)
        self.graph_rect = pygame.Rect(0, 0, 0, 0)  # the win-rate graph's plot, for clicks
        #: the move list's caption while a variation is shown (where the game is), for clicks
        self.game_caption_rect: pygame.Rect | None = None
        self.hint_rows: list = []  # (row rectangle, action) of the hint table, for hovering
        self.hovered_hint = None  # the hinted move under the mouse, its line drawn on the board
        #: the end of the line whose result banner a click on the board hid (a variation's banner
        #: hidden leaves the game's own, should it end meanwhile, to be shown)
        self.result_dismissed = None
        self._saved_moves = -1
        self.move_numbers = False  # gomoku: each stone's move number (M)
        self.swap2_asked = None   # the position whose Swap2 choice was last asked

    def _flip(self) -> bool:
        return bool(self.view_cls_flip() and self.c.human == 1)

    def view_cls_flip(self) -> bool:
        from gui.boards import renderer_class
        return renderer_class(self.c.game.id).FLIP_FOR_SECOND

    # --- commands (buttons and keys) ---------------------------------------------
    def undo(self):
        if not self.c.undo():
            self.app.toast(t("play.nothing_to_undo"))

    def redo(self):
        if not self.c.redo():
            self.app.toast(t("play.nothing_to_redo"))

    def hint(self):
        on = self.c.toggle_hints()
        self.app.settings.set("hints", on)

    def toggle_policy(self):
        """The network's policy as a heatmap on the board (it comes with the hint search)."""
        if not self.c.hints_on:
            self.hint()
        self.c.show_policy = not self.c.show_policy

    def new_game(self):
        if self.c.in_progress:
            self.ask(t("confirm.new_title"), t("confirm.new_text"), t("play.new"), self._new_game)
        else:
            self._new_game()

    def _new_game(self):
        from gui.controller import pick_side
        self.swap2_asked = None
        if self.c.adaptive:   # the level nearest the person's rating, which the last game moved
            self.c.level = self.app.adaptive_level(self.c.game)
        self.c.new_game(pick_side(self.c.side_choice))
        self.view.set_flipped(self._flip())
        autosave.clear(self.c.game.key)

    def resign(self):
        """Ask before resigning; where the game allows it, the question also offers a draw."""
        c = self.c
        if c.game_over:   # the game's: a finished variation looked at leaves it to resign
            return

        def pick(action):
            def run():
                self.confirm = None
                action()
            return run
        choices = [(t("play.resign"), pick(c.resign), "danger")]
        if c.draws_offered:
            choices.append((t("draw.offer"), pick(self.offer_draw), "normal"))
        choices.append((t("common.cancel"), pick(lambda: None), "normal"))
        self.confirm = ConfirmDialog(t("play.end_title"),
                                     t("play.end_text_draw" if c.draws_offered else "play.end_text"), choices)

    def offer_draw(self):
        """Offer the AI a draw (D); the AI's answer comes as a notice."""
        why = self.c.offer_draw()
        if why:
            self.app.toast(t(why))

    def save(self):
        self.app.save_game(self.c)

    def save_as(self):
        """The file dialog in save mode: a folder, a file name and a format for the game."""
        from games.records import formats_for
        from gui.records import default_name

        def save(folder, fmt, name=None):
            self.dialog = None
            self.app.save_game(self.c, folder, fmt, name)
        self.dialog = LoadDialog(self.app, on_pick=None, on_close=self._close_dialog, on_save=save,
                                 formats=formats_for(self.c.game.id), name=default_name(self.c.game))

    def load(self):
        self.dialog = LoadDialog(self.app, on_pick=self._load_path, on_close=self._close_dialog)

    def _close_dialog(self):
        self.dialog = None

    def _load_path(self, path):
        """Open a record picked in the file dialog: a game of another game opens beside this
        one (which stays saved for resuming); one that would replace this game in progress
        asks first."""
        from pathlib import Path

        from gui.records import RecordError, load_game
        self.dialog = None
        try:
            record = load_game(Path(path), self.c.game)
        except RecordError as e:
            self.app.toast(t("play.load_failed", message=str(e)), error=True)
            return
        state, meta = record.state, record.meta

        def load():
            self.app.play_record(state, meta, self, record.tree, on_loaded=lambda: self.app.toast(
                t("play.loaded_first" if record.more_games else "play.loaded", name=Path(path).name)))
        if self.c.in_progress and state.game.key == self.c.game.key:
            self.ask(t("confirm.load_title"), t("confirm.load_text"), t("play.load"), load)
        else:
            load()

    def retry(self):
        self.c.retry()

    def model_damaged(self) -> bool:
        """Whether the AI's error is that the trained model it plays cannot be read."""
        from gui.training import damaged_trained_model
        return bool(self.c.error) and damaged_trained_model(self.c.error, self.app.model_path_for(self.c.game))

    def use_shipped_model(self):
        """The trained model is damaged: play on with the shipped model (the file is kept)."""
        self.app.settings.set_model_choice(self.c.game.key, "shipped")
        self.c.retry()

    def copy_position(self):
        """The viewed position to the clipboard, in the game's own notation (its moves). A game
        from a position set up in the board editor whose stones are placement moves (its
        ``setup_plies``) is copied as the app's text record instead, whose ``setup`` header
        keeps those stones the setup when the text is pasted back (`paste_position`), not
        moves of the game; the notice shows the moves either way."""
        state = self.c.viewed
        moves = state.to_text()
        text = moves
        setup = min(self.c.setup_plies, len(state.moves))   # a position looked at within the setup: all setup
        if setup:
            from games.records import write_record
            text = write_record(state, "zeroboard", {"setup": setup})
        try:
            pygame.scrap.put_text(text)
        except Exception as e:  # no clipboard on this system
            self.app.toast(t("play.clipboard_failed", message=str(e)), error=True)
            return
        self.app.toast(t("play.copied", text=theme.fit_text(moves, 14, 260) or "–"))

    def paste_position(self):
        """A position in this game's notation, or a whole record in any supported format (PGN,
        SGF, PSQ, the app's text record; another game's record switches game), from the
        clipboard, to play on from (after a confirmation when a game is in progress); text that
        is neither changes nothing."""
        try:
            text = pygame.scrap.get_text() or ""
        except Exception as e:
            self.app.toast(t("play.clipboard_failed", message=str(e)), error=True)
            return
        from games.records import RecordFormatError, read_record
        try:
            if not text.strip():
                raise RecordFormatError("the clipboard is empty")
            record = read_record(text, self.c.game)   # a record in any format, or this game's moves
        except RecordFormatError as e:
            self.app.toast(t("play.paste_failed", message=in_language(str(e))[:120]), error=True)
            return
        state = record.state
        here = self.c.game.key

        def said():
            if state.game.key != here:
                self.app.toast(t("play.pasted", game=game_name(state.game.id)))
            if record.more_games:
                self.app.toast(t("play.pasted_first"))

        def load():
            if state.game.key == self.c.game.key:
                setup = record.meta.get("setup", "")
                self.c.load(state, int(setup) if str(setup).isdigit() else 0, record.tree)
                self.c.load_analysis(record.meta)
                self.c.load_clocks(record.meta)   # as a file of this game opens (`App.play_record`)
                self.view.set_flipped(self._flip())
                said()
            else:
                self.app.play_record(state, record.meta, self, record.tree, on_loaded=said)
        if self.c.in_progress:
            self.ask(t("confirm.new_title"), t("confirm.new_text"), t("play.paste"), load)
        else:
            load()

    def pass_move(self):
        extra = self.view.extra_actions(self.c.state)
        if extra and self.c.human_to_move:
            self.c.play(extra[0])

    def help(self):
        self.app.open_help(self.c.game.id, back=self)

    def analyse_game(self):
        """Analyse every position at a level the person picks (with the AI's progress and a Stop
        button); a second press stops it."""
        from gui.controller import ANALYSE_LEVELS
        if self.c.cancel_full_analysis():
            self.app.toast(t("play.analysis_stopped"))
            return

        def start(level):
            self.confirm = None
            self.c.analyse_game(level)

        def cancel():
            self.confirm = None
        choices = [(level_name(lv), (lambda lv=lv: start(lv)), "primary" if i == 0 else "normal")
                   for i, lv in enumerate(ANALYSE_LEVELS)]
        self.confirm = ConfirmDialog(t("confirm.analyse_title"), t("confirm.analyse_text"),
                                     choices + [(t("common.cancel"), cancel, "normal")])

    def edit_board(self):
        """The board editor, starting from the position on the board; it comes back here."""
        from gui.scenes.editor import EditorScene
        v = self.c.viewed
        self.app.goto(EditorScene(self.app, self.c.game, v.board_array(), v.current_player, back_scene=self))

    def play_from_here(self):
        """Continue the game from the viewed earlier position (the later moves stay in the tree:
        redo or the move list brings them back, so nothing is asked)."""
        self.c.continue_from_view()

    # --- variations -------------------------------------------------------------------
    def switch_variation(self, step: int) -> None:
        if not self.c.switch_variation(step):
            self.app.toast(t("play.no_variation"))

    def promote_variation(self) -> None:
        if self.c.promote_view():
            self.app.toast(t("play.promoted"))

    def delete_variation(self) -> None:
        """Delete the viewed move and what follows it in every line, after a confirmation
        (moves are discarded)."""
        n = self.c.deletion_size()
        if n:
            self.ask(t("confirm.delete_title"), t("confirm.delete_text", n=n), t("play.delete_line"),
                     lambda: self.app.toast(t("play.deleted", n=self.c.delete_view())))

    def edit_comment(self, opened_by: str = "") -> None:
        """Write or change the comment on the viewed move (kept in the game's records)."""
        c = self.c

        def save():
            self.confirm = None
            c.set_comment(box.value)

        def cancel():
            self.confirm = None
        box = TextDialog(t("play.comment_title"), t("play.comment_text"), c.comment_at(c.view_index),
                         [(t("play.comment_save"), save, "primary"), (t("common.cancel"), cancel, "normal")],
                         opened_by=opened_by)
        self.confirm = box

    def variation_menu(self, target) -> None:
        """A right click on a move of the list: show it, and offer to make its line the main
        line or to delete it."""
        if isinstance(target, int):
            self.c.go_to(target)
        else:
            self.c.go_to_node(target)
        c = self.c
        if c.view_index == 0:
            return
        node = c.viewed_node
        choices = []

        def pick(action):
            def run():
                self.confirm = None
                action()
            return run
        in_variation = any(not n.is_main for n in c.tree.path_to(node))
        if in_variation:
            choices.append((t("play.promote"), pick(self.promote_variation), "primary"))
        choices.append((t("play.comment"), pick(self.edit_comment), "normal"))
        choices.append((t("play.delete_line"), pick(self.delete_variation), "danger"))
        choices.append((t("common.cancel"), pick(lambda: None), "normal"))
        texts = c.move_texts(language())
        move = texts[c.view_index - 1] if c.view_index - 1 < len(texts) else ""
        self.confirm = ConfirmDialog(t("play.variation_title", n=c.view_index, move=move),
                                     t("play.variation_text" if in_variation else "play.move_text",
                                       n=c.deletion_size()), choices)

    def ask(self, title: str, text: str, yes: str, action) -> None:
        def do():
            self.confirm = None
            action()

        def cancel():
            self.confirm = None
        self.confirm = ConfirmDialog(title, text, [(yes, do, "primary"), (t("common.cancel"), cancel, "normal")])

    # --- frame ----------------------------------------------------------------------
    def build(self, size):
        super().build(size)
        if self.dialog is not None:
            self.dialog.build(size)
        if self.confirm is not None:
            self.confirm.build(size)
        self.board_rect, self.panel_rect = board_and_panel(size)
        p = self.panel_rect.inflate(-36, -36)
        c = self.c
        bh, gap = (34, 6) if size[1] < 700 else (38, 8)
        specs = [
            (t("play.undo"), self.undo, "normal", "U", True),
            (t("play.redo"), self.redo, "normal", "Y", bool(c.redo_stack)),
            (t("play.hint_off") if c.hints_on else t("play.hint"), self.hint,
             "primary" if c.hints_on else "normal", "H", True),
            (t("play.new"), self.new_game, "normal", "N", True),
            (t("play.resign"), self.resign, "danger", "", not c.game_over),
            (t("play.save"), self.save, "normal", "", True),
            (t("play.load"), self.load, "normal", "", True),
            (t("play.help"), self.help, "normal", "F1", True),
            (t("common.home"), self.back, "ghost", "Esc", True),
        ]
        cols = 3
        w3 = (p.width - gap * (cols - 1)) // cols
        rows = (len(specs) + cols - 1) // cols
        top = p.bottom - rows * bh - (rows - 1) * gap
        for i, (label, action, kind, key, enabled) in enumerate(specs):
            r, col = divmod(i, cols)
            rect = pygame.Rect(p.x + col * (w3 + gap), top + r * (bh + gap), w3, bh)
            self.buttons.append(Button(rect, label, action, kind=kind, hint=key if w3 >= 110 else "",
                                       enabled=enabled, size=14))
        # stepping through the game: start, back, forward, newest (a small window keeps back and
        # forward, and Home and End, for the study buttons to share the row)
        nav_y = top - gap - 30
        compact = size[1] < 700
        at = c.view_index
        last = len(c.history) - 1
        steps = (("«", c.go_start, at > 0, "Home"), ("←", c.step_back, at > 0, ""),
                 ("→", c.step_forward, at < last, ""), ("»", c.go_end, at < last, "End"))
        if compact:
            steps = steps[1:3]
        nw = 34 if compact else (p.width - 3 * gap) // 4
        for i, (label, action, enabled, key) in enumerate(steps):
            self.buttons.append(Button(pygame.Rect(p.x + i * (nw + gap), nav_y, nw, 30), label, action,
                                       enabled=enabled, hint=key if nw >= 84 else "", size=15))
        # studying: the board editor and "Analyse game" (Stop while it runs), on a row of their
        # own, or after the steps in a small window
        study_y = nav_y if compact else nav_y - gap - 30
        x0 = p.x + len(steps) * (nw + gap) if compact else p.x
        half = (p.right - x0 - gap) // 2
        key = half >= 120

        def fitting(*keys, **fields):   # the first label that fits the button
            labels = [t(k, **fields) for k in keys]
            return next((x for x in labels if theme.FONTS.size(x, 13)[0] <= half - 16), labels[-1])
        self.buttons.append(Button(pygame.Rect(x0, study_y, half, 30), fitting("play.edit", "play.edit_short"),
                                   self.edit_board, hint="E" if key else "", size=13))
        rect = pygame.Rect(x0 + half + gap, study_y, half, 30)
        if c.full_analysis is not None:
            done, total, _ = c.full_progress()
            self.buttons.append(Button(rect, fitting("play.analysis_stop", "play.analysis_stop_short", done=done,
                                                     total=total),
                                       self.analyse_game, kind="danger", hint="A" if key else "", size=13))
        else:
            self.buttons.append(Button(rect, fitting("play.analyse_game", "play.analyse_short"), self.analyse_game,
                                       hint="A" if key else "", size=13))
        self.buttons_top = study_y
        extra = self.view.extra_actions(c.state) if c.human_to_move and not c.reviewing else []
        self.pass_rect = None
        if extra:
            self.pass_rect = pygame.Rect(p.x, study_y - bh - 12, p.width, bh + 4)
            self.buttons.append(Button(self.pass_rect, t("play.pass_button"), self.pass_move, kind="primary",
                                       hint="Space"))
        status_y = p.y + 66
        if c.error and self.model_damaged():   # retrying would fail the same way: the shipped model instead
            bw = min(theme.FONTS.size(t("play.use_shipped"), 14)[0] + 28, p.width // 2)
            self.retry_rect = pygame.Rect(p.right - bw, status_y + 28, bw, 28)   # beside the words, below the title
            self.buttons.append(Button(self.retry_rect, t("play.use_shipped"), self.use_shipped_model, size=14,
                                       kind="primary"))
        elif c.error:
            self.retry_rect = pygame.Rect(p.right - 110, status_y - 4, 110, 28)
            self.buttons.append(Button(self.retry_rect, t("play.retry"), self.retry, size=14))
        elif c.reviewing:
            half = (p.width - gap) // 2
            # back to the game's own line from a variation, else to its newest position; the key
            # shown only where it fits beside the words
            back = t("play.variation_back" if c.in_variation else "play.back_to_game")
            key = "End" if theme.FONTS.size(back + "   End", 13)[0] + 16 <= half else ""
            self.buttons.append(Button(pygame.Rect(p.x, status_y + 28, half, 30), back, c.back_to_game,
                                       hint=key, size=13))
            self.buttons.append(Button(pygame.Rect(p.x + half + gap, status_y + 28, half, 30), t("play.play_here"),
                                       self.play_from_here, size=13))
        if not c.over:
            self.result_dismissed = None
        if self.result_shown():
            ob = self.overlay_rect()
            nb = pygame.Rect(0, 0, 200, 40)
            nb.midbottom = (ob.centerx, ob.bottom - 14)
            if c.in_variation:   # a finished line looked at, not the game's end: the way back to the game
                nb.width = max(200, min(ob.width - 24, theme.FONTS.size(t("play.variation_back"), 16)[0] + 80))
                nb.midbottom = (ob.centerx, ob.bottom - 14)
                self.buttons.append(Button(nb, t("play.variation_back"), c.back_to_game, kind="primary", hint="End"))
            else:
                self.buttons.append(Button(nb, t("play.new"), self.new_game, kind="primary", hint="N"))

    def result_shown(self) -> bool:
        """The result banner is up: the game is over, looked at in its final position, and
        the banner was not clicked away. A finished variation looked at (a line opened from the
        move list) has it too, saying so (`summary_lines`), with the way back to the game."""
        return self.c.over and not self.c.reviewing and self.result_dismissed is not self.c.line[-1]

    def overlay_rect(self) -> pygame.Rect:
        """The result banner: over the top of the side panel, in place of the game's title,
        status and evaluation (which it replaces), so it never covers the board's cells: the
        final position and its winning line stay visible in every game and window size. With
        an AI problem it goes below the message, which keeps its Retry button."""
        pr = self.panel_rect
        r = pygame.Rect(pr.x + 8, pr.y + 8, pr.width - 16, 164)
        r.height += 20 * (len(self.detail_lines(r.width)) - 1) + 18 * (len(self.summary_lines(r.width)) - 1)
        if self.c.error:
            r.y = pr.y + 18 + 66 + 64
        return r

    def status_bottom(self) -> int:
        """Where the side panel's status ends (whose turn, the AI's progress, an earlier position
        looked at with its buttons, a problem), under the game's title and clocks; the
        evaluation follows (a small window leaves it less room, for the graph and the moves)."""
        return self.panel_rect.y + 18 + 66 + (74 if self.size[1] >= 700 else 64)

    def toast_area(self) -> pygame.Rect:
        """Messages appear in the side panel under the status they are about, never over it nor
        over the title and clocks, clear of the board and its coordinates, and above the
        commands (over the evaluation, the graph and the moves for a moment); below the result
        banner while it is up."""
        top = (self.overlay_rect().bottom if self.result_shown() else self.status_bottom()) + 8
        bottom = (self.pass_rect.y if self.pass_rect else self.buttons_top) - 8
        return pygame.Rect(self.panel_rect.x, top, self.panel_rect.width, max(0, bottom - top))

    def handle_event(self, ev):
        if self.confirm is not None:
            self.confirm.handle_event(ev)
            return
        if self.dialog is not None:
            self.dialog.handle_event(ev)
            return
        if ev.type == pygame.MOUSEBUTTONDOWN and ev.button == 3:
            target = self.moves.hit(ev.pos)
            if target is not None:
                self.variation_menu(target)
            return
        super().handle_event(ev)

    def on_click(self, pos):
        if super_hit(self, pos):
            return
        if self.game_caption_rect is not None and self.game_caption_rect.collidepoint(pos):
            self.c.back_to_game()   # the caption saying where the game is: back to it
            return
        index = self.moves.hit(pos)
        if isinstance(index, int):
            self.c.go_to(index)
            return
        if index is not None:   # a move of a variation: its line comes on the board
            self.c.go_to_node(index)
            return
        if self.graph_rect.width and self.graph_rect.inflate(0, 12).collidepoint(pos):
            n = len(self.c.history)
            self.c.go_to(round((pos[0] - self.graph_rect.x) / max(1, self.graph_rect.width) * (n - 1)))
            return
        if self.result_shown() and (self.board_rect.collidepoint(pos) or self.overlay_rect().collidepoint(pos)):
            self.result_dismissed = self.c.line[-1]  # a click on the board or the banner: the panel says the result
            return
        target = self.view.hit(pos)
        if target is None:
            return
        c = self.c
        if getattr(c, "person_choices", ()):
            self.swap2_asked = None   # the Swap2 choice is due: ask it again
            return
        if not c.can_play_here:
            if c.reviewing or not c.over:
                self.app.toast(t("play.not_your_turn") if not c.reviewing else t("play.review_not_your_turn"))
            return
        viewed = c.viewed
        action, selection = self.view.renderer.click(viewed, target, c.selection)
        if action is not None:
            if c.reviewing:
                c.play_from_view(action)   # a new line; the old one stays as a variation
            else:
                c.play(action)
        else:
            self._explain_click(viewed, target, selection)

    def _explain_click(self, state, target, selection) -> None:
        """A click that played nothing: take the renderer's new selection (a piece picked up,
        another one, or put back) or say why nothing happened. With a piece picked up, a point it
        cannot reach is said so and the piece stays picked up; with none, an empty point or
        an opponent's piece asks for a piece first."""
        c = self.c
        if not hasattr(self.view.renderer, "moves_by_square"):   # one-click games
            if selection is None:
                self.app.toast(t("play.illegal"))
            c.selection = selection
            return
        if selection is not None or (c.selection is not None and target == c.selection):
            c.selection = selection
        elif self._own_piece(state, target):
            self.app.toast(t("play.piece_stuck"))
        elif c.selection is not None:
            self.app.toast(t("play.cannot_go_there"))
        else:
            self.app.toast(t("play.pick_piece"))

    def _own_piece(self, state, target) -> bool:
        """Is ``target`` a square with a piece of the side to move (xiangqi: one that cannot move)?"""
        if not hasattr(self.view.renderer, "moves_by_square") or not isinstance(target, tuple):
            return False
        try:
            v = int(state.board_array()[target])
        except Exception:
            return False
        return v > 0 if state.current_player == 0 else v < 0

    def on_wheel(self, dy, pos):
        self.moves.wheel(dy, pos)

    def on_key(self, key, mod):
        ctrl = mod & (pygame.KMOD_CTRL | pygame.KMOD_META)
        shift = mod & pygame.KMOD_SHIFT
        if key == pygame.K_z and ctrl and shift or key == pygame.K_y:
            self.redo()
        elif key == pygame.K_z and ctrl or key == pygame.K_u and not ctrl:
            self.undo()
        elif key == pygame.K_s and ctrl and shift:
            self.save_as()
        elif key == pygame.K_s and ctrl:
            self.save()
        elif key == pygame.K_o and ctrl:
            self.load()
        elif key == pygame.K_c and ctrl:
            self.copy_position()
        elif key == pygame.K_UP and ctrl:
            self.promote_variation()
        elif key == pygame.K_v and ctrl:
            self.paste_position()
        elif ctrl:
            return
        elif key == pygame.K_LEFT:
            self.c.step_back()
        elif key == pygame.K_RIGHT:
            self.c.step_forward()
        elif key == pygame.K_HOME:
            self.c.go_start()
        elif key == pygame.K_END:
            if not self.c.go_end():   # already at the end of the line shown: back to the game
                self.c.back_to_game()
        elif key == pygame.K_UP:
            self.switch_variation(-1)
        elif key == pygame.K_DOWN:
            self.switch_variation(1)
        elif key == pygame.K_DELETE:
            self.delete_variation()
        elif key == pygame.K_k:
            self.edit_comment(opened_by="k")
        elif key == pygame.K_h:
            self.hint()
        elif key == pygame.K_p:
            self.toggle_policy()
        elif key == pygame.K_n:
            self.new_game()
        elif key == pygame.K_d:
            self.offer_draw()
        elif key == pygame.K_e:
            self.edit_board()
        elif key == pygame.K_a:
            self.analyse_game()
        elif key == pygame.K_m and self.c.game.id == "gomoku":
            self.move_numbers = not self.move_numbers
        elif key == pygame.K_SPACE:
            self.pass_move()
        elif key == pygame.K_SLASH and shift or key == pygame.K_QUESTION:
            self.help()  # F1 is the app's, in every scene

    def back(self):
        if self.c.in_progress:
            self.ask(t("confirm.leave_title"), t("confirm.leave_text"), t("confirm.leave"), self.app.go_home)
        else:
            self.app.go_home()

    def update(self, dt):
        # the clocks stop while the window is in the background or the app waits on a question
        # (leave this game? a file to open), when the person wants that: no side runs out of time
        # behind a dialog; and always while a sheet of the app covers the game (help), as they
        # do while the board editor is open
        overlay = self.app.overlay
        asks = getattr(overlay, "asks", False)
        asking = self.confirm is not None or self.dialog is not None or asks
        self.c.clock_paused = (overlay is not None and not asks) or bool(
            self.app.settings["clock_pause"] and (asking or not getattr(self.app, "focused", True)))
        self.c.update()
        self._ask_swap2()
        if self.c.game_over and not self.c.rating_done:   # the game, not a finished variation looked at
            self.app.rate_game(self.c)
        self.view.take_events(self.c, lambda p: side_name(self.c.game.id, p))
        for key, fields in self.c.notices:
            self.app.toast(t(key, **fields), error=key.endswith("failed"), about_game=True)
        self.c.notices.clear()
        self.view.update(dt)
        self._autosave()

    def _ask_swap2(self):
        """The person's Swap2 choice (`gui.opening`), asked once per position: "Later" closes it,
        a click on the board asks again."""
        choices = getattr(self.c, "person_choices", ())
        if not choices or self.confirm is not None or self.swap2_asked is self.c.state:
            return
        self.swap2_asked = self.c.state

        def pick(choice):
            self.confirm = None
            self.c.choose(choice)
            self.view.set_flipped(self._flip())

        def later():
            self.confirm = None
        buttons = [(t(f"swap2.{ch}"), (lambda ch=ch: pick(ch)), "primary" if i == 0 else "normal")
                   for i, ch in enumerate(choices)]
        rule = getattr(self.c, "rule", "swap2")   # Swap1's choice offers no "two" and no sixth stone
        text = t(f"{rule}.choose3_text" if len(self.c.state.moves) < 5 else "swap2.choose5_text")
        self.confirm = PanelDialog(lambda: self.panel_rect, t(f"{rule}.choose_title"), text,
                                       buttons + [(t("swap2.later"), later, "normal")])
        self.confirm.build(self.size)

    def _autosave(self):
        """Keep the game on disk after each move, so it can be resumed after closing the app."""
        if getattr(self.c, "in_opening", False):
            return   # a Swap2 exchange in progress is not resumable: the game is saved once it is settled
        n = (len(self.c.history), self.c.tree_version)   # a move, or a variation kept, promoted, deleted
        if n == self._saved_moves:
            return
        self._saved_moves = n
        if self.c.in_progress:
            autosave.save(self.c)
        elif self.c.game_over:
            autosave.clear(self.c.game.key)

    def close(self):
        self._saved_moves = -1
        self._autosave()
        self.c.close()

    def live_rect(self):
        """While the AI thinks only the side panel changes (the board changes with a move,
        which asks for a whole frame)."""
        if (self.c.ai_thinking or self.c.clock is not None) and not self.c.hint_moves() \
                and self.view.renderer.anim is None:
            return self.panel_rect
        return None

    def frame_rate(self) -> float:
        if self.view.renderer.anim is not None:
            return 60.0
        clock = self.c.clock
        if clock is not None and clock.running is not None:   # tenths under ten seconds, else seconds
            return 10.0 if clock.remaining(clock.running, time.monotonic()) < 11 else 4.0
        if self.c.ai_thinking or self.c.hint.rid is not None:
            return 8.0  # the spinner and the progress bar
        if self.c.analysing:
            return 2.0  # the analysis' progress
        return 0.0

    # --- drawing ------------------------------------------------------------------------
    def draw(self, surface):
        pal = self.pal
        c = self.c
        state = c.viewed
        mouse = self.app.mouse_pos()
        can_move = c.can_play_here
        q = self.move_quality(c.view_index)
        # the hinted move under the mouse (its badge, or its row in the panel drawn last frame):
        # its line replaces the badges, whose numbers it would cover
        hovered = None if c.reviewing else self.view.hint_at(c.state, c.hint_moves(), mouse, self.hint_rows)
        scores = self.move_scores() if not c.policy_map() and hovered is None else {}
        ov = Overlays(palette=pal, last_action=c.last_action(), before=c.before_last(), show_legal=can_move,
                      hints=[] if c.policy_map() or hovered is not None else c.hint_moves(), selection=c.selection,
                      move_scores=scores, move_score_labels=self.move_score_labels(scores),
                      hover=mouse if can_move and self.board_rect.collidepoint(mouse) else None,
                      lang=language(), game_over=state.is_terminal(),
                      move_mark=getattr(pal, q) if q in QUALITY_MARKS else None,
                      move_numbers=self.move_numbers, numbers_from=len(c.history[0].moves))
        self.view.draw(surface, self.board_rect, state, ov)
        lesson = self.lesson()
        if lesson is not None:   # the better move, on the position it was missed in
            self.view.draw_better(surface, c.history[c.view_index - 1], lesson["best"],
                                  f"{round(100 * lesson['best_win'])}%", pal.good)
        self.hovered_hint = hovered
        if not c.reviewing:
            self.view.draw_policy(surface, c.state, c.policy_map())
            if hovered is not None:
                self.view.draw_variation(surface, c.principal_variation(hovered))
        self.draw_panel(surface)
        if self.result_shown():
            self.draw_result(surface)
        self.draw_buttons(surface)
        if self.dialog is not None:
            self.dialog.draw(surface)
        if self.confirm is not None:
            self.confirm.draw(surface, pal, mouse)

    def move_scores(self) -> dict:
        """Each legal move's exact final disc margin for the person, with hints on in a solved
        othello endgame, or its exact result (1 / 0 / -1) in Connect Four's opening (the
        readout's); empty otherwise."""
        c = self.c
        if not c.hints_on or not c.human_to_move or c.reviewing:
            return {}
        readout = c.readout
        if readout is None:
            return {}
        return dict(readout.moves or readout.results)

    def move_score_labels(self, scores: dict) -> dict:
        """The words of exact results ("win", "draw", "loss") where ``scores`` are results, not
        disc margins; empty for margins."""
        readout = self.c.readout
        if not scores or readout is None or not readout.results or readout.moves:
            return {}
        words = {1: t("play.result_win"), 0: t("play.result_draw"), -1: t("play.result_loss")}
        return {a: words[v] for a, v in scores.items()}

    def lesson(self) -> dict | None:
        """What the review says of the move that led to the viewed position, when it gave
        something away (see `gui.review.better_move`)."""
        c = self.c
        return better_move(c.history, c.grades, c.view_index) if c.view_index > 0 else None

    def lesson_text(self, lesson: dict, width: int | None = None) -> str:
        """"Played b3 38% · better c3 52%: −14%"; in a panel narrower than ``width`` needs,
        the short form ("b3 38% · better c3 52%: −14%"), so that the loss is not cut off."""
        before = self.c.history[self.c.view_index - 1]

        def name(a):
            try:
                return before.action_to_display(a, language())
            except Exception:
                return str(a)
        fields = dict(played=name(lesson["played"]), played_win=f"{round(100 * lesson['played_win'])}%",
                      best=name(lesson["best"]), best_win=f"{round(100 * lesson['best_win'])}%",
                      loss=f"{round(100 * lesson['loss'])}%")
        text = t("review.better", **fields)
        if width is not None and theme.FONTS.size(text, 13, True)[0] > width:   # xiangqi's names at 1024×640
            text = t("review.better_short", **fields)
        return text

    def move_quality(self, index: int) -> str | None:
        if index <= 0:
            return None
        qs = self.c.qualities()
        return qs[index - 1]["quality"] if index - 1 < len(qs) else None

    def result_text(self) -> tuple[str, tuple]:
        pal = self.pal
        w = self.c.winner()
        if w is None:
            return t("play.draw"), pal.text
        if w == self.c.human:
            return t("play.you_win"), pal.good
        return (t("play.you_resigned") if self.c.resigned_by is not None else t("play.ai_wins")), pal.bad

    def result_detail(self) -> str:
        """Why the game ended (the rules' reason, othello's score)."""
        return result_detail(self.c)

    def mistakes_text(self) -> str:
        """"You: 2 mistakes, 1 blunder" after the game (or what the analysis knows so far)."""
        counts = summary_counts(self.c.qualities(), self.c.human)
        parts = [t(f"quality.{k}_1" if v == 1 and has(f"quality.{k}_1") else f"quality.{k}_n", n=v)
                 for k in ("blunder", "mistake", "inaccuracy") if (v := counts[k])]  # the worst first
        return t("quality.you", list=t("home.note.sep").join(parts)) if parts else t("quality.clean")

    def detail_lines(self, width: int) -> list[str]:
        """The result's reason and score in the banner: one line, or two when it is long (the
        second cut with an ellipsis)."""
        detail = self.result_detail() if self.c.over else ""
        return _two_lines(detail, 16, width - 30) if detail else [""]

    def summary_lines(self, width: int) -> list[str]:
        """The player's mistakes after the game (or the analysis's progress): one line, or two
        when the banner is narrow (the second cut with an ellipsis). A finished variation looked
        at: that it is one, not the game's end (the game may still go on)."""
        if self.c.in_variation:
            return _two_lines(t("play.variation_end_over" if self.c.game_over else "play.variation_end"), 14,
                              width - 30)
        done, total = self.c.analysis_progress()
        summary = self.mistakes_text() if done >= total else t("play.analysing", done=done, total=total)
        lines = _two_lines(summary, 14, width - 30)
        if self.c.rating_note:   # the person's new rating and the level nearest it
            lines += _two_lines(self.c.rating_note, 14, width - 30, at_dot=True)
        return lines

    def draw_result(self, surface):
        r = self.overlay_rect()
        theme.rounded_rect(surface, self.pal.card_hover, r, 14)
        theme.rounded_rect(surface, self.pal.accent, r, 14, 2)
        text, color = self.result_text()
        theme.text(surface, text, (r.centerx, r.y + 32), 30, color, bold=True, anchor="center")
        lines = self.detail_lines(r.width)
        for i, line in enumerate(lines):
            if line:
                theme.text(surface, line, (r.centerx, r.y + 62 + 20 * i), 16, self.pal.text, anchor="center")
        variation = self.c.in_variation   # said in the accent's colour: this is not the game's end
        for i, line in enumerate(self.summary_lines(r.width)):
            theme.text(surface, line, (r.centerx, r.y + 88 + 20 * (len(lines) - 1) + 18 * i),
                       14, self.pal.accent if variation else self.pal.text_dim, anchor="center")

    def draw_panel(self, surface):
        pal = self.pal
        c = self.c
        panel(surface, pal, self.panel_rect, 16)
        p = self.panel_rect.inflate(-36, -36)
        y = p.y
        covered = self.result_shown() and not c.error  # the result banner lies over the title, status and bar
        title_w = p.width - (CLOCK_WIDTH + 10 if c.clock is not None else 0)
        if not covered:
            theme.text(surface, theme.fit_text(game_name(c.game.id), 22, title_w, True), (p.x, y), 22, pal.text,
                       bold=True)
            level = level_name(c.level)
            if c.adaptive:
                level = f"{level_name('adaptive')} ({level})"
            sub = t("play.subtitle", side=side_name(c.game.id, c.human), level=level)
            if theme.FONTS.size(sub, 14)[0] > title_w:   # beside the clocks in a narrow panel: the side and level
                sub = t("play.subtitle_short", side=side_name(c.game.id, c.human), level=level)
            if getattr(c, "in_opening", False):   # a swap opening: a seat, not yet a colour
                sub = t(f"{c.rule}.subtitle_first" if c.seat == 0 else f"{c.rule}.subtitle_second", level=level)
            if c.clock is not None and c.clock_paused and not c.over:   # why the clocks stand still
                sub = t("clock.paused")
            theme.text(surface, theme.fit_text(sub, 14, title_w), (p.x, y + 32), 14, pal.text_dim)
        if c.clock is not None and not covered:
            clock_block(surface, pal, pygame.Rect(p.x, y - 4, p.width, 60), c.clock, self.view.renderer,
                        time.monotonic())
        y += 66
        # status: whose turn, the AI's progress, the result or a problem
        status = pygame.Rect(p.x, y, p.width, 60)
        r = self.view.renderer
        if covered:
            pass
        elif c.error:
            damaged = self.model_damaged()
            title, detail = (t("play.model_damaged"), t("play.model_damaged_help")) if damaged else (
                t("play.ai_problem"), c.error)
            button = getattr(self, "retry_rect", None)
            room = p.width - (0 if damaged else 120)
            theme.text(surface, theme.fit_text(title, 16, room, True), (p.x, y), 16, pal.bad, bold=True)
            wide = p.width - (button.width + 12 if damaged and button is not None else 0)
            for i, line in enumerate(theme.wrap_text(detail, 13, wide)[:2]):
                theme.text(surface, theme.fit_text(line, 13, p.width), (p.x, y + 30 + i * 17), 13, pal.text_dim)
        elif c.reviewing:
            text = t("play.viewing", n=c.view_index, total=len(c.history) - 1)
            q = self.move_quality(c.view_index)
            if q in QUALITY_MARKS:
                text += " · " + t(f"quality.{q}")
            busy = c.ai_thinking  # the game goes on meanwhile: a small spinner says the AI thinks
            theme.text(surface, theme.fit_text(text, 17, p.width - (26 if busy else 0), True), (p.x, y + 4), 17,
                       getattr(pal, q) if q in QUALITY_MARKS else pal.text, bold=True)
            if busy:
                spinner(surface, pal, (p.right - 9, y + 15), 8, self.app.time)
        elif c.over:
            text, color = self.result_text()
            detail = self.result_detail()
            top, hint_y = (2, 48) if detail else (6, 36)   # why, on a line of its own between the two
            theme.text(surface, theme.fit_text(text, 20, p.width, True), (p.x, y + top), 20, color, bold=True)
            if detail:
                theme.text(surface, theme.fit_text(detail, 14, p.width), (p.x, y + 29), 14, pal.text)
            press = t("play.variation_press_end") if c.in_variation else t("play.press_new")
            theme.text(surface, theme.fit_text(press, 13, p.width), (p.x, y + hint_y), 13,
                       pal.accent if c.in_variation else pal.text_faint)
        elif c.ai_thinking or not (c.ai_prepared or c.human_to_move):   # thinking, or loading its model first
            thinking_block(surface, pal, status, self.app, c.thinking, self.app.ai.status, t("play.ai_thinking"))
        else:
            r.side_icon(surface, (p.x + 13, y + 14), 12, c.human, pal)
            check = in_check(c.state)
            key = "play.your_move_pass" if self.view.extra_actions(c.state) else (
                "play.check" if check else "play.your_move")
            if getattr(c, "in_opening", False):   # a swap opening: the stones to place, or the choice to make
                key = (f"{c.rule}.choose_title" if c.person_choices else
                       "swap2.place3" if len(c.state.moves) < 3 else "swap2.place2")
            theme.text(surface, theme.fit_text(t(key), 18, p.width - 34, True), (p.x + 34, y + 14), 18,
                       pal.bad if check else pal.text, bold=True, anchor="midleft")
            sub = t("play.select_target") if c.selection is not None else (
                t("play.hints_thinking") if c.hints_on and c.hint.rid is not None else "")
            if sub:
                theme.text(surface, sub, (p.x, y + 38), 13, pal.text_faint)
        y = self.status_bottom()
        labels = (side_name(c.game.id, 0), side_name(c.game.id, 1))
        if not covered:
            lesson = self.lesson()
            said = (self.lesson_text(lesson, p.width), getattr(pal, lesson["quality"])) if lesson else None
            evaluation(surface, pal, pygame.Rect(p.x, y, p.width, 44), c.value0, r.side_colors(pal), labels,
                       c.proven0, said, readout=c.readout, mover=c.viewed.current_player)
        y += 54
        bottom = (self.pass_rect.y if self.pass_rect else self.buttons_top) - 10
        # the win-rate graph over the whole game, with the analysis' progress
        self.graph_rect = pygame.Rect(0, 0, 0, 0)
        hints = c.hint_moves()
        table = HINT_TABLE_HEIGHT if hints else 0
        # small windows get a lower graph (or none while hints are listed) and two rows of moves
        gh = max(0, min(64, bottom - y - 88 - table))
        gh = gh if gh >= 32 else 0
        if gh:
            done, total = c.analysis_progress()
            caption = t("play.analysing", done=done, total=total) if c.analysing or (
                done < total and c.analysis_on) else ""
            if c.full_analysis is not None:
                done, total, _ = c.full_progress()
                caption = t("play.analysing_game", level=level_name(c.full_analysis["level"]), done=done, total=total)
            marks = {q["index"]: getattr(pal, q["quality"]) for q in c.qualities() if q["quality"] in QUALITY_MARKS}
            self.graph_rect = winrate_graph(surface, pal, pygame.Rect(p.x, y, p.width, gh), c.graph_values(),
                                            r.side_colors(pal), c.view_index, marks, caption,
                                            mouse=self.app.mouse_pos(), labels=labels)
            y += gh + 8
        self.hint_rows = []
        if hints and bottom - y >= table + 60:  # the move list keeps room for two rows
            scores = self.move_scores()
            y = hint_table(surface, pal, p, y, hints, c.state, c.show_policy, self.hint_rows,
                           self.hovered_hint, scores, self.move_score_labels(scores))
        self.game_caption_rect = None
        if bottom - y > 40:
            caption = t("play.moves")
            tried = c.variation_count()
            if tried:
                caption += " · " + t("play.variations", n=tried)
            if c.in_variation:   # the moves shown are not the game's: where it is, a click away
                self.draw_game_caption(surface, p, y, tried)
            else:
                theme.text(surface, theme.fit_text(caption, 13, p.width), (p.x, y), 13, pal.text_faint)
            comment = c.comment_at(c.view_index)
            if comment and bottom - y > 120:   # what the record says of the viewed move
                for line in _two_lines(comment, 13, p.width):
                    y += 18
                    theme.text(surface, line, (p.x, y), 13, pal.text)
            first = c.history[0].current_player if c.history else 0
            qualities = {q["index"]: q["quality"] for q in c.qualities() if q["quality"] in QUALITY_MARKS}
            notes = {i for i, n in enumerate(c.line) if n.comment}
            footer = result_detail(c) if c.time_loss is not None else ""
            self.moves.draw(surface, pal, pygame.Rect(p.x, y + 20, p.width, bottom - y - 20),
                            c.move_texts(language()), first, c.view_index, qualities,
                            c.variations_at(language()), notes, footer, c.game_branch())

    def draw_game_caption(self, surface, p, y, tried: int) -> None:
        """The move list's caption while a line opened from the move list is on the board: that
        it is a variation and the game's move, in the accent colour, a click (or End) back to
        the game; the moves tried here after it when they fit."""
        pal = self.pal
        n = len(self.c.game_line()) - 1
        text = t("play.variation_caption", n=n)
        if theme.FONTS.size(text, 13, True)[0] > p.width - 8:
            text = t("play.variation_caption_short", n=n)
        text = theme.fit_text(text, 13, p.width - 8, True)
        w = theme.FONTS.size(text, 13, True)[0]
        self.game_caption_rect = pygame.Rect(p.x - 4, y - 3, w + 8, 20)
        if self.game_caption_rect.collidepoint(self.app.mouse_pos()):
            theme.rounded_rect(surface, pal.button_hover, self.game_caption_rect, 5)
        theme.text(surface, text, (p.x, y), 13, pal.accent, bold=True)
        rest = " · " + t("play.variations", n=tried) if tried else ""
        if rest and theme.FONTS.size(rest, 13)[0] <= p.width - w - 8:
            theme.text(surface, rest, (p.x + w + 4, y), 13, pal.text_faint)

def super_hit(scene, pos) -> bool:
    from gui.widgets import hit_buttons
    return hit_buttons(scene.buttons, pos)
