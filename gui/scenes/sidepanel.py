"""Pieces of the side panel shared by the play and demo scenes."""
from __future__ import annotations

import pygame

from gui import theme
from gui.boards.base import margin_text
from gui.i18n import has, language, t
from gui.widgets import progress_bar, spinner, winrate_bar


class MoveList:
    """The game's moves in numbered pairs; a click on a move shows the position after it.
    The moves played instead of a move (variations) follow its row, indented and in
    parentheses, each move clickable. While another line than the game's own is on the board,
    the game's line among them is labelled and drawn in the accent colour. Follows the newest
    move unless scrolled back; keeps the viewed move in sight."""

    ROW = 24

    def __init__(self):
        self.scroll = 0  # rows scrolled up from the bottom
        self.rect = pygame.Rect(0, 0, 0, 0)
        #: (where a move is drawn, its history index, or the tree node of a variation's move)
        self.items: list[tuple[pygame.Rect, object]] = []
        self._shown_current = None

    def wheel(self, dy: int, pos) -> bool:
        if not self.rect.collidepoint(pos):
            return False
        self.scroll = max(0, self.scroll + dy)
        return True

    def hit(self, pos):
        """What is under ``pos``: the history index of a move of the line (the position after
        it), a variation's move (its `games.records.tree.Node`), or None."""
        for r, index in self.items:
            if r.collidepoint(pos):
                return index
        return None

    def draw(self, surface, pal, rect, texts: list[str], first_player: int = 0, current: int | None = None,
             qualities: dict | None = None, variations: dict | None = None, notes=(), footer: str = "",
             game=None) -> None:
        """``current``: the history index on the board (None: the newest); ``qualities``:
        {history index: inaccuracy|mistake|blunder} to colour and mark; ``variations``: {history
        index of the move replaced: [[(node, move text)...]...]} (see
        `gui.session.GameSession.variations_at`); ``notes``: the history indices of moves with a
        comment; ``footer``: a line after the last move (how the game ended when no move shows
        it: a loss on time); ``game``: the game's first move off the line shown, while another
        line is on the board (`gui.session.GameSession.game_branch`): its variation is the game's."""
        from gui.widgets import QUALITY_MARKS
        self.rect = pygame.Rect(rect)
        self.items = []
        theme.rounded_rect(surface, pal.bg2, rect, 10)
        variations = variations or {}
        if not texts and not variations and not footer:
            theme.text(surface, t("play.no_moves"), (rect.x + 14, rect.y + 12), 14, pal.text_faint)
            return
        current = len(texts) if current is None else current
        qualities = qualities or {}
        # pair moves: (number, first player's move, second player's move)
        items = ([None] + texts) if first_player == 1 else list(texts)
        offset = 1 if first_player == 1 else 0  # items[k] is move k + 1 - offset
        rows: list[tuple] = []   # ("pair", number, items index) or ("var", history index, moves)
        row_of_pair = []
        for i in range(0, max(len(items), 1 if variations else 0), 2):
            row_of_pair.append(len(rows))
            if i < len(items):
                rows.append(("pair", i // 2 + 1, i))
            for k in (i + 1 - offset, i + 2 - offset):   # the variations of the row's moves
                for moves in variations.get(k, []) if k >= 1 else []:
                    rows.append(("var", k, moves))
        last = len(texts) + 1   # the moves undo took back, after the last move
        if last not in (k for r in rows if r[0] == "var" for k in [r[1]]):
            for moves in variations.get(last, []):
                rows.append(("var", last, moves))
        if footer:
            rows.append(("footer",))
        visible = max(1, (rect.height - 12) // self.ROW)
        if current != self._shown_current:  # the view moved: bring its row into sight
            self._shown_current = current
            if current > 0 and row_of_pair:
                row = row_of_pair[min(len(row_of_pair) - 1, (current - 1 + offset) // 2)]
                end = len(rows) - self.scroll
                if row >= end:
                    self.scroll = max(0, len(rows) - row - 1)
                elif row < end - visible:
                    self.scroll = max(0, len(rows) - row - visible)
        self.scroll = min(self.scroll, max(0, len(rows) - visible))
        end = len(rows) - self.scroll
        start = max(0, end - visible)
        col = (rect.width - 54) // 2
        size = 15
        clip = surface.get_clip()
        surface.set_clip(rect)
        for k, row in enumerate(rows[start:end]):
            y = rect.y + 8 + k * self.ROW
            if row[0] == "var":
                self._draw_variation(surface, pal, rect, y, row[1], row[2], offset,
                                     game is not None and row[2][0][0] is game)
                continue
            if row[0] == "footer":
                theme.text(surface, theme.fit_text(footer, 14, rect.width - 24), (rect.x + 14, y), 14, pal.bad)
                continue
            _, n, i = row
            theme.text(surface, f"{n}.", (rect.x + 40, y), size, pal.text_faint, anchor="topright")
            for j in (0, 1):
                if i + j >= len(items) or items[i + j] is None:
                    continue
                index = i + j + 1 - offset
                mv = items[i + j]
                q = qualities.get(index)
                if q in QUALITY_MARKS:
                    mv = f"{mv} {QUALITY_MARKS[q]}"
                if index in notes:
                    mv += " *"
                x = rect.x + 50 + j * col
                box = pygame.Rect(x - 5, y - 2, col - 4, self.ROW - 2)
                self.items.append((box, index))
                is_current = index == current
                if is_current:
                    w = theme.FONTS.size(mv, size)[0]
                    theme.rounded_rect(surface, pal.button_hover, (x - 5, y - 2, min(col - 4, w + 10), self.ROW - 2), 5)
                color = getattr(pal, q) if q in QUALITY_MARKS else (pal.text if is_current else pal.text_dim)
                theme.text(surface, theme.fit_text(mv, size, col - 10), (x, y), size, color, bold=is_current)
        surface.set_clip(clip)
        if self.scroll:
            theme.text(surface, "▼", (rect.right - 10, rect.bottom - 6), 11, pal.text_faint, anchor="bottomright")

    def _draw_variation(self, surface, pal, rect, y, index: int, moves, offset: int, is_game: bool = False) -> None:
        """One variation on a row of its own: ``(3... b1 4. c3)``, each move clickable. The
        game's own line (``is_game``, while another line is shown) is labelled "game" before it
        and drawn in the accent colour, so that the person sees where the game is."""
        size = 13
        x = rect.x + 34
        right = rect.right - 8
        faint, dim = (pal.accent, pal.accent) if is_game else (pal.text_faint, pal.text_dim)
        if is_game:
            label = t("play.game_line")
            theme.text(surface, label, (x, y + 1), size, pal.accent, bold=True)
            x += theme.FONTS.size(label, size, True)[0] + 5
        theme.text(surface, "(", (x, y + 1), size, faint)
        x += theme.FONTS.size("(", size)[0] + 2
        for j, (node, text) in enumerate(moves):
            k = index + j                      # the history index the move would have
            first = (k - 1 + offset) % 2 == 0  # the first player's move: numbered
            number = (k - 1 + offset) // 2 + 1
            label = text if text == "…" else (f"{number}. {text}" if first else (
                f"{number}... {text}" if j == 0 else text))
            if getattr(node, "comment", ""):
                label += " *"
            w = theme.FONTS.size(label, size)[0]
            if x + w + 12 > right:
                theme.text(surface, "…", (x, y + 1), size, faint)
                return
            box = pygame.Rect(x - 3, y - 2, w + 6, self.ROW - 2)
            self.items.append((box, node))
            theme.text(surface, label, (x, y + 1), size, faint if text == "…" else dim)
            x += w + 8
        theme.text(surface, ")", (x - 6, y + 1), size, faint)


def thinking_block(surface, pal, rect, app, thinking, ai_status: str, label: str) -> None:
    """Spinner, label and progress of a running search (or of the AI starting up)."""
    spinner(surface, pal, (rect.x + 14, rect.y + 14), 10, app.time)
    if ai_status == "starting":
        secs = int(app.time_since_ai_start())
        label = t("play.ai_starting", seconds=secs)
    theme.text(surface, theme.fit_text(label, 17, rect.width - 40, True), (rect.x + 34, rect.y + 14), 17,
               pal.text, bold=True, anchor="midleft")
    progress_bar(surface, pal, (rect.x, rect.y + 36, rect.width, 8), thinking.fraction if ai_status != "starting" else 0)
    if thinking.sims and ai_status != "starting":
        theme.text(surface, t("play.sims", percent=round(100 * thinking.fraction), sims=f"{thinking.sims:,}"),
                   (rect.x, rect.y + 50), 13, pal.text_faint)


def evaluation(surface, pal, rect, value0, colors, labels, proven0=None, lesson=None, readout=None,
               mover: int = 0) -> None:
    """The win-rate bar under a small caption; ``value0`` is player 0's value (-1..1) or None.
    Once the search has proved the result (``proven0``: +1, 0 or -1 for player 0), or a solver
    has (``readout``, for ``mover``, the player to move), the caption says so: a 100% bar is
    then a certainty, not an estimate. ``lesson`` (text, colour), the review's word on the move
    that led here, takes the caption's place."""
    caption = proven_caption(proven0, labels, readout, mover)
    if caption is not None and theme.fit_text(caption, 13, rect.width, True) != caption:
        caption = proven_caption(proven0, labels, readout, mover, short=True)   # a narrow panel
    if lesson is not None:
        theme.text(surface, theme.fit_text(lesson[0], 13, rect.width, True), (rect.x, rect.y), 13, lesson[1], bold=True)
    elif caption is None:
        theme.text(surface, t("play.evaluation"), (rect.x, rect.y), 13, pal.text_faint)
    else:
        theme.text(surface, theme.fit_text(caption, 13, rect.width, True), (rect.x, rect.y), 13, pal.text, bold=True)
    exact0 = proven_value0(proven0, readout, mover)
    shown = exact0 if exact0 is not None else value0   # a proven result, not the estimate beside it
    p0 = None if shown is None else (shown + 1) / 2
    winrate_bar(surface, pal, (rect.x, rect.y + 20, rect.width, 22), p0, colors, labels)


def proven_value0(proven0, readout=None, mover: int = 0) -> float | None:
    """Player 0's proven result (+1, 0, -1) of the viewed position: the search's proof, else a
    solver's readout (for ``mover``); None when nothing is proven. The bar shows it where the
    caption says the result is proven (a "Red wins with best play (proven)" above a 94% bar read
    as a contradiction; the graph already drew the proof)."""
    if proven0 is not None:
        return float(proven0)
    if readout is None:
        return None
    result = readout.margin if readout.margin is not None else readout.result
    if result is None:
        return None
    sign = (result > 0) - (result < 0)
    return float(sign if mover == 0 else -sign)


def proven_caption(proven0, labels, readout=None, mover: int = 0, short: bool = False) -> str | None:
    """The proven result in words: with a solver's readout, how far the win is ("Red wins in 4
    moves", counting the winner's own moves, its winning move included; without the distance,
    as Connect Four's opening book knows it, only who wins) or othello's final
    disc margin ("Black +6 discs"); else the search's proof; None when nothing is proven.
    ``short``: without "with best play", for a narrow panel."""
    tail = "_short" if short else ""
    if readout is not None and readout.margin is not None:
        if readout.margin == 0:
            return t("play.proven_draw")
        side = labels[mover if readout.margin > 0 else 1 - mover]
        n = abs(readout.margin)
        return t("play.proven_margin_one" + tail, side=side) if n == 1 else t("play.proven_margin" + tail, side=side, n=n)
    if readout is not None and readout.result is not None:
        if readout.result == 0:
            return t("play.proven_draw")
        side = labels[mover if readout.result > 0 else 1 - mover]
        n = readout.winner_moves()
        if n is None:   # the result without its distance (Connect Four's opening book)
            return t("play.proven_win", side=side)
        return t("play.proven_win_next", side=side) if n == 1 else t("play.proven_win_in" + tail, side=side, n=n)
    if proven0 is None:
        return None
    return t("play.proven_draw") if proven0 == 0 else t("play.proven_win", side=labels[0 if proven0 > 0 else 1])


def reason_text(reason: str | None) -> str:
    """The end reason in the UI language (the rules' own words when there is no translation)."""
    if not reason:
        return ""
    key = f"reason.{reason}"
    text = t(key)
    return reason if text == key else text


def hint_table(surface, pal, p, y, hints, state, policy_on: bool, rows: list, hovered=None, margins=None,
               labels=None) -> int:
    """The hint's top moves under a caption: notation, the win rate each keeps for the person,
    and visits; with ``margins`` (othello's solved endgame: each move's exact final disc margin
    for the person) the margin first, then the win rate; with ``labels`` too (Connect Four's
    opening: each move's exact result in words) the result instead of the margin. ``rows`` gets each row's (rectangle,
    action) for hovering; the ``hovered`` move (whose line is on the board) is highlighted.
    Returns the y below."""
    caption = t("play.hint_table_result") if margins and labels else t("play.hint_table_margin") if margins \
        else t("play.hint_table")
    theme.text(surface, theme.fit_text(caption, 13, p.width), (p.x, y), 13, pal.text_faint)
    y += 18
    for i, h in enumerate(hints[:3]):
        row = pygame.Rect(p.x, y - 1, p.width, 18)
        rows.append((row, h.get("action")))
        if hovered is not None and h.get("action") == hovered:
            theme.rounded_rect(surface, pal.button_hover, row, 5)
        try:
            name = state.action_to_display(h["action"], language())
        except Exception:
            name = str(h.get("action"))
        win = h.get("winrate")
        win = "–" if win is None else f"{round(100 * win)}%"
        if margins:
            m = margins.get(h.get("action"))
            said = (labels or {}).get(h.get("action")) or ("–" if m is None else margin_text(m))
            line = t("play.hint_row_margin", move=name, win=win, margin=said)
        else:
            line = t("play.hint_row", move=name, win=win, visits=f"{h.get('visits', 0):,}")
        theme.text(surface, theme.fit_text(f"{i + 1}. {line}", 14, p.width), (p.x + 4, y), 14,
                   pal.hint if i == 0 else pal.text_dim)
        y += 18
    policy = t("play.policy_on") if policy_on else t("play.policy_off")
    theme.text(surface, theme.fit_text(policy, 12, p.width), (p.x + 4, y), 12, pal.text_faint)
    return y + 22


def in_check(state) -> bool:
    """Is the side to move in check (games that have check)?"""
    try:
        return bool(state.is_check()) and not state.is_terminal()
    except (AttributeError, TypeError):
        return False


def line_reason(controller) -> str:
    """Why a game without a rules' reason ended: a line completed, a full board."""
    c = controller
    if c.resigned_by is not None or not c.state.is_terminal():
        return ""
    key = f"reason.end.{c.game.id}" if c.winner() is not None else "reason.end.full"
    return t(key) if has(key) else ""


def final_score(controller) -> str:
    """Othello's final disc count as "50–14" (the winner's first); "" for other games."""
    state = controller.state
    if controller.game.id != "othello" or not state.is_terminal():
        return ""
    try:
        board = state.board_array()
        a, b = int((board > 0).sum()), int((board < 0).sum())
    except Exception:
        return ""
    return f"{max(a, b)}–{min(a, b)}"


def result_detail(controller) -> str:
    """Why a finished game ended, for the play and demo banners: othello's score and the
    rules' reason ("50–14 · the board is full", "by checkmate")."""
    loser = getattr(controller, "time_loss", None)
    if loser is not None:
        from gui.scenes.setup import side_name
        return t("clock.lost_on_time", side=side_name(controller.game.id, loser))
    parts = []
    score = final_score(controller)
    if score:
        parts.append(score)
    reason = reason_text(controller.end_reason()) or line_reason(controller)
    if reason:
        parts.append(reason)
    return " · ".join(parts)


#: the side panel's clocks: width of each side's box, height, and the time under which it turns red
CLOCK_WIDTH = 112
CLOCK_HEIGHT = 28
CLOCK_LOW = 10.0


def clock_texts(clock, now: float) -> list[tuple[str, bool, bool]]:
    """For each player: (time to show, its clock runs, time is short). Byo-yomi adds the periods
    left ("0:25 ×2")."""
    from engine.play.clock import format_clock
    out = []
    for p in (0, 1):
        seconds, periods = clock.display(p, now)
        text = format_clock(seconds, tenths=True)
        if periods is not None and (clock.left[p] <= 0 or clock.running == p and seconds < clock.control.period
                                    and clock.remaining(p, now) <= clock.control.period * periods):
            text += f" ×{periods}"
        low = clock.remaining(p, now) < CLOCK_LOW or clock.flagged == p
        out.append((text, clock.running == p, low))
    return out


def clock_block(surface, pal, rect, clock, renderer, now: float) -> None:
    """The two clocks, one box per side stacked in ``rect``'s right part: the side's piece and its
    time; the running clock's box is outlined, a short time is red."""
    for p, (text, running, low) in enumerate(clock_texts(clock, now)):
        box = pygame.Rect(rect.right - CLOCK_WIDTH, rect.y + p * (CLOCK_HEIGHT + 4), CLOCK_WIDTH, CLOCK_HEIGHT)
        theme.rounded_rect(surface, pal.card_hover if running else pal.bg2, box, 8)
        if running:
            theme.rounded_rect(surface, pal.accent, box, 8, 2)
        renderer.side_icon(surface, (box.x + 15, box.centery), 8, p, pal)
        theme.text(surface, theme.fit_text(text, 17, box.width - 34, True), (box.right - 10, box.centery), 17,
                   pal.bad if low else (pal.text if running else pal.text_dim), bold=True, anchor="midright")
