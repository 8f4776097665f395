"""A gomoku game against the AI that starts with a swap opening, Swap2 or plain swap
(`games.swap2`; the names say Swap2, the code serves both rules).

`Swap2PlayController` is a `PlayController` whose first stones and colours are settled by the
exchange: the person holds a *seat* (0: the first player, who places the first three stones;
1: the second player) instead of a colour until the colours are chosen. On the person's part
the board's clicks place the stones and `choose` takes a choice (the play scene's buttons);
on the AI's part its decisions (`engine.play.swap2`) are judged by the AI process's searches,
one position at a time: a decision is worked out again from the searches' verdicts so far, and
the first position it lacks is searched next (so the window never waits for the AI).

Clocks (a game with a time control): the exchange is untimed. Its stones press no clock and
earn no increment, the AI's judgements are searched without a clock, and the clocks start once
the colours are settled, with the side to move's (white's fourth or sixth stone, whoever plays
it: the AI then searches that stone on its clock rather than taking it from its judgement).
"""
from __future__ import annotations

import random
import time

from engine.play import swap2 as decide
from games.swap2 import CHOOSE3, CHOOSE5, PLACE3, PLAYING, RULES, Swap2
from gui.controller import LEVELS, PlayController, Thinking


class _NeedVerdict(Exception):
    def __init__(self, state):
        super().__init__("a position to judge")
        self.state = state


class Swap2PlayController(PlayController):
    """A person against the AI, opened with ``rule`` ("swap2" or "swap1"); ``seat`` 0 makes the
    person the first player; ``time_control`` as `PlayController`'s (the clocks start when the
    colours are settled)."""

    #: the most the AI spends judging each candidate opening (it judges several)
    PROPOSE_LEVEL = "medium"

    @property
    def moved_first(self) -> bool | None:
        """None: the swap settled the colours to even the game (the rating weighs no side)."""
        return None

    def __init__(self, ai, game, seat: int, level: str, model_path_for=None, hints_on: bool = False,
                 side_choice: str | None = None, seed: int | None = None, rule: str = "swap2",
                 time_control=None):
        super().__init__(ai, game, 0, level, model_path_for, hints_on, side_choice, time_control)
        self.rule = rule if rule in RULES else "swap2"
        self.seat = 1 if seat == 1 else 0
        self.seed = random.randrange(1 << 30) if seed is None else seed
        self._begin()

    def _begin(self) -> None:
        self.opening = Swap2.start(self.game, self.rule)
        self.verdicts: dict[tuple, decide.Verdict] = {}
        self.judging = None   # the state the AI process is judging
        self._sync_human()

    # --- where the exchange stands ----------------------------------------------------
    @property
    def in_opening(self) -> bool:
        return self.opening.stage != PLAYING

    @property
    def person_choices(self) -> tuple[str, ...]:
        """The choices the person is asked for now (none when it is not theirs)."""
        op = self.opening
        if op.choosing and op.chooser == self.seat and not self.error:
            return op.allowed
        return ()

    @property
    def person_places(self) -> bool:
        """The person places opening stones now (clicks on the board)."""
        return self.opening.placing and self.opening.chooser == self.seat

    def _sync_human(self) -> None:
        """``human`` (the colour the person moves) from the seat: once chosen, the seat's colour;
        while the person places stones, the colour of the next stone; otherwise the other one."""
        op = self.opening
        if op.stage == PLAYING:
            self.human = 0 if op.black_seat == self.seat else 1
        else:
            colour = self.state.current_player
            self.human = colour if self.person_places else 1 - colour

    def analysis_meta(self) -> dict:
        """As a plain game's, with the opening once a choice is made (records keep it:
        ``swap2 two black``, ``swap1 white``)."""
        out = dict(super().analysis_meta())
        if self.opening.choices:
            out["opening"] = self.opening.summary()
        return out

    # --- the person's part --------------------------------------------------------------
    def play(self, action: int) -> bool:
        if not self.in_opening:
            return super().play(action)
        if self.reviewing or not self.person_places or action not in self.state.legal_actions():
            return False
        self.opening.place(action)
        self._push(action, by_ai=False, timed=False)
        self._sync_human()
        return True

    def choose(self, choice: str) -> bool:
        """The person's choice (``white``, ``black`` or ``two``); False when it is not theirs now."""
        if choice not in self.person_choices:
            return False
        self.opening.choose(choice)
        self._sync_human()
        self.events.append({"type": "opening", "choice": choice, "by_ai": False})
        return True

    def play_from_view(self, action: int) -> bool:
        if self.in_opening or self.view_index < self.opening.opening_stones:
            return False   # the opening's stones are settled by the exchange, not replayed
        return super().play_from_view(action)

    def undo(self) -> bool:
        """As a plain game's, never back into the opening."""
        floor = self.opening.opening_stones
        if self.in_opening or not any(i >= floor and self.history[i].current_player == self.human
                                      and not self.history[i].is_terminal()
                                      for i in range(len(self.history) - 1)):
            return False
        return super().undo()

    def load(self, state, setup: int = 0) -> None:
        """A loaded position is played on as a plain game: no exchange, the person's colour kept."""
        super().load(state, setup)
        self.cancel_ai()
        self.opening = Swap2(self.state, PLAYING, self.seat if self.human == 0 else 1 - self.seat, rule=self.rule)
        self.verdicts, self.judging = {}, None

    def new_game(self, human: int | None = None) -> None:
        """A new exchange; ``human`` (0 or 1) is the person's seat this time."""
        super().new_game()
        if human is not None:
            self.seat = 1 if human == 1 else 0
        self.seed = random.randrange(1 << 30)
        self._begin()

    # --- the AI's part ------------------------------------------------------------------
    def update(self) -> None:
        if not self.in_opening:
            super().update()
            return
        self.tick_clock()
        if self.error or self.opening.chooser == self.seat or self.judging is not None:
            return
        try:
            kind, actions = self._decision()
        except _NeedVerdict as need:
            self._judge(need.state)
            return
        self._apply(kind, actions)

    def _verdict(self, state) -> decide.Verdict:
        found = self.verdicts.get(tuple(state.moves))
        if found is None:
            raise _NeedVerdict(state)
        return found

    def _decision(self) -> tuple[str, list[int]]:
        op = self.opening
        if op.stage == PLACE3:
            actions, _ = decide.propose_opening(self.game, self._verdict, random.Random(self.seed))
            return "place", actions
        if op.stage == CHOOSE3:
            return decide.choose_after_three(op.state, self._verdict, self.rule)
        if op.stage == CHOOSE5:
            return decide.choose_after_five(op.state, self._verdict)
        raise RuntimeError(f"no AI decision at the {op.stage} stage")   # PLACE2 is placed with its choice

    def _level(self) -> str:
        if self.opening.stage != PLACE3:
            return self.level
        cap = LEVELS.index(self.PROPOSE_LEVEL)
        return self.level if self.level in LEVELS and LEVELS.index(self.level) <= cap else self.PROPOSE_LEVEL

    def _judge(self, state) -> None:
        self.cancel_analysis()
        self.judging = state
        self.thinking = Thinking(started=time.monotonic())
        rid = self.ai.search(state, self._level(), self.model_path_for(self.game), self.session,
                             lambda msg, s=state: self._on_judged(msg, s))
        self.thinking.rid = rid
        if rid is None:
            self.judging = None
            self.error = self.ai.message or "the AI is not available"

    def _on_judged(self, msg: dict, state) -> None:
        if state is not self.judging:
            return
        kind = msg.get("type")
        if kind == "progress":
            self.thinking.fraction = max(0.0, min(1.0, float(msg.get("fraction", 0.0))))
            return
        if kind == "result":
            try:
                top = [(int(m["action"]), float(m["q"])) for m in msg.get("top") or []
                       if isinstance(m, dict) and m.get("visits", 0) > 0]
                value = msg.get("proven") if msg.get("proven") is not None else msg.get("value")
                action = msg.get("action")
                self.verdicts[tuple(state.moves)] = decide.Verdict(
                    max(-1.0, min(1.0, float(value))), int(action) if action is not None else None, top)
            except (KeyError, TypeError, ValueError):
                self.error = "the AI's judgement of the opening could not be read"
        elif kind == "error":
            self.error = msg.get("message") or "the AI failed"
        if kind in ("result", "error", "cancelled"):
            self.judging = None
            self.thinking.rid = None
            self.thinking.fraction = 0.0

    def _apply(self, kind: str, actions: list[int]) -> None:
        op = self.opening
        if kind != "place":
            op.choose(kind)
            self.events.append({"type": "opening", "choice": kind, "by_ai": True})
            self.notices.append((f"swap2.ai_{kind}", {}))
        for action in actions:
            if op.placing:
                op.place(action)
            elif self.clock is not None:
                break   # the colours are settled: the AI's next stone is searched on its clock
            self._push(action, by_ai=True, timed=False)
        self._sync_human()

    def tick_clock(self, now: float | None = None) -> None:
        """As a plain game's once the colours are settled; no clock runs during the exchange."""
        if self.in_opening:
            if self.clock is not None:
                self.clock.stop(time.monotonic() if now is None else now)
            return
        super().tick_clock(now)

    def cancel_ai(self) -> None:
        super().cancel_ai()
        self.judging = None
