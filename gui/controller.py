"""Controllers between the scenes and the engine.

`gui.ai_client.AIClient` owns the AI process and is polled once per frame without ever
blocking; the controllers here ask it for moves. `PlayController` (a person against the AI) and `DemoController` (AI
against AI) hold a game's history and decide when to ask the AI for a move; scenes only
draw them and forward clicks and keys to them.
"""
from __future__ import annotations

import random
import time

from gui.ai_client import AIClient
from gui.session import GameSession, Thinking  # noqa: F401 (Thinking: part of this module's interface)

# the engine's level names (engine.play.players.LEVELS); repeated here so the window's
# process never imports the engine's players (and torch) just to list them
LEVELS = ("beginner", "easy", "medium", "hard", "strong", "max")
DEFAULT_LEVEL = "strong"
#: a level choice, not a level: the level nearest the person's rating, chosen again each game
ADAPTIVE = "adaptive"
#: plies a game must have run before the AI agrees to a draw (no draws out of the opening, as
#: players' etiquette has it); a game that cannot last that long has no draw offers
DRAW_OFFER_PLIES = 20
#: the AI agrees to a draw when it expects no more than this from playing on (its expected result,
#: -1..1: 0.1 is a 55% share)
DRAW_ACCEPT_VALUE = 0.1
#: the searches "Analyse game" offers, the quickest first (Enter picks it): the study judge of the
#: background analysis (`GameSession.ANALYSIS_LEVEL`), then the strong and max levels
ANALYSE_LEVELS = ("analysis", "strong", "max")
#: the play levels whose search a hint takes as it is: they search at least the study judge's
#: visits in every game; below them a hint searches as the judge does
HINT_OWN_LEVELS = ("strong", "max")


class PlayController(GameSession):
    """A person against the AI."""

    def __init__(self, ai: AIClient, game, human: int, level: str, model_path_for=None,
                 hints_on: bool = False, side_choice: str | None = None, time_control=None):
        """``time_control``: an `engine.play.clock.TimeControl` (None: no clocks)."""
        super().__init__(ai, game, model_path_for)
        self.set_time_control(time_control)
        self.human = human
        self.side_choice = side_choice or ("first" if human == 0 else "second")  # for "new game"
        self.level = level
        self._prepared_for = None   # (session, level) the AI was last asked to prepare for
        #: the player's rating: this game was played from the start (not loaded or pasted), moves
        #: were taken back in it, it was counted (or the reason it was not, `rating_note`)
        self.from_start = True
        self.took_back = False
        self.rating_done = False
        self.rating_note = ""
        self.adaptive = False   # the level was chosen by the person's rating, and is chosen again each game
        #: the position of the person's draw offer the AI has yet to answer, and of the last one
        #: it declined (no second offer there: the person moves first)
        self.draw_offer = None
        self.draw_declined = None
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

    def _waits(self) -> bool:
        return self.waiting and not self.over and self.state.current_player != self.human

    @property
    def can_play_here(self) -> bool:
        """A click on the board may play a move: the person's turn in the newest position, or
        in an earlier one looked at (playing there replaces the later moves, after a confirmation)."""
        v = self.viewed
        if self.ended_off_board and not self.reviewing:
            return False
        return not v.is_terminal() and v.current_player == self.human and not self.pending_move

    def update(self) -> None:
        if self._apply_pending():
            self.selection = None
        self._answer_draw_offer()
        if self._prepared_for != (self.session, self.level):
            self._prepared_for = (self.session, self.level)
            self.prepare_ai(self.level)
        self.tick_clock()
        if not self.error and not self.over:
            if self.state.current_player != self.human:
                if not self.waiting:   # a line opened from the move list waits for the person
                    if self.thinking.rid is None and self.pending_move is None and self.ai_prepared:
                        self._ask_ai(self.level)
                    return
            elif self.hints_on and self.hint_for is not self.state and self.hint.rid is None:
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
        """Play on from the viewed earlier position: a new line, the main line from now on; the
        later moves stay in the tree as a variation (and for redo, when the move is the same).
        False when the move is not legal there."""
        v = self.viewed
        if v.is_terminal() or v.current_player != self.human or action not in v.legal_actions():
            return False
        self._cancel_hint()
        if self.moves_after_view():
            self.took_back = True
        self.truncate_to_view()
        return self.play(action)

    def continue_from_view(self) -> bool:
        """Make the viewed position the game's newest one (the later moves are taken back)."""
        if not self.reviewing:
            return False
        self._cancel_hint()
        self.took_back = True
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
        self.took_back = True
        return True

    def redo(self) -> bool:
        """Replay the moves taken back by `undo`, up to the person's next turn; False when none."""
        if not self.redo_stack:
            return False
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        self.cursor = None
        self._sync()
        while self._redo:
            node = self._redo.pop(0)
            state = node.state
            self.tree.promote(node)   # the game goes on in the line taken back
            self.history.append(state)
            self.line.append(node)
            self.evals.append(node.data.get("eval"))
            self.grades.append(node.data.get("grade"))
            self.clocks.append(node.data.get("clock") or (self.clock.snapshot() if self.clock is not None else None))
            if state.is_terminal() or state.current_player == self.human:
                break
        if self.clock is not None and self.clocks[-1] is not None:
            self.clock.restore(self.clocks[-1])   # the times recorded where the game goes on again
        self.clock_node = self.line[-1]
        self.tree_version += 1
        self.resigned_by = None
        self.agreed_draw = False
        self.error = ""
        self.selection = None
        self.waiting = False
        self.session = self._new_session()
        self.events.append({"type": "undo"})
        return True

    def resign(self) -> bool:
        """The person resigns the game: the game itself, brought back on the board first (a
        line opened from the move list is looked at, not played); False when it is over."""
        if self.game_over:
            return False
        self.back_to_game()
        self.cancel_ai()
        self._cancel_hint()
        self.resigned_by = self.human
        self.events.append({"type": "end", "winner": 1 - self.human, "resigned": True})
        return True

    # --- draw offers -------------------------------------------------------------
    @property
    def draws_offered(self) -> bool:
        """The person may offer draws in this game (it can last long enough for one)."""
        return self.game.max_game_length > DRAW_OFFER_PLIES

    def offer_draw(self) -> str:
        """The person offers the AI a draw, on their turn in the game's newest position (which
        comes back on the board when an earlier position or a line opened from the move list is
        looked at: the offer is the game's): "" when the offer stands (the AI answers as soon as
        it has judged the position: `update`), else the i18n key of why it was not made. An offer
        before `DRAW_OFFER_PLIES` is declined at once, as too early."""
        if not self.draws_offered:
            return "draw.not_in_game"
        if self.in_variation or self.cursor is not None:
            end = self.game_line()[-1].state
            if self.game_over or end.current_player != self.human:
                return "draw.your_turn"
            self.back_to_game()
        if self.over or self.reviewing or not self.human_to_move or self.pending_move:
            return "draw.your_turn"
        if self.draw_offer is self.state:
            return "draw.pending"
        if self.draw_declined is self.state:
            return "draw.declined_here"
        if len(self.history) - 1 < DRAW_OFFER_PLIES:
            self.draw_declined = self.state
            self.notices.append(("draw.too_early", {"n": DRAW_OFFER_PLIES // 2}))
            return ""
        self.draw_offer = self.state
        self._answer_draw_offer()
        if self.draw_offer is not None:   # the AI has yet to judge the position: say the offer stands
            self.notices.append(("draw.offered", {}))
        return ""

    def _answer_draw_offer(self) -> None:
        """The AI's answer to a standing offer, from what it knows of the position (its own
        search, else the background analysis, which judges the position on the board first); an
        offer lapses when the person moves, takes back or the game ends."""
        if self.draw_offer is None:
            return
        if self.draw_offer is not self.state or self.over or self.state.current_player != self.human:
            self.draw_offer = None
            return
        index = len(self.history) - 1
        e = self.evaluation_at(index)
        if e is None:
            return
        v0 = e.proven0 if e.proven0 is not None else e.value0
        mine = -v0 if self.human == 0 else v0   # what the AI expects from playing on
        self.draw_offer = None
        if mine <= DRAW_ACCEPT_VALUE:
            self.cancel_ai()
            self._cancel_hint()
            self.agreed_draw = True
            self.events.append({"type": "end", "winner": None, "agreed": True})
            self.notices.append(("draw.accepted", {}))
        else:
            self.draw_declined = self.state
            self.notices.append(("draw.declined", {"share": round(50 * (1 + mine))}))

    @property
    def in_progress(self) -> bool:
        """The person has moved and the game is not over: leaving it would lose something. The
        game's own line counts (`game_line`), not a finished variation looked at meanwhile."""
        line = self.game_line()
        return not self.game_over and len(line) > 1 and any(
            n.state.current_player == self.human for n in line[:-1])

    def new_game(self, human: int | None = None) -> None:
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        if human is not None:
            self.human = human
        self._reset_history([self.game.initial_state()])
        self.setup_plies = 0
        self.analysis_on = True
        self.selection = None
        self._fresh_for_rating(True)
        self.events.append({"type": "new"})

    def load(self, state, setup: int = 0, tree=None) -> None:
        """Continue from a loaded position (the game must be this controller's game). The game's
        history starts after its first ``setup`` plies, which only place a hand-set position's
        stones (see `games.base.Game.from_setup`). ``tree`` (`games.records.tree.GameTree`, a
        record's or an autosave's) brings the game's variations and comments: ``state`` is the
        end of one of its lines, the one shown."""
        from gui.records import history_of
        self.cancel_ai()
        self._cancel_hint()
        self.cancel_analysis()
        history = history_of(state)
        setup = max(0, min(int(setup or 0), len(state.moves)))
        if setup and len(history) == len(state.moves) + 1:
            history = history[setup:]
        else:
            setup = 0
        self._reset_history(history, _rooted(tree, history[0]))
        self.setup_plies = setup
        self.analysis_on = True
        self.selection = None
        self._fresh_for_rating(False)   # a loaded or pasted game is not rated
        if not state.is_terminal() and state.current_player != self.human:
            self.human = state.current_player  # the person takes the side to move
        self.events.append({"type": "new"})

    def _fresh_for_rating(self, from_start: bool) -> None:
        self.from_start = from_start
        self.took_back = False
        self.rating_done = False
        self.rating_note = ""

    @property
    def moved_first(self) -> bool | None:
        """The person had the game's first move (for the rating, which weighs it); None where an
        opening rule settled the colours to even the game."""
        return bool(self.history) and self.history[0].current_player == self.human

    @property
    def person_moved(self) -> bool:
        """The person made a move in this game."""
        return any(s.current_player == self.human and not s.is_terminal() for s in self.history[:-1])

    # --- hints ------------------------------------------------------------------
    def toggle_hints(self) -> bool:
        self.hints_on = not self.hints_on
        if not self.hints_on:
            self._cancel_hint()
        return self.hints_on

    @property
    def hint_level(self) -> str:
        """The search a hint uses: the AI's level where it searches at least as much as the
        background analysis, else the analysis' judge (a beginner AI's dozen visits, or gomoku's
        medium level's single one, would make every hint a guess, and hints are there to teach)."""
        return self.level if self.level in HINT_OWN_LEVELS else self.ANALYSIS_LEVEL

    def _ask_hint(self) -> None:
        state = self.state
        self.hint = Thinking(started=time.monotonic())
        self.hint_for = state
        self.hint.rid = self.ai.search(state, self.hint_level, self.model_path_for(self.game), self.session,
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
            try:  # a move the search never visited has no win rate of its own
                win = (1 + max(-1.0, min(1.0, float(m["q"])))) / 2 if m.get("visits", 0) > 0 else None
            except (KeyError, TypeError, ValueError):
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
        moving = not self.over and (not self.paused or self.steps)
        if moving and self.thinking.rid is None and self.pending_move is None and now >= self.next_move_at:
            self._ask_ai(self.levels[self.state.current_player])
        # paused or over: the positions no search has seen (the newest, a pasted start) get analysed
        self.update_analysis(ai_idle=not moving and not self.ai_thinking)

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


def _rooted(tree, start):
    """``tree`` from the position ``start`` on (a record's tree starts before a hand-set
    position's stones), or None when ``start`` is not on it."""
    if tree is None:
        return None
    base = len(tree.root.state.moves)
    node = tree.find(start.moves[base:]) if start.moves[:base] == tree.root.state.moves else None
    return None if node is None else tree.reroot(node)


def pick_side(choice: str, rng=random) -> int:
    """The person's player number for a side choice: first -> 0, second -> 1, random -> either."""
    if choice == "second":
        return 1
    if choice == "random":
        return rng.randrange(2)
    return 0
