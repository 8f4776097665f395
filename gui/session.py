"""A game's history as the play and demo controllers share it: the positions, what the
searches found out about each, the position being looked at, redo, and the AI requests
(the move search and the background analysis) made on it."""
from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass, field

from games.records.tree import GameTree, Node
from gui.ai_client import AIClient
from gui.variations import GameTreeLines, ended_off_board
from gui.readouts import ExactReadouts
from gui.review import Evaluation, final_evaluation, move_qualities

AI_MIN_SHOW_SECONDS = 0.35  # an instant reply still shows for a moment, so the move is seen


@dataclass
class Thinking:
    """What the AI is doing right now, for the thinking indicator."""
    rid: int | None = None
    started: float = 0.0
    fraction: float = 0.0
    top: list = field(default_factory=list)
    value: float | None = None
    sims: int = 0


class GameSession(GameTreeLines):
    """A game's history plus the AI requests made on it; base of the play and demo controllers.

    ``history[i]`` is the position after i moves and ``evals[i]`` what a search found out
    about it (or None): the newest and deepest word, for the evaluation bar and the graph.
    ``grades[i]`` is what the move marks are judged from: the background analysis (one level,
    a fresh tree for each position, so a game reloaded is judged the same), or a proof or the
    rules' verdict from any search, which no estimate replaces. The person may look at any
    earlier position (``cursor``) while the game goes on; ``cursor`` None means the view
    follows the newest position.

    The game is a tree of moves (``tree``, `games.records.tree.GameTree`): ``history`` is one
    line of it, the one on the board (``line`` holds its nodes), and the lists above are that
    line's; each node keeps its position's evaluation and grade while another line is shown.
    A move played in an earlier position (after looking back or undo) starts a new line and
    keeps the old one as a variation; the line the game goes on in becomes the main line (a
    record's moves), so the game saved is the one played, with what was tried beside it.
    """

    #: the background pass that evaluates positions no search has seen, and judges the moves: the
    #: engine's study judge (`engine.play.players.ANALYSIS`, the same visits in every game), not a
    #: play level, whose visits are tuned per game for its rating
    ANALYSIS_LEVEL = "analysis"

    def __init__(self, ai: AIClient, game, model_path_for=None):
        self.ai = ai
        self.game = game
        self.history = [game.initial_state()]
        self.evals: list[Evaluation | None] = [None]
        self.grades: list[Evaluation | None] = [None]
        self.cursor: int | None = None
        self.model_path_for = model_path_for or (lambda game: None)
        self.thinking = Thinking()
        self.thinking_at: int | None = None  # the history index the AI is searching
        self.pending_move: tuple[int, float] | None = None  # (action, not before)
        self.analysis_on = True
        self.analysis = Thinking()
        self.analysis_at: int | None = None
        #: "Analyse game": {"level", "todo" (history indices still to analyse, in order), "total"}
        self.full_analysis: dict | None = None
        self.analysis_level = ""   # the level "Analyse game" last used on this game (kept in its record)
        self.error = ""
        self.readouts = ExactReadouts()
        self.notices: list[tuple[str, dict]] = []  # (i18n key, fields) for the scene to show
        self.events: list[dict] = []  # moves made, for sounds and animations
        self.resigned_by: int | None = None
        self.agreed_draw = False   # the person offered a draw and the AI accepted it
        #: the game clock (`engine.play.clock.GameClock`), None without a time control; ``clocks[i]``
        #: its snapshot when position i was reached (take-backs restore it, records keep it)
        self.clock = None
        self.clocks: list = [None]
        self.time_loss: int | None = None  # the player who ran out of time
        self.clock_paused = False  # the window lost focus and the person wants the clocks stopped then
        #: the AI process has what it needs for this game's searches loaded (a timed game asks it to
        #: load first, see `prepare_ai`: no clock pays for loading a model)
        self.ai_prepared = True
        self._prepare_rid: int | None = None
        #: what the AI's recent timed moves cost beyond the time their clock planned (the trips
        #: between the processes, a search step past its deadline): planned for on the next ones
        self.ai_lags: list[float] = []
        self._asked_at = 0.0
        #: plies of ``history[0].moves`` that only place a hand-set position's stones (the
        #: board editor's setup in games where only the stones count; records keep it)
        self.setup_plies = 0
        self.tree = GameTree(self.history[0])
        self.line: list[Node] = [self.tree.root]
        self._redo: list[Node] = []        # the line undo took back, next first
        #: the node the game is at: where the clocks ran (a line opened from the move list is
        #: looked at with the clocks stopped; see `_show_line`)
        self.clock_node: Node = self.tree.root
        self._clock_left = None             # the clocks as they stood when that line was left
        self.tree_version = 0              # counts changes to the tree (for autosave and caches)
        #: the line on the board was opened from the move list: looking is not playing, so the
        #: AI does not play on at its end until the person plays or asks to go on from there
        self.waiting = False
        self._session_counter = itertools.count()
        self.session = self._new_session()

    def _new_session(self) -> str:
        return f"{os.getpid()}-{id(self)}-{next(self._session_counter)}"

    # --- position -------------------------------------------------------------
    @property
    def state(self):
        """The newest position (the one the game goes on from)."""
        return self.history[-1]

    @property
    def over(self) -> bool:
        return self.ended_off_board or self.state.is_terminal()

    def winner(self) -> int | None:
        if self.agreed_draw:
            return None
        if self.resigned_by is not None:
            return 1 - self.resigned_by
        if self.time_loss is not None:
            return 1 - self.time_loss
        return self.state.winner()

    def end_reason(self) -> str | None:
        """Why the game ended, when the rules say (xiangqi's checkmate, repetition...)."""
        if self.time_loss is not None:
            return "time"
        if self.agreed_draw:
            return "agreement"
        if self.resigned_by is not None or not self.state.is_terminal():
            return None
        try:
            reason = self.state.end_reason()
        except (AttributeError, TypeError):
            return None
        return reason if isinstance(reason, str) and reason else None

    def last_action(self) -> int | None:
        """The move that led to the viewed position."""
        moves = self.viewed.moves
        return moves[-1] if moves else None

    def before_last(self):
        """The position before the viewed one, when the history has it."""
        i = self.view_index
        return self.history[i - 1] if i > 0 else None

    def move_texts(self, lang: str) -> list[str]:
        """Each move of the game in display notation (computed from the position before it)."""
        cache = getattr(self, "_texts", None)
        if cache is None or cache[0] != lang or cache[1] is not self.history[-1]:
            out = []
            for before, after in zip(self.history, self.history[1:]):
                a = after.moves[-1] if after.moves else None
                try:
                    out.append(before.action_to_display(a, lang))
                except Exception:
                    try:
                        out.append(before.action_to_text(a))
                    except Exception:
                        out.append(str(a))
            self._texts = cache = (lang, self.history[-1], out)
        return cache[2]

    def _push(self, action: int, by_ai: bool, timed: bool = True) -> None:
        """Play ``action`` in the newest position. Without ``timed`` (an opening's stones, placed
        before the colours are settled) no clock is pressed or started: no time, no increment."""
        before = self.state
        now = time.monotonic()
        clock = self.clock if timed else None
        if clock is not None:
            if not self.clock.press(before.current_player, now):
                self._lose_on_time(before.current_player)
                return
        parent = self._sync()[-1]
        if self._redo and self._redo[0].parent is parent and self._redo[0].action == action:
            node = self._redo.pop(0)      # the same move again: what we knew of it still holds
        else:
            self._redo = []
            node = parent.child(action)   # a line tried before: so does what we knew of it
        if node is None:
            node = self.tree.add(parent, action, before.apply(action))
        self.tree.promote(node)           # the game goes on here: the old line stays as a variation
        self.tree_version += 1
        self.waiting = False
        self.clock_node = node
        after = node.state
        self.history.append(after)
        self.line.append(node)
        self.evals.append(final_evaluation(after) or node.data.get("eval"))
        self.grades.append(final_evaluation(after) or node.data.get("grade"))
        if clock is not None and not after.is_terminal() and not self.clock_paused and not self.reviewing:
            clock.start(after.current_player, now)
        self.clocks.append(self.clock.snapshot() if self.clock is not None else None)
        self.events.append({"type": "move", "before": before, "after": after, "action": action,
                            "player": before.current_player, "by_ai": by_ai,
                            "shown": self.cursor is None})
        if after.is_terminal():
            self.events.append({"type": "end", "winner": after.winner()})

    def _reset_history(self, states, tree: GameTree | None = None) -> None:
        """A new game: the line ``states``, in ``tree`` when given (its nodes are those states)."""
        states = list(states)
        end = tree.find(s.moves[-1] for s in states[1:]) if tree is not None else None
        if end is None or tree.root.state.key() != states[0].key():
            tree = GameTree.from_line(states)
            end = tree.main_line()[-1]
        self.tree = tree
        self.line = tree.path_to(end)
        self.clock_node = end
        self.history = [n.state for n in self.line]
        self._clear_off_board_end()
        if self.clock is not None:
            from engine.play.clock import GameClock
            self.clock = GameClock(self.clock.control)
        self.clocks = [self.clock.snapshot() if self.clock is not None else None] * len(self.history)
        self.evals = [final_evaluation(s) for s in self.history]
        self.grades = list(self.evals)
        self.cursor = None
        self._redo = []
        self.waiting = False
        self.tree_version += 1
        self.error = ""
        self.full_analysis = None
        self.analysis_level = ""
        self.session = self._new_session()

    # --- looking at earlier positions --------------------------------------------
    @property
    def view_index(self) -> int:
        """The history index of the position on the board."""
        return len(self.history) - 1 if self.cursor is None else self.cursor

    @property
    def viewed(self):
        return self.history[self.view_index]

    @property
    def reviewing(self) -> bool:
        """An earlier position is on the board (the game itself is not changed by looking)."""
        return self.cursor is not None or self._waits()

    def _waits(self) -> bool:
        """The end of a line opened from the move list waits for the person (see ``waiting``)."""
        return False

    def game_line(self) -> list[Node]:
        """The nodes of the line the game itself is in: the line on the board, or, while another
        line opened from the move list is looked at (``waiting``), the one it was left in
        (``clock_node``'s). An unfinished game stays unfinished, and is what the autosave keeps,
        while a finished variation is looked at."""
        line = self._aligned()   # asked every frame: the nodes only, not the line's data stored in them
        node = self.clock_node
        if not self.waiting or node is line[-1]:
            return line
        path = self.tree.path_to(node)
        return path if path[0] is self.tree.root else line   # deleted meanwhile: the line on the board

    @property
    def in_variation(self) -> bool:
        """Another line than the game's own is on the board (opened from the move list; see
        `game_line`): its end, finished or not, is not where the game is."""
        return self.game_line()[-1] is not self.line[-1]

    def game_branch(self):
        """While another line is on the board (`in_variation`): the game's first move off that
        line (the move list draws the line from it as the game's), or None when the game's line
        leaves no move off it (it ends within the line shown)."""
        game, line = self.game_line(), self.line
        if game[-1] is line[-1]:
            return None
        for k in range(1, len(game)):
            if k >= len(line) or game[k] is not line[k]:
                return game[k]
        return None

    def back_to_game(self) -> bool:
        """Show the game where it is: its newest position, on its own line when another one
        opened from the move list is on the board; False when that is already shown."""
        game = self.game_line()
        if game[-1] is self.line[-1]:
            return self.go_end()
        self._show_line(game, len(game) - 1)
        return True

    @property
    def game_over(self) -> bool:
        """The game itself is over (`over` is the line on the board's; see `game_line`)."""
        node = self.game_line()[-1]
        if node is self.line[-1]:
            return self.over
        return node.state.is_terminal() or ended_off_board(node.data.get)

    def go_to(self, index: int) -> bool:
        """Show the position after ``index`` moves (clamped); the newest one follows the game again."""
        index = max(0, min(len(self.history) - 1, int(index)))
        new = None if index == len(self.history) - 1 else index
        changed = new != self.cursor
        self.cursor = new
        if changed:
            self.events.append({"type": "view"})
        return changed

    def step_back(self) -> bool:
        return self.go_to(self.view_index - 1)

    def step_forward(self) -> bool:
        return self.go_to(self.view_index + 1)

    def go_start(self) -> bool:
        return self.go_to(0)

    def go_end(self) -> bool:
        return self.go_to(len(self.history) - 1)

    @property
    def redo_stack(self) -> list[tuple]:
        """(state, evaluation, grade) of the moves undo took back, the next first."""
        if not self._redo or not self.line or self._redo[0].parent is not self.line[-1] \
                or len(self.line) != len(self.history):
            return []
        return [(n.state, n.data.get("eval"), n.data.get("grade")) for n in self._redo]

    def moves_after_view(self) -> int:
        """How many moves of the game come after the viewed position (replaced by playing on from it)."""
        return len(self.history) - 1 - self.view_index

    def truncate_to_view(self) -> None:
        """Make the viewed position the newest: the later moves go to the redo stack."""
        i = self.view_index
        self.waiting = False
        if i == len(self.history) - 1:
            self.cursor = None
            return
        self.cancel_ai()
        self.cancel_analysis()
        line = self._sync()
        kept = self._redo if self._redo and self._redo[0].parent is line[-1] else []
        self._redo = line[i + 1:] + kept   # the moves taken back stay in the tree, and for redo
        del self.history[i + 1:]
        del self.evals[i + 1:]
        del self.grades[i + 1:]
        del self.line[i + 1:]
        del self.clocks[i + 1:]
        self.clock_node = self.line[-1]
        snap = self.recorded_clock(i)
        if self.clock is not None and snap is not None:
            self.clock.restore(snap)   # a take-back gives back the time the moves took
        self._clear_off_board_end()
        self.cursor = None
        self.error = ""
        self.session = self._new_session()  # the AI's tree no longer matches the game
        self.events.append({"type": "undo"})

    # --- evaluations -----------------------------------------------------------
    def evaluation_at(self, index: int) -> Evaluation | None:
        """What is known of position ``index``: its own search, else the search of the position
        before it when the move played was that search's best (then their values agree)."""
        e = self.evals[index]
        if e is not None:
            return e
        if index == len(self.history) - 1 and self.thinking.rid is not None and self.thinking.value is not None \
                and self.thinking_at == index:
            return self._evaluation(self.history[index], self.thinking.value, None, self.thinking.top, "ai")
        if index > 0:
            prev = self.evals[index - 1]
            action = self.history[index].moves[-1] if self.history[index].moves else None
            if prev is not None and prev.best is not None and prev.best == action:
                return prev
        return None

    @property
    def value0(self) -> float | None:
        """Player 0's expected result in the viewed position (-1..1), or None when unknown."""
        e = self.evaluation_at(self.view_index)
        return None if e is None else e.value0

    @property
    def proven0(self) -> float | None:
        e = self.evaluation_at(self.view_index)
        return None if e is None else e.proven0

    @property
    def readout(self):
        """The exact readout of the viewed position once worked out (`gui.readouts`): a solved
        win's or loss's distance, othello's final disc margin; None otherwise."""
        viewed = self.viewed
        return None if viewed.is_terminal() else self.readouts.get(viewed)

    def graph_values(self) -> list[float | None]:
        """Player 0's win rate (0..1) after each move 0..n, None where nothing is known yet."""
        out = []
        for i in range(len(self.history)):
            e = self.evaluation_at(i)
            out.append(None if e is None else e.winrate(0))
        return out

    def qualities(self) -> list[dict]:
        """Each move's loss and quality (see `gui.review.move_qualities`), from the grades."""
        return move_qualities(self.history, self.grades)

    def analysis_progress(self) -> tuple[int, int]:
        """(positions judged, positions in the game)."""
        n = len(self.history)
        return sum(1 for i in range(n) if self.grades[i] is not None), n

    def set_evaluation(self, index: int, e: Evaluation) -> None:
        """Keep ``e`` as what is known of position ``index``, and as its grade when it is one
        (see the class docstring)."""
        self.evals[index] = e
        if e.source in ("analysis", "rules") or e.proven0 is not None:
            old = self.grades[index]
            if old is None or old.proven0 is None or e.proven0 is not None:
                self.grades[index] = e

    @staticmethod
    def _evaluation(state, value, proven, top, source) -> Evaluation | None:
        try:
            v = max(-1.0, min(1.0, float(value)))
        except (TypeError, ValueError):
            return None
        sign = 1.0 if state.current_player == 0 else -1.0
        try:
            p = None if proven is None else sign * max(-1.0, min(1.0, float(proven)))
        except (TypeError, ValueError):
            p = None
        best = None
        if top:
            try:
                best = int(top[0].get("action"))
            except (AttributeError, TypeError, ValueError):
                best = None
        sims = sum(int(m.get("visits", 0)) for m in top or [] if isinstance(m, dict))
        return Evaluation(sign * v, p, best, sims, source)

    def _record(self, asked_state, msg: dict, source: str) -> None:
        """Keep a search's verdict on ``asked_state`` when it is still in the history."""
        index = self._index_of(asked_state)
        if index is None:
            return
        e = self._evaluation(asked_state, msg.get("value"), msg.get("proven"), msg.get("top"), source)
        if e is None:
            return
        old = self.evals[index]
        if old is not None and old.proven0 is not None and e.proven0 is None:
            if source == "analysis" and self.grades[index] is None:
                self.grades[index] = e
            return  # a proof is exact: a smaller search that did not prove it must not replace it
        if old is None or old.source != "ai" or source == "ai" or e.sims > old.sims or e.proven0 is not None:
            self.set_evaluation(index, e)
        elif source == "analysis" and self.grades[index] is None:
            self.grades[index] = e

    def _index_of(self, state) -> int | None:
        i = len(state.moves) - len(self.history[0].moves)
        if 0 <= i < len(self.history) and self.history[i] is state:
            return i
        return None

    def _set_value(self, state, value, proven=None) -> None:
        """Record a search's live value on ``state`` (kept for the tests' old interface)."""
        index = self._index_of(state)
        if index is not None:
            e = self._evaluation(state, value, proven, None, "ai")
            if e is not None:
                self.set_evaluation(index, e)

    # --- AI -------------------------------------------------------------------
    def _ask_ai(self, level: str) -> None:
        self.cancel_analysis()
        state = self.state
        self.thinking = Thinking(started=time.monotonic())
        self.thinking_at = len(self.history) - 1
        self.error = ""
        self._asked_at = self.thinking.started
        self.thinking.rid = self.ai.search(state, level, self.model_path_for(self.game), self.session,
                                           lambda msg, s=state: self._on_ai(msg, s), **self._clock_request(state))
        if self.thinking.rid is None and not self.error:
            self.error = self.ai.message or "the AI is not available"

    def _on_ai(self, msg: dict, asked_state) -> None:
        if msg.get("id") != self.thinking.rid and msg.get("id") is not None:
            return
        kind = msg.get("type")
        if kind == "progress":
            self.thinking.fraction = max(0.0, min(1.0, float(msg.get("fraction", 0.0))))
            self.thinking.top = msg.get("top") or []
            self.thinking.value = msg.get("value")
            self.thinking.sims = msg.get("sims", 0)
        elif kind == "result":
            self.thinking.rid = None
            action = msg.get("action")
            if asked_state is not self.state or action not in asked_state.legal_actions():
                if asked_state is self.state:
                    self.error = f"the AI chose an illegal move ({action})"
                return
            if self.clock is not None:   # the AI's move is made when its answer arrives
                now = time.monotonic()
                self.clock.stop(now)
                try:
                    lag = now - self._asked_at - float(msg["planned"])
                    if 0 <= lag < 30:
                        self.ai_lags = (self.ai_lags + [lag])[-8:]
                except (KeyError, TypeError, ValueError):
                    pass
            self._record(asked_state, msg, "ai")
            self.thinking.top = msg.get("top") or self.thinking.top
            wait = max(0.0, self.thinking.started + AI_MIN_SHOW_SECONDS - time.monotonic())
            self.pending_move = (action, time.monotonic() + wait)
        elif kind == "error":
            self.thinking.rid = None
            self.error = msg.get("message") or "the AI failed"
        elif kind == "cancelled":
            self.thinking.rid = None

    # --- clocks -----------------------------------------------------------------
    def set_time_control(self, control) -> None:
        """Play under ``control`` (an `engine.play.clock.TimeControl`; None or an untimed one:
        no clocks), with both clocks full."""
        from engine.play.clock import GameClock
        self.clock = GameClock(control) if control is not None and control.timed else None
        self.time_loss = None
        self.clocks = [self.clock.snapshot() if self.clock is not None else None] * len(self.history)

    def prepare_ai(self, level: str) -> None:
        """Have the AI process load what its searches at ``level`` need while the game opens: a
        model's first use on a machine times its runtimes (several seconds, once), which the
        person's first move then hides. With clocks the AI's clock waits for it (`ai_prepared`);
        without, a search asked meanwhile simply queues behind the loading."""
        self.ai.cancel(self._prepare_rid)
        self.ai_prepared = self.clock is None

        def done(msg):
            if msg.get("type") in ("prepared", "error", "cancelled"):
                self.ai_prepared = True
                self._prepare_rid = None
        self._prepare_rid = self.ai.prepare(self.state, level, self.model_path_for(self.game), self.session, done)
        if self._prepare_rid is None:
            self.ai_prepared = True

    def _clock_request(self, state) -> dict:
        """The ``clock`` of an AI request for a move in ``state`` (see `gui.ai_worker`), or {}."""
        clock = self.clock
        if clock is None:
            return {}
        from engine.play.clock import moves_to_go
        c = clock.control
        player = state.current_player
        now = time.monotonic()
        left, periods = clock.left[player], clock.periods_left[player]
        if clock.running == player:
            left = max(0.0, left - clock.elapsed(now))
        from engine.play.clock import BUDGET_LAG
        return {"clock": {"remaining": left, "increment": c.increment, "periods": periods if c.period else 0,
                          "period": c.period, "moves": moves_to_go(self.game, len(state.moves)),
                          "lag": max([BUDGET_LAG] + self.ai_lags[-8:])}}

    def tick_clock(self, now: float | None = None) -> None:
        """Run the clock of the side to move while the game goes on and is looked at (stopped
        while it is over, an earlier position is viewed, the AI's answer waits to be shown, or
        the clocks are paused); a side out of time loses."""
        clock = self.clock
        if clock is None:
            return
        now = time.monotonic() if now is None else now
        waiting = self.pending_move is not None and self.thinking.rid is None
        loading = not self.ai_prepared and self.ai_side(self.state.current_player)
        if self.over or self.reviewing or self.waiting or self.clock_paused or self.error or waiting or loading:
            clock.stop(now)
        else:
            clock.start(self.state.current_player, now)
        flagged = clock.check_flag(now)
        if flagged is not None and self.time_loss is None and not self.over:
            self._lose_on_time(flagged)

    def ai_side(self, player: int) -> bool:
        """Whether the AI plays ``player`` (every side in a demo)."""
        return getattr(self, "human", None) != player

    def _lose_on_time(self, player: int) -> None:
        self.cancel_ai()
        self.cancel_analysis()
        self.time_loss = player
        self.events.append({"type": "end", "winner": 1 - player, "time": True})

    def clock_meta(self, main_line: bool = False) -> dict:
        """The control and the clocks as a record's meta (``time_control``, ``clocks``; see
        `games.records.base`), {} without a clock: of the game's line (`game_line`, the
        autosave's), or with ``main_line`` of the tree's main line (a record's moves)."""
        clock = self.clock
        if clock is None:
            return {}
        from games.records.base import pack_clocks
        byo = clock.control.kind == "byoyomi"
        entries = {}
        self._sync()   # each node of the line on the board holds its recorded clocks
        line = self.tree.main_line() if main_line else self.game_line()
        states, snaps = [n.state for n in line], [n.data.get("clock") for n in line]
        for i in range(1, len(states)):
            snap = snaps[i] if i < len(snaps) else None
            if snap is None:
                continue
            mover = states[i - 1].current_player
            entries[len(states[i].moves)] = (snap[mover], snap[2 + mover] if byo else None)
        return {"time_control": clock.control.text(), "clocks": pack_clocks(entries)}

    def recorded_clock(self, index: int):
        """The clocks recorded when position ``index`` of the line on the board was reached, or
        at the nearest position before it that has them (a variation read from a record has
        none of its own); None when no position has."""
        for k in range(min(index, len(self.clocks) - 1), -1, -1):
            if self.clocks[k] is not None:
                return self.clocks[k]
        return None

    def _show_line(self, nodes, index: int) -> None:
        """`gui.variations.GameTreeLines._show_line` with the clocks. A line opened from the move
        list is looked at with the clocks stopped (``waiting``), showing the times recorded at
        its last move: playing on from it is a take-back to there. Going back to the line the
        game is in (``clock_node``) finds the clocks as they were left, and the game goes on.
        Each line's end keeps its loss on time (`gui.variations.OFF_BOARD_ENDS`)."""
        end = self._sync()[-1]
        if self.clock is not None and end is self.clock_node:
            self.clock.stop(time.monotonic())
            self._clock_left = self.clock.snapshot()
        super()._show_line(nodes, index)
        self.clocks = [n.data.get("clock") for n in nodes]
        back = nodes[-1] is self.clock_node
        if back:
            self.waiting = False   # not a line looked at: the game itself goes on
        if self.clock is not None:
            snap = self._clock_left if back and self._clock_left is not None else \
                self.recorded_clock(len(nodes) - 1)
            if snap is not None:
                self.clock.restore(snap)
            if self.time_loss is not None:
                self.clock.flagged = self.time_loss

    def load_clocks(self, meta: dict) -> bool:
        """Take a record's time control and clocks (meta ``time_control``, ``clocks``): the clocks
        go on from each side's last recorded time; False (nothing changed) when it has none."""
        from engine.play.clock import GameClock, parse_control
        from games.records.base import unpack_clocks
        control = parse_control(meta.get("time_control")) if meta.get("time_control") else None
        if control is None or not control.timed:
            return False
        self.clock = GameClock(control)
        entries = unpack_clocks(meta.get("clocks", ""))
        base = len(self.history[0].moves)
        snap = list(self.clock.snapshot())
        self.clocks = [tuple(snap)]
        for i in range(1, len(self.history)):
            mover = self.history[i - 1].current_player
            if base + i in entries:
                seconds, periods = entries[base + i]
                snap[mover] = min(seconds, 2 * 86400.0)
                if periods is not None:
                    snap[2 + mover] = periods
            self.clocks.append(tuple(snap))
        self.clock.restore(self.clocks[-1])
        won = str(meta.get("result", ""))
        if won.endswith(" (time)") and won.split(" ")[0] in ("first", "second") and not self.state.is_terminal():
            self.time_loss = 1 if won.startswith("first") else 0
            self.clock.flagged = self.time_loss
        return True

    def cancel_ai(self) -> None:
        self.ai.cancel(self.thinking.rid)
        self.thinking = Thinking()
        self.pending_move = None

    @property
    def ai_thinking(self) -> bool:
        return self.thinking.rid is not None or self.pending_move is not None

    def _apply_pending(self) -> bool:
        if self.pending_move and time.monotonic() >= self.pending_move[1]:
            action = self.pending_move[0]
            self.pending_move = None
            if action in self.state.legal_actions():
                self._push(action, by_ai=True)
                return True
        return False

    # --- background analysis ----------------------------------------------------------
    @property
    def analysing(self) -> bool:
        """A background analysis search is running."""
        return self.analysis.rid is not None

    def _analysis_target(self) -> Node | int | None:
        """The position to analyse next: during "Analyse game" the next node of the line it
        analyses, from the start (wherever the board is meanwhile); else the history index of
        the viewed one first, then the newest unknown."""
        full = self.full_analysis
        if full is not None:
            todo = full["todo"]
            while todo and (todo[0].state.is_terminal() or self.tree.path_to(todo[0])[0] is not self.tree.root):
                todo.pop(0)   # a finished position, or one deleted meanwhile
            if full["todo"]:
                return full["todo"][0]
            self.full_analysis = None
            self.notices.append(("play.analysis_done", {}))
        order = [self.view_index] + list(range(len(self.history) - 1, -1, -1))
        for i in order:
            if self.grades[i] is None and not self.history[i].is_terminal():
                return i
        return None

    def update_analysis(self, ai_idle: bool) -> None:
        """Start the next analysis search when the AI has nothing else to do."""
        if not self.analysis_on or not ai_idle or self.analysis.rid is not None or self.error:
            return
        if self.ai.status not in ("ready",):
            if self.full_analysis is not None and self.ai.status == "stopped":
                self.ai.start()   # "Analyse game" was asked for: the AI starts for it
            elif self.full_analysis is not None and self.ai.status == "disabled":
                self.full_analysis = None
                self.notices.append(("play.analysis_failed", {"message": self.ai.message or "–"}))
            return
        target = self._analysis_target()
        if target is None:
            return
        state = target.state if isinstance(target, Node) else self.history[target]
        i = self._index_of(state)
        full = self.full_analysis
        level = full["level"] if full is not None else self.ANALYSIS_LEVEL
        self.analysis = Thinking(started=time.monotonic())
        self.analysis_at = i
        self.analysis.rid = self.ai.search(state, level, self.model_path_for(self.game),
                                           f"{self.session}-analysis-{level}-{len(state.moves)}",
                                           lambda msg, s=state: self._on_analysis(msg, s))

    def _on_analysis(self, msg: dict, asked_state) -> None:
        kind = msg.get("type")
        if kind == "progress":
            self.analysis.fraction = max(0.0, min(1.0, float(msg.get("fraction", 0.0) or 0.0)))
        if kind == "result":
            self._record(asked_state, msg, "analysis")
            full = self.full_analysis
            if full is not None and full["todo"] and full["todo"][0].state is asked_state:
                node = full["todo"].pop(0)
                index = self._index_of(asked_state)   # None: another line is on the board meanwhile
                e = self._evaluation(asked_state, msg.get("value"), msg.get("proven"), msg.get("top"), "analysis")
                old = self.grades[index] if index is not None else node.data.get("grade")
                if e is not None and not (old is not None and old.proven0 is not None and e.proven0 is None):
                    if index is not None:
                        self.grades[index] = e   # the chosen level's verdict replaces the background one
                    else:
                        node.data["grade"] = e
                        if node.data.get("eval") is None:
                            node.data["eval"] = e
        if kind in ("result", "error", "cancelled"):
            self.analysis = Thinking()
            self.analysis_at = None
            if kind == "error":  # not worth a message: analysis is a bonus; stop until the game changes
                self.analysis_on = False
                if self.full_analysis is not None:   # unless it was asked for
                    self.full_analysis = None
                    self.notices.append(("play.analysis_failed", {"message": msg.get("message", "")}))

    # --- "Analyse game" -------------------------------------------------------------------
    def analyse_game(self, level: str) -> None:
        """Analyse every position of the line on the board at ``level`` (a fresh search each,
        from the start), replacing the background analysis' verdicts, also while another line is
        looked at meanwhile; `full_progress` says how far it is."""
        self.cancel_analysis()
        todo = [n for n in self._sync() if not n.state.is_terminal()]
        self.full_analysis = {"level": level, "todo": todo, "total": len(todo)}
        self.analysis_level = level
        self.analysis_on = True

    def cancel_full_analysis(self) -> bool:
        """Stop "Analyse game" (what it found so far is kept); False when none was running."""
        if self.full_analysis is None:
            return False
        self.full_analysis = None
        self.cancel_analysis()
        return True

    def full_progress(self) -> tuple[int, int, float]:
        """(positions done, positions in all, the current search's fraction) of "Analyse game"."""
        full = self.full_analysis
        if full is None:
            return 0, 0, 0.0
        return full["total"] - len(full["todo"]), full["total"], self.analysis.fraction

    def analysis_meta(self) -> dict:
        """The grades from analyses and proofs as a record's meta (``analysis``, and
        ``analysis_level`` when "Analyse game" chose one; see `games.records.base`)."""
        from games.records.base import pack_analysis
        entries = {}
        self._sync()
        for node in self.tree.main_line():   # the record's moves are the main line
            state, e = node.state, node.data.get("grade")
            if e is None or e.source == "rules" or (e.source != "analysis" and e.proven0 is None):
                continue
            fields = {"v": repr(float(e.value0)), "n": str(int(e.sims))}
            if e.best is not None:
                try:
                    fields["best"] = state.action_to_text(e.best)
                except Exception:
                    pass
            if e.proven0 is not None:
                fields["proven"] = str(int(e.proven0))
            entries[len(state.moves)] = fields
        packed = pack_analysis(entries)
        out = {"analysis": packed} if packed else {}
        if packed and getattr(self, "analysis_level", ""):
            out["analysis_level"] = self.analysis_level
        return out

    def load_analysis(self, meta: dict) -> int:
        """Take a record's stored analysis (meta ``analysis``) as the grades of its positions,
        so a game analysed before is judged again without searching; returns how many."""
        from games.base import NotationError
        from games.records.base import unpack_analysis
        entries = unpack_analysis(meta.get("analysis", ""))
        base = len(self.history[0].moves)
        n = 0
        for ply, fields in entries.items():
            i = ply - base
            if not 0 <= i < len(self.history) or self.history[i].is_terminal():
                continue
            state = self.history[i]
            best = None
            if "best" in fields:
                try:
                    best = state.parse_action(fields["best"])
                except (NotationError, ValueError):
                    best = None
            proven = float(fields["proven"]) if "proven" in fields else None
            e = Evaluation(float(fields["v"]), proven, best, int(fields.get("n", 0)), "analysis")
            self.grades[i] = e
            if self.evals[i] is None:
                self.evals[i] = e
            n += 1
        level = meta.get("analysis_level", "")
        if n and isinstance(level, str) and level.isalpha():
            self.analysis_level = level
        return n

    def cancel_analysis(self) -> None:
        self.ai.cancel(self.analysis.rid)
        self.analysis = Thinking()
        self.analysis_at = None

    def retry(self) -> None:
        """After an AI error: clear it so the next update asks again."""
        self.error = ""

    def close(self) -> None:
        """Nothing searches for this game any more (its scene was left, perhaps for the board
        editor, which comes back to it): no clock runs either, nobody's time goes by unseen."""
        self.cancel_ai()
        self.cancel_analysis()
        if self.clock is not None:
            self.clock.stop(time.monotonic())
