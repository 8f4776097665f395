"""Controllers between the scenes and the engine.

`gui.ai_client.AIClient` owns the AI process and is polled once per frame without ever
blocking; the controllers here ask it for moves. `PlayController` (a person against the AI) and `DemoController` (AI
against AI) hold a game's history and decide when to ask the AI for a move; scenes only
draw them and forward clicks and keys to them.
"""
from __future__ import annotations

import itertools
import os
import random
import time
from dataclasses import dataclass, field

from gui.ai_client import AIClient
from gui.review import Evaluation, final_evaluation, move_qualities

# the engine's level names (engine.play.players.LEVELS); repeated here so the window's
# process never imports the engine's players (and torch) just to list them
LEVELS = ("beginner", "easy", "medium", "hard", "strong", "max")
DEFAULT_LEVEL = "strong"
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


class GameSession:
    """A game's history plus the AI requests made on it; base of the play and demo controllers.

    ``history[i]`` is the position after i moves and ``evals[i]`` what a search found out
    about it (or None). The person may look at any earlier position (``cursor``) while the
    game goes on; ``cursor`` None means the view follows the newest position.
    """

    ANALYSIS_LEVEL = "medium"  # the background pass that evaluates positions no search has seen

    def __init__(self, ai: AIClient, game, model_path_for=None):
        self.ai = ai
        self.game = game
        self.history = [game.initial_state()]
        self.evals: list[Evaluation | None] = [None]
        self.cursor: int | None = None
        self.redo_stack: list[tuple] = []  # (state, evaluation) taken back by undo, next first
        self.model_path_for = model_path_for or (lambda game: None)
        self.thinking = Thinking()
        self.thinking_at: int | None = None  # the history index the AI is searching
        self.pending_move: tuple[int, float] | None = None  # (action, not before)
        self.analysis_on = True
        self.analysis = Thinking()
        self.analysis_at: int | None = None
        self.error = ""
        self.notices: list[tuple[str, dict]] = []  # (i18n key, fields) for the scene to show
        self.events: list[dict] = []  # moves made, for sounds and animations
        self.resigned_by: int | None = None
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
        return self.resigned_by is not None or self.state.is_terminal()

    def winner(self) -> int | None:
        if self.resigned_by is not None:
            return 1 - self.resigned_by
        return self.state.winner()

    def end_reason(self) -> str | None:
        """Why the game ended, when the rules say (xiangqi's checkmate, repetition...)."""
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

    def _push(self, action: int, by_ai: bool) -> None:
        before = self.state
        after = before.apply(action)
        kept = None
        if self.redo_stack and self.redo_stack[0][0].moves[-1:] == (action,):
            kept = self.redo_stack.pop(0)[1]  # the same move again: what we knew of it still holds
        else:
            self.redo_stack = []
        self.history.append(after)
        self.evals.append(final_evaluation(after) or kept)
        self.events.append({"type": "move", "before": before, "after": after, "action": action,
                            "player": before.current_player, "by_ai": by_ai,
                            "shown": self.cursor is None})
        if after.is_terminal():
            self.events.append({"type": "end", "winner": after.winner()})

    def _reset_history(self, states) -> None:
        self.history = list(states)
        self.evals = [final_evaluation(s) for s in self.history]
        self.cursor = None
        self.redo_stack = []
        self.resigned_by = None
        self.error = ""
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
        return self.cursor is not None

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

    def moves_after_view(self) -> int:
        """How many moves of the game come after the viewed position (replaced by playing on from it)."""
        return len(self.history) - 1 - self.view_index

    def truncate_to_view(self) -> None:
        """Make the viewed position the newest: the later moves go to the redo stack."""
        i = self.view_index
        if i == len(self.history) - 1:
            self.cursor = None
            return
        self.cancel_ai()
        self.cancel_analysis()
        self.redo_stack = list(zip(self.history[i + 1:], self.evals[i + 1:])) + self.redo_stack
        del self.history[i + 1:]
        del self.evals[i + 1:]
        self.cursor = None
        self.resigned_by = None
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

    def graph_values(self) -> list[float | None]:
        """Player 0's win rate (0..1) after each move 0..n, None where nothing is known yet."""
        out = []
        for i in range(len(self.history)):
            e = self.evaluation_at(i)
            out.append(None if e is None else e.winrate(0))
        return out

    def qualities(self) -> list[dict]:
        """Each move's loss and quality (see `gui.review.move_qualities`)."""
        return move_qualities(self.history, self.evals)

    def analysis_progress(self) -> tuple[int, int]:
        """(positions evaluated, positions in the game)."""
        n = len(self.history)
        return sum(1 for i in range(n) if self.evals[i] is not None), n

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
        if old is None or old.source != "ai" or source == "ai" or e.sims > old.sims:
            self.evals[index] = e

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
                self.evals[index] = e

    # --- AI -------------------------------------------------------------------
    def _ask_ai(self, level: str) -> None:
        self.cancel_analysis()
        state = self.state
        self.thinking = Thinking(started=time.monotonic())
        self.thinking_at = len(self.history) - 1
        self.error = ""
        self.thinking.rid = self.ai.search(state, level, self.model_path_for(self.game), self.session,
                                           lambda msg, s=state: self._on_ai(msg, s))
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
            self._record(asked_state, msg, "ai")
            self.thinking.top = msg.get("top") or self.thinking.top
            wait = max(0.0, self.thinking.started + AI_MIN_SHOW_SECONDS - time.monotonic())
            self.pending_move = (action, time.monotonic() + wait)
        elif kind == "error":
            self.thinking.rid = None
            self.error = msg.get("message") or "the AI failed"
        elif kind == "cancelled":
            self.thinking.rid = None

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

    def _analysis_target(self) -> int | None:
        """The position to analyse next: the viewed one first, then the newest unknown."""
        order = [self.view_index] + list(range(len(self.history) - 1, -1, -1))
        for i in order:
            if self.evals[i] is None and not self.history[i].is_terminal():
                return i
        return None

    def update_analysis(self, ai_idle: bool) -> None:
        """Start the next analysis search when the AI has nothing else to do."""
        if not self.analysis_on or not ai_idle or self.analysis.rid is not None or self.error:
            return
        if self.ai.status not in ("ready",):
            return
        i = self._analysis_target()
        if i is None:
            return
        state = self.history[i]
        self.analysis = Thinking(started=time.monotonic())
        self.analysis_at = i
        self.analysis.rid = self.ai.search(state, self.ANALYSIS_LEVEL, self.model_path_for(self.game),
                                           f"{self.session}-analysis-{i}",
                                           lambda msg, s=state: self._on_analysis(msg, s))

    def _on_analysis(self, msg: dict, asked_state) -> None:
        kind = msg.get("type")
        if kind == "result":
            self._record(asked_state, msg, "analysis")
        if kind in ("result", "error", "cancelled"):
            self.analysis = Thinking()
            self.analysis_at = None
            if kind == "error":  # not worth a message: analysis is a bonus; stop until the game changes
                self.analysis_on = False

    def cancel_analysis(self) -> None:
        self.ai.cancel(self.analysis.rid)
        self.analysis = Thinking()
        self.analysis_at = None

    def retry(self) -> None:
        """After an AI error: clear it so the next update asks again."""
        self.error = ""

    def close(self) -> None:
        self.cancel_ai()
        self.cancel_analysis()


class PlayController(GameSession):
    """A person against the AI."""

    def __init__(self, ai: AIClient, game, human: int, level: str, model_path_for=None,
                 hints_on: bool = False, side_choice: str | None = None):
        super().__init__(ai, game, model_path_for)
        self.human = human
        self.side_choice = side_choice or ("first" if human == 0 else "second")  # for "new game"
        self.level = level
        self.hints_on = hints_on
        self.hint = Thinking()  # the last hint search on the person's turn
        self.hint_pv: dict[int, list[int]] = {}  # each hinted move's principal variation
        self.hint_policy: list[tuple[int, float]] = []  # the network's prior on every legal move
        self.show_policy = False
        self.hint_for = None  # the state the hint belongs to
        self.selection = None  # a renderer's partial move (xiangqi's picked-up piece)

    @property
    def human_to_move(self) -> bool:
        return not self.over and self.state.current_player == self.human

    @property
    def can_play_here(self) -> bool:
        """A click on the board may play a move: the person's turn in the newest position, or
        in an earlier one looked at (playing there replaces the later moves, after a confirmation)."""
        v = self.viewed
        if self.resigned_by is not None and not self.reviewing:
            return False
        return not v.is_terminal() and v.current_player == self.human and not self.pending_move

    def update(self) -> None:
        if self._apply_pending():
            self.selection = None
        if not self.error and not self.over:
            if self.state.current_player != self.human:
                if self.thinking.rid is None and self.pending_move is None:
                    self._ask_ai(self.level)
                return
            if self.hints_on and self.hint_for is not self.state and self.hint.rid is None:
                self._ask_hint()
        self.update_analysis(ai_idle=not self.ai_thinking and self.hint.rid is None)

    # --- the person's input --------------------------------------------------
    def play(self, action: int) -> bool:
        """The person's move in the newest position; returns False (and changes nothing) when
        it is not legal now. See `play_from_view` for a move in an earlier position."""
        if self.reviewing or not self.human_to_move or action not in self.state.legal_actions():
            return False
        self._cancel_hint()
        self.cancel_analysis()
        self._push(action, by_ai=False)
        self.selection = None
        return True

    def play_from_view(self, action: int) -> bool:
        """Play on from the viewed earlier position: the later moves are replaced (they stay
        on the redo stack until a different move is made). False when the move is not legal there."""
        v = self.viewed
        if v.is_terminal() or v.current_player != self.human or action not in v.legal_actions():
            return False
        self._cancel_hint()
        self.truncate_to_view()
        return self.play(action)

    def continue_from_view(self) -> bool:
        """Make the viewed position the game's newest one (the later moves are taken back)."""
        if not self.reviewing:
            return False
        self._cancel_hint()
        self.truncate_to_view()
        self.selection = None
        return True

    def undo(self) -> bool:
        """Back to the person's previous turn (before their last move); False when there is none.
        The moves taken back can be replayed with `redo`."""
        target = None
        for i in range(len(self.history) - 2, -1, -1):
            if self.history[i].current_player == self.human and not self.history[i].is_terminal():
                target = i
                break
        if target is None:
            return False
        self._cancel_hint()
        self.cursor = target
        self.truncate_to_view()
        self.selection = None
        return True

    def redo(self) -> bool:
        """Replay the moves taken back by `undo`, up to the person's next turn; False when none."""
        if not self.redo_stack:
            return False
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        self.cursor = None
        while self.redo_stack:
            state, evaluation = self.redo_stack.pop(0)
            self.history.append(state)
            self.evals.append(evaluation)
            if state.is_terminal() or state.current_player == self.human:
                break
        self.resigned_by = None
        self.error = ""
        self.selection = None
        self.session = self._new_session()
        self.events.append({"type": "undo"})
        return True

    def resign(self) -> bool:
        if self.over:
            return False
        self.cancel_ai()
        self._cancel_hint()
        self.resigned_by = self.human
        self.events.append({"type": "end", "winner": 1 - self.human, "resigned": True})
        return True

    @property
    def in_progress(self) -> bool:
        """The person has moved and the game is not over: leaving it would lose something."""
        return not self.over and any(
            s.current_player == self.human for s in self.history[:-1]) and len(self.history) > 1

    def new_game(self, human: int | None = None) -> None:
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        if human is not None:
            self.human = human
        self._reset_history([self.game.initial_state()])
        self.analysis_on = True
        self.selection = None
        self.events.append({"type": "new"})

    def load(self, state) -> None:
        """Continue from a loaded position (the game must be this controller's game)."""
        from gui.records import history_of
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        self._reset_history(history_of(state))
        self.analysis_on = True
        self.selection = None
        if not state.is_terminal() and state.current_player != self.human:
            self.human = state.current_player  # the person takes the side to move
        self.events.append({"type": "new"})

    # --- hints ------------------------------------------------------------------
    def toggle_hints(self) -> bool:
        self.hints_on = not self.hints_on
        if not self.hints_on:
            self._cancel_hint()
        return self.hints_on

    def _ask_hint(self) -> None:
        state = self.state
        self.hint = Thinking(started=time.monotonic())
        self.hint_for = state
        self.hint.rid = self.ai.search(state, self.level, self.model_path_for(self.game), self.session,
                                       lambda msg, s=state: self._on_hint(msg, s), extras=True)

    def _on_hint(self, msg: dict, asked_state) -> None:
        if asked_state is not self.state:
            return
        kind = msg.get("type")
        if kind in ("progress", "result"):
            self.hint.top = msg.get("top") or self.hint.top
            self.hint.fraction = 1.0 if kind == "result" else float(msg.get("fraction", 0.0))
            self.hint.value = msg.get("value", self.hint.value)
        if kind == "result":
            self._record(asked_state, msg, "hint")
            self.hint_pv = {int(k): list(v) for k, v in (msg.get("pv") or {}).items()}
            self.hint_policy = [(int(a), float(p)) for a, p in (msg.get("policy") or [])]
        if kind in ("result", "error", "cancelled"):
            self.hint.rid = None
        if kind == "error":
            self.notices.append(("play.hint_failed", {"message": msg.get("message", "")}))

    def _cancel_hint(self) -> None:
        self.ai.cancel(self.hint.rid)
        self.hint = Thinking()
        self.hint_for = None
        self.hint_pv = {}
        self.hint_policy = []

    def principal_variation(self, action: int) -> list:
        """The hinted move ``action`` and the line the search expects after it, as
        (state before, action) pairs from the current position; [] without a hint."""
        if not self.hint_moves():
            return []
        out = []
        state = self.state
        for a in [action] + self.hint_pv.get(action, []):
            if state.is_terminal() or a not in state.legal_actions():
                break
            out.append((state, a))
            state = state.apply(a)
        return out

    def policy_map(self) -> list[tuple[int, float]]:
        """The network's prior on each legal move, when the policy view is on and a hint is current."""
        if not self.show_policy or not self.hint_moves():
            return []
        return self.hint_policy

    def hint_moves(self) -> list[dict]:
        """The hint's top moves with their share of the visits and the win rate each keeps for
        the person (0..1), when hints are on and current."""
        if not self.hints_on or self.hint_for is not self.state or not self.human_to_move or self.reviewing:
            return []
        total = sum(m.get("visits", 0) for m in self.hint.top) or 1
        out = []
        for m in self.hint.top[:5]:
            try:
                win = (1 + max(-1.0, min(1.0, float(m.get("q", 0.0))))) / 2
            except (TypeError, ValueError):
                win = None
            out.append(dict(m, share=m.get("visits", 0) / total, winrate=win))
        return out

    def close(self) -> None:
        super().close()
        self._cancel_hint()


class DemoController(GameSession):
    """Two AIs playing each other, with pause, single step and a delay between moves."""

    SPEEDS = (2.0, 0.8, 0.25, 0.0)  # seconds between moves: slow, normal, fast, fastest

    def __init__(self, ai: AIClient, game, levels: tuple[str, str], model_path_for=None):
        super().__init__(ai, game, model_path_for)
        self.levels = list(levels)
        self.paused = False
        self.speed = 1
        self.steps = 0  # single steps granted while paused
        self.next_move_at = time.monotonic() + 0.5
        self.restart_at: float | None = None

    def update(self) -> None:
        now = time.monotonic()
        if self._apply_pending():
            self.next_move_at = now + self.SPEEDS[self.speed]
            if self.steps:
                self.steps -= 1
        if self.error:
            return
        if self.over:
            return
        if self.thinking.rid is None and self.pending_move is None:
            if (not self.paused or self.steps) and now >= self.next_move_at:
                self._ask_ai(self.levels[self.state.current_player])

    def toggle_pause(self) -> None:
        self.paused = not self.paused
        self.steps = 0

    def step(self) -> None:
        """One move while paused (pauses first if running)."""
        if not self.paused:
            self.paused = True
        if not self.over:
            self.steps = 1
            self.next_move_at = 0.0

    def set_speed(self, index: int) -> None:
        self.speed = max(0, min(len(self.SPEEDS) - 1, index))
        self.next_move_at = min(self.next_move_at, time.monotonic() + self.SPEEDS[self.speed])

    def restart(self) -> None:
        self.cancel_ai()
        self._reset_history([self.game.initial_state()])
        self.steps = 0
        self.next_move_at = time.monotonic() + 0.5
        self.events.append({"type": "new"})


def pick_side(choice: str, rng=random) -> int:
    """The person's player number for a side choice: first -> 0, second -> 1, random -> either."""
    if choice == "second":
        return 1
    if choice == "random":
        return rng.randrange(2)
    return 0
