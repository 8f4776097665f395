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
    """A game's history plus the AI requests made on it; base of the play and demo controllers."""

    def __init__(self, ai: AIClient, game, model_path_for=None):
        self.ai = ai
        self.game = game
        self.history = [game.initial_state()]
        self.model_path_for = model_path_for or (lambda game: None)
        self.thinking = Thinking()
        self.pending_move: tuple[int, float] | None = None  # (action, not before)
        self.value0: float | None = None  # the last evaluation, for player 0 (-1..1)
        self.proven0: float | None = None  # the search's proof of the result for player 0 (+1, 0, -1), or None
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
        moves = self.state.moves
        return moves[-1] if moves else None

    def before_last(self):
        """The position before the last move, when the history has it."""
        return self.history[-2] if len(self.history) > 1 else None

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
        self.history.append(after)
        self.events.append({"type": "move", "before": before, "after": after, "action": action,
                            "player": before.current_player, "by_ai": by_ai})
        if after.is_terminal():
            self.events.append({"type": "end", "winner": after.winner()})

    # --- AI -------------------------------------------------------------------
    def _ask_ai(self, level: str) -> None:
        state = self.state
        self.thinking = Thinking(started=time.monotonic())
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
            self._set_value(asked_state, msg.get("value"), msg.get("proven"))
        elif kind == "result":
            self.thinking.rid = None
            action = msg.get("action")
            if asked_state is not self.state or action not in asked_state.legal_actions():
                if asked_state is self.state:
                    self.error = f"the AI chose an illegal move ({action})"
                return
            self._set_value(asked_state, msg.get("value"), msg.get("proven"))
            self.thinking.top = msg.get("top") or self.thinking.top
            wait = max(0.0, self.thinking.started + AI_MIN_SHOW_SECONDS - time.monotonic())
            self.pending_move = (action, time.monotonic() + wait)
        elif kind == "error":
            self.thinking.rid = None
            self.error = msg.get("message") or "the AI failed"
        elif kind == "cancelled":
            self.thinking.rid = None

    def _set_value(self, state, value, proven=None) -> None:
        if value is None:
            return
        try:
            v = max(-1.0, min(1.0, float(value)))
        except (TypeError, ValueError):
            return
        sign = 1.0 if state.current_player == 0 else -1.0
        self.value0 = sign * v
        try:
            self.proven0 = None if proven is None else sign * max(-1.0, min(1.0, float(proven)))
        except (TypeError, ValueError):
            self.proven0 = None

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

    def retry(self) -> None:
        """After an AI error: clear it so the next update asks again."""
        self.error = ""

    def close(self) -> None:
        self.cancel_ai()


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
        self.hint_for = None  # the state the hint belongs to
        self.selection = None  # a renderer's partial move (xiangqi's picked-up piece)

    @property
    def human_to_move(self) -> bool:
        return not self.over and self.state.current_player == self.human

    def update(self) -> None:
        if self._apply_pending():
            self.selection = None
        if self.over or self.error:
            return
        if self.state.current_player != self.human:
            if self.thinking.rid is None and self.pending_move is None:
                self._ask_ai(self.level)
        elif self.hints_on and self.hint_for is not self.state and self.hint.rid is None:
            self._ask_hint()

    # --- the person's input --------------------------------------------------
    def play(self, action: int) -> bool:
        """The person's move; returns False (and changes nothing) when it is not legal now."""
        if not self.human_to_move or action not in self.state.legal_actions():
            return False
        self._cancel_hint()
        self._push(action, by_ai=False)
        self.selection = None
        return True

    def undo(self) -> bool:
        """Back to the person's previous turn (before their last move); False when there is none."""
        target = None
        for i in range(len(self.history) - 2, -1, -1):
            if self.history[i].current_player == self.human and not self.history[i].is_terminal():
                target = i
                break
        if target is None:
            return False
        self.cancel_ai()
        self._cancel_hint()
        del self.history[target + 1:]
        self.resigned_by = None
        self.error = ""
        self.selection = None
        self.session = self._new_session()  # the AI's tree no longer matches the game
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

    def new_game(self, human: int | None = None) -> None:
        self.cancel_ai()
        self._cancel_hint()
        if human is not None:
            self.human = human
        self.history = [self.game.initial_state()]
        self.resigned_by = None
        self.value0 = None
        self.proven0 = None
        self.error = ""
        self.selection = None
        self.session = self._new_session()
        self.events.append({"type": "new"})

    def load(self, state) -> None:
        """Continue from a loaded position (the game must be this controller's game)."""
        from gui.records import history_of
        self.cancel_ai()
        self._cancel_hint()
        self.history = history_of(state)
        self.resigned_by = None
        self.value0 = None
        self.proven0 = None
        self.error = ""
        self.selection = None
        self.session = self._new_session()
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
                                       lambda msg, s=state: self._on_hint(msg, s))

    def _on_hint(self, msg: dict, asked_state) -> None:
        if asked_state is not self.state:
            return
        kind = msg.get("type")
        if kind in ("progress", "result"):
            self.hint.top = msg.get("top") or self.hint.top
            self.hint.fraction = 1.0 if kind == "result" else float(msg.get("fraction", 0.0))
            self._set_value(asked_state, msg.get("value"), msg.get("proven"))
        if kind in ("result", "error", "cancelled"):
            self.hint.rid = None
        if kind == "error":
            self.notices.append(("play.hint_failed", {"message": msg.get("message", "")}))

    def _cancel_hint(self) -> None:
        self.ai.cancel(self.hint.rid)
        self.hint = Thinking()
        self.hint_for = None

    def hint_moves(self) -> list[dict]:
        """The hint's top moves with their share of the visits, when hints are on and current."""
        if not self.hints_on or self.hint_for is not self.state or not self.human_to_move:
            return []
        total = sum(m.get("visits", 0) for m in self.hint.top) or 1
        return [dict(m, share=m.get("visits", 0) / total) for m in self.hint.top[:5]]

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
        self.history = [self.game.initial_state()]
        self.value0 = None
        self.proven0 = None
        self.error = ""
        self.steps = 0
        self.session = self._new_session()
        self.next_move_at = time.monotonic() + 0.5
        self.events.append({"type": "new"})


def pick_side(choice: str, rng=random) -> int:
    """The person's player number for a side choice: first -> 0, second -> 1, random -> either."""
    if choice == "second":
        return 1
    if choice == "random":
        return rng.randrange(2)
    return 0
