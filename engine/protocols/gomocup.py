"""The Gomocup (Piskvork) brain protocol: ZeroBoard's gomoku AI as a brain that Gomocup
managers (Piskvork, piskvork's command-line manager, Gomocup's tournament manager) run
(``python main.py pbrain [--model PATH|rollout] [--level NAME]``; the packaged app ships it
as the executable ``pbrain-zeroboard``).

Coordinates are ``x,y``, zero-based, x the column from the left, y the row from the top.

- ``START n`` -> ``OK`` at once (the model loads in the background afterwards), or ``ERROR``
  for a size this brain cannot play: the sizes it has a model for (15 with the shipped
  model; ``--size`` with ``--model PATH``), any size from 5 to 26 with ``--model rollout``.
  ``RECTSTART w,h`` -> the same for w = h, else ``ERROR`` (square boards only).
- ``BEGIN`` -> our first move; ``TURN x,y`` -> the opponent's move, then ours;
  ``BOARD`` ... ``x,y,who`` lines (1 own stone, 2 opponent's, 3 a continuous game's winning
  line: not supported) ... ``DONE`` -> the position (stones in the order played), then our move
  (a line beyond as many as the board has points ends the block with ``ERROR``);
  ``PLAY x,y`` -> our stone goes on x,y, answered with ``x,y``.
- ``INFO key value`` (no answer): ``timeout_turn``, ``timeout_match``, ``time_left`` (ms),
  ``max_memory`` (bytes: caps the search tree), ``max_node`` (visits per move: fixed work),
  ``game_type``, ``folder``, ``rule``: 0 freestyle (five or more wins; the default), 1 exactly
  five, 4 renju (black's double three, double four and overline forbidden); 2 (continuous) is
  ignored and 8 (caro) answered with ``ERROR``. Renju plays its own shipped network
  (``models/gomoku-renju.pt``), free-style and exactly five the free-style one;
  a rule that arrives during a game applies to the stones already played.
  ``thread_num`` (search threads sharing the tree, from the next move on; ``--threads``, default 1).
- ``SWAP2BOARD`` ... ``DONE`` (Gomocup's Swap2 extension, sent between ``START`` and ``BOARD``):
  the opening stones so far, one ``x,y`` a line in the order played (black, white, black, white,
  black; ``x,y,who`` as in BOARD is taken too, the ``who`` ignored). No stones: we place the
  first three, answered ``x,y x,y x,y``. Three: we choose, answered ``SWAP`` (we take black),
  ``x,y`` (we stay white and this is the fourth stone) or ``x,y x,y`` (the fourth and fifth
  stones: the opponent chooses). Five: ``SWAP`` (we take black) or ``x,y`` (we take white: the
  sixth stone). The choices are the AI's (`engine.play.swap2`),
  judged by searches sharing one move's budget; a ``DEBUG`` line gives their values.
- ``RESTART`` -> ``OK`` (empty board); ``TAKEBACK x,y`` -> ``OK`` (removes the last stone,
  which must be at x,y); ``END`` ends the process (also during a search); ``ABOUT`` ->
  ``name="ZeroBoard", version="...", author="..."`` (no country: the project has none).

Unknown commands are answered ``UNKNOWN ...``, malformed or impossible ones ``ERROR ...``;
the brain keeps going. Each move is followed by a ``DEBUG`` line with the search's visits
and value.
"""
from __future__ import annotations

import re
import sys
import threading
import time

from .common import ROLLOUT, one_line, parse_int, serve_lines
from .session import SearchSession, clock_budget

#: how much of ``timeout_turn`` a search may use (the rest covers process and pipe delays)
TURN_SHARE = 0.8
TURN_MARGIN_S = 0.15
# at most 9 digits a number: a longer one is malformed, never handed to int() (which refuses 4,300 digits)
_POINT = re.compile(r"^\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*$")
_FIELD = re.compile(r"^\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*,\s*(-?[0-9]{1,9})\s*$")


class GomocupBrain:
    """The brain's state machine: ``handle_line(line, emit)`` processes one line."""

    def __init__(self, model_path=None, level: str | None = None, evaluator=None, seed: int | None = None,
                 model_size: int = 15, threads: int = 1):
        self.model_path = str(model_path) if model_path else ""
        self.threads = threads
        self.level = level
        self._evaluator = evaluator
        self.seed = seed
        self.model_size = model_size
        self.session: SearchSession | None = None
        self.game = None
        self.state = None
        self.me = 0              # our player index (0 moves first)
        self.info: dict[str, int] = {}
        self.rule = "freestyle"  # INFO rule
        self.board_lines: list[str] | None = None  # collecting BOARD (or SWAP2BOARD) ... DONE
        self.block = "BOARD"     # which of the two is being collected
        self.ended = threading.Event()  # set by the reader as soon as END arrives (stops a search)
        self.quit_requested = False     # set when END is processed

    # --- what this brain can play ---------------------------------------------------
    def playable(self, size: int) -> str | None:
        """None when a game of ``size`` x ``size`` can be played, else why not."""
        from games.gomoku import LETTERS, WIN_LENGTH
        if not WIN_LENGTH <= size <= len(LETTERS):
            return f"board size {size} is not supported (gomoku here is {WIN_LENGTH}x{WIN_LENGTH} to " \
                   f"{len(LETTERS)}x{len(LETTERS)})"
        if self._evaluator is not None or self.model_path == ROLLOUT:
            return None
        if self.model_path:
            return None if size == self.model_size else \
                f"the model plays {self.model_size}x{self.model_size}, not {size}x{size}"
        from ..core.paths import shipped_model_path
        from games.gomoku import Gomoku
        if shipped_model_path(Gomoku(size).key) is None:
            return f"no model for {size}x{size} (the shipped model plays 15x15; --model rollout plays any size)"
        return None

    # --- the protocol ------------------------------------------------------------------
    def handle_line(self, line: str, emit) -> None:
        try:
            self._handle(line.strip(), emit)
        except Exception as e:  # the protocol must survive anything; say what went wrong
            emit(f"ERROR internal: {type(e).__name__}: {one_line(e)}")

    def _handle(self, line: str, emit) -> None:
        if self.board_lines is not None:
            if line.upper() == "DONE":
                lines, self.board_lines = self.board_lines, None
                (self._cmd_board_done if self.block == "BOARD" else self._cmd_swap2_done)(lines, emit)
                return
            if line.partition(" ")[0].upper() not in _COMMANDS:
                if line and len(self.board_lines) >= self.game.size * self.game.size:   # more stones than points
                    self.board_lines = None
                    emit(f"ERROR {self.block} has more lines than the board has points; the position was not taken")
                elif line:
                    self.board_lines.append(line)
                return
            # a command (END above all) is never a stone: the position is dropped, the command obeyed
            self.board_lines = None
            emit(f"ERROR {self.block} ended without DONE; the position was not taken")
        if not line:
            return
        word, _, rest = line.partition(" ")
        cmd = word.upper()
        handler = {   # the keys are _COMMANDS
            "START": self._cmd_start, "RECTSTART": self._cmd_rectstart, "RESTART": self._cmd_restart,
            "BEGIN": self._cmd_begin, "TURN": self._cmd_turn, "BOARD": self._cmd_board, "PLAY": self._cmd_play,
            "INFO": self._cmd_info, "TAKEBACK": self._cmd_takeback, "END": self._cmd_end, "ABOUT": self._cmd_about,
            "SWAP2BOARD": self._cmd_swap2board,
        }.get(cmd)
        if handler is None:
            emit(f"UNKNOWN command {one_line(word)[:40]!r}")
            return
        handler(rest.strip(), emit)

    def _cmd_about(self, rest, emit) -> None:
        from ..core.paths import __version__
        emit(f'name="ZeroBoard", version="{__version__}", author="the ZeroBoard authors"')

    def _cmd_start(self, rest, emit) -> None:
        size = parse_int(rest, 1, 1000)
        if size is None:
            emit(f"ERROR START needs a board size, not {one_line(rest)[:40]!r}")
            return
        self._new_game(size, emit)

    def _cmd_rectstart(self, rest, emit) -> None:
        m = _POINT.match(rest)
        if m is None:
            emit(f"ERROR RECTSTART needs width,height, not {one_line(rest)[:40]!r}")
            return
        w, h = int(m.group(1)), int(m.group(2))
        if w != h:
            emit(f"ERROR rectangular boards are not supported ({w}x{h}); this brain plays square boards")
            return
        self._new_game(w, emit)

    def _new_game(self, size: int, emit) -> None:
        why = self.playable(size)
        if why is not None:
            emit(f"ERROR {why}")
            return
        game = self._gomoku(size)
        if self.session is None or self.game.key != game.key:
            model = self.model_path or None
            self.session = SearchSession(game, model, self.level, self._evaluator, self.seed, self.threads)
        self.game = game
        self.state = game.initial_state()
        self.session.reset()
        emit("OK")
        self.session.start_loading()  # after OK: torch and the model load while the manager goes on

    def _gomoku(self, size: int):
        from games import get_game
        return get_game("gomoku", size=size, rule=self.rule)

    def _set_rule(self, rule: str, emit) -> None:
        """Play ``rule`` from now on; a game in progress goes on under it with its stones."""
        self.rule = rule
        if self.game is None or self.game.rule == rule:
            return
        game = self._gomoku(self.game.size)
        state = game.initial_state()
        for action in self.state.moves:
            state = state.apply(action)
        self.session = SearchSession(game, self.model_path or None, self.level, self._evaluator, self.seed, self.threads)
        self.game, self.state = game, state
        self.session.start_loading()

    def _cmd_restart(self, rest, emit) -> None:
        if not self._started(emit):
            return
        self.state = self.game.initial_state()
        self.session.reset()
        emit("OK")

    def _started(self, emit) -> bool:
        if self.game is None:
            emit("ERROR no game: send START size first")
            return False
        return True

    def _point(self, text: str, emit, what: str) -> int | None:
        """The action at ``x,y``, or None after an ERROR line."""
        m = _POINT.match(text)
        if m is None:
            emit(f"ERROR {what} needs x,y, not {one_line(text)[:40]!r}")
            return None
        x, y = int(m.group(1)), int(m.group(2))
        n = self.game.size
        if not (0 <= x < n and 0 <= y < n):
            emit(f"ERROR {what} {x},{y} is off the {n}x{n} board (0..{n - 1})")
            return None
        return y * n + x

    def _text(self, action: int) -> str:
        y, x = divmod(action, self.game.size)
        return f"{x},{y}"

    def _cmd_begin(self, rest, emit) -> None:
        if not self._started(emit):
            return
        if self.state.moves:
            emit("ERROR BEGIN on a board that has stones; send RESTART or START first")
            return
        self.me = 0
        self._move(emit)

    def _cmd_turn(self, rest, emit) -> None:
        if not self._started(emit):
            return
        action = self._point(rest, emit, "TURN")
        if action is None:
            return
        if self.state.is_terminal():
            emit("ERROR the game is over")
            return
        if (self.state.board_array().reshape(-1)[action]) != 0:
            emit(f"ERROR TURN {rest}: that point is taken")
            return
        if action not in self.state.legal_actions():
            emit(f"ERROR TURN {rest}: that point is forbidden for black under renju")
            return
        self.me = 1 - self.state.current_player
        self.state = self.state.apply(action)
        self._move(emit)

    def _cmd_play(self, rest, emit) -> None:
        if not self._started(emit):
            return
        action = self._point(rest, emit, "PLAY")
        if action is None:
            return
        if self.state.is_terminal() or self.state.board_array().reshape(-1)[action] != 0:
            emit(f"ERROR PLAY {rest}: that point is taken or the game is over")
            return
        self.me = self.state.current_player
        self.state = self.state.apply(action)
        emit(self._text(action))

    def _cmd_board(self, rest, emit) -> None:
        if not self._started(emit):
            return
        self.board_lines, self.block = [], "BOARD"

    def _cmd_swap2board(self, rest, emit) -> None:
        if not self._started(emit):
            return
        self.board_lines, self.block = [], "SWAP2BOARD"

    def _cmd_swap2_done(self, lines: list[str], emit) -> None:
        """Place the first three stones, or choose after three or five (see the module docstring)."""
        from ..play import swap2
        stones = []
        for line in lines:
            field = _FIELD.match(line)   # x,y as Gomocup's page shows it, or x,y,who as BOARD's (Rapfi's client)
            action = self._point(f"{field.group(1)},{field.group(2)}" if field else line, emit, "SWAP2BOARD")
            if action is None:
                return
            if action in stones:
                emit(f"ERROR SWAP2BOARD: {line.strip()} is given twice")
                return
            stones.append(action)
        if len(stones) not in (0, 3, 5):
            emit(f"ERROR SWAP2BOARD needs 0, 3 or 5 stones, not {len(stones)}")
            return
        state = self.game.initial_state()
        try:
            for action in stones:
                state = state.play(action)
        except ValueError as e:
            emit(f"ERROR SWAP2BOARD: {one_line(e)}")
            return
        self.session.reset()
        calls = {0: len(swap2.candidate_openings(self.game)), 3: 2, 5: 1}[len(stones)]
        judge, seen = self._judge(max(calls, 1))
        if not stones:
            try:
                actions, _ = swap2.propose_opening(self.game, judge, self._rng())
            except ValueError as e:
                emit(f"ERROR {one_line(e)}")
                return
            for action in actions:
                state = state.apply(action)
            self.state, self.me = state, 0
        else:
            choice, actions = (swap2.choose_after_three if len(stones) == 3 else swap2.choose_after_five)(state, judge)
            for action in actions:
                state = state.apply(action)
            self.state = state
            # SWAP: we take black; one stone: we took white; two: the opponent chooses (we stay second)
            self.me = 0 if choice == "black" else 1
        if self.ended.is_set():
            return
        emit("DEBUG swap2 values for white to move: " + " ".join(f"{v:+.3f}" for v in seen))
        emit("SWAP" if not actions else " ".join(self._text(a) for a in actions))

    def _judge(self, calls: int):
        """(a judge for `engine.play.swap2`: a search with 1/``calls`` of this move's budget, the
        list its values go to)."""
        from ..play.swap2 import verdict_of
        self.session.ensure_ready()
        sims, seconds = self.budget()
        sims = max(sims // calls, 1)
        seconds = None if seconds is None else max(seconds / calls, 0.02)
        seen: list[float] = []

        def judge(state):
            self.session.reset()
            verdict = verdict_of(self.session.search(state, sims, seconds, should_stop=self.ended.is_set))
            seen.append(verdict.value if state.current_player == 1 else -verdict.value)
            return verdict
        return judge, seen

    def _rng(self):
        import random
        return random.Random(self.seed)

    def _cmd_board_done(self, lines: list[str], emit) -> None:
        own, theirs = [], []
        seen = set()
        for line in lines:
            m = _FIELD.match(line)
            if m is None:
                emit(f"ERROR BOARD line {one_line(line)[:40]!r} is not x,y,who")
                return
            action = self._point(f"{m.group(1)},{m.group(2)}", emit, "BOARD")
            if action is None:
                return
            who = int(m.group(3))
            if who == 3:
                emit("ERROR BOARD: winning-line fields (3, continuous games) are not supported")
                return
            if who not in (1, 2) or action in seen:
                emit(f"ERROR BOARD line {line!r}: " + ("the point is given twice" if action in seen
                                                       else "who must be 1 (own) or 2 (opponent)"))
                return
            seen.add(action)
            (own if who == 1 else theirs).append(action)
        if len(own) == len(theirs):
            first, second, self.me = own, theirs, 0
        elif len(theirs) == len(own) + 1:
            first, second, self.me = theirs, own, 1
        else:
            emit(f"ERROR BOARD: {len(own)} own and {len(theirs)} opponent stones cannot be a position "
                 "with us to move")
            return
        order = [a for pair in zip(first, second) for a in pair] + first[len(second):]
        state = self.game.initial_state()
        for i, action in enumerate(order):
            if state.is_terminal():
                emit(f"ERROR BOARD: the game was already won before stone {i + 1}")
                return
            state = state.apply(action)
        if state.is_terminal():
            emit("ERROR BOARD: the game is already over")
            return
        self.state = state
        self.session.reset()
        self._move(emit)

    def _cmd_takeback(self, rest, emit) -> None:
        if not self._started(emit):
            return
        action = self._point(rest, emit, "TAKEBACK")
        if action is None:
            return
        moves = self.state.moves
        if not moves or moves[-1] != action:
            emit(f"ERROR TAKEBACK {rest}: only the last stone can be taken back")
            return
        state = self.game.initial_state()
        for a in moves[:-1]:
            state = state.apply(a)
        self.state = state
        emit("OK")

    def _cmd_info(self, rest, emit) -> None:
        key, _, value = rest.partition(" ")
        key = key.lower()
        numeric = ("timeout_turn", "timeout_match", "time_left", "max_memory", "max_node", "game_type", "rule")
        if key in numeric:
            number = parse_int(value, 0 if key != "max_node" else -1)
            if number is None:
                emit(f"ERROR INFO {key} needs a whole number, not {one_line(value)[:40]!r}")
                return
            self.info[key] = number
            if key == "rule":
                from games.renju import rule_from_gomocup
                try:
                    rule = rule_from_gomocup(number)
                except ValueError as e:   # caro (8)
                    emit(f"ERROR {e}")
                    return
                self._set_rule(rule, emit)
        elif key == "thread_num":
            from ..play.players import MAX_THREADS, parse_threads
            try:
                self.threads = parse_threads(value)
            except ValueError:
                emit(f"ERROR INFO thread_num needs a whole number from 1 to {MAX_THREADS}, not {one_line(value)[:40]!r}")
                return
            if self.session is not None:
                self.session.set_threads(self.threads)
        elif key == "folder":
            self.info_folder = value
        # other keys (evaluate, ...) are for the manager's own use: ignored, as the protocol asks

    def _cmd_end(self, rest, emit) -> None:
        self.ended.set()
        self.quit_requested = True

    # --- thinking --------------------------------------------------------------------
    def budget(self) -> tuple[int, float | None]:
        """(visits, seconds) for this move, from INFO max_node / timeout_turn / time_left."""
        sims, seconds = self.session.level_sims, self.session.level_seconds
        cap = 10 ** 7
        if self.info.get("max_memory", 0) > 0:
            cap = max(100, int(self.info["max_memory"] * 0.5) // self._bytes_per_node())
        if self.info.get("max_node", -1) > 0:
            sims, seconds = self.info["max_node"], None  # fixed work; the clocks below stay limits
        limits = []
        turn = self.info.get("timeout_turn")
        if turn is not None:
            limits.append(max(turn / 1000.0 * TURN_SHARE - TURN_MARGIN_S, 0.02))
        left = self.info.get("time_left")
        if left is not None and self.info.get("timeout_match", 1) > 0:
            empties = self.game.cells - len(self.state.moves)
            limits.append(clock_budget(left, 0, max(empties // 4, 10)))
        if limits and self.info.get("max_node", -1) <= 0 and turn is not None:
            sims = cap  # a clock is given: search until it runs out
        if limits:
            seconds = min(limits + ([seconds] if seconds else []))
        return min(sims, cap), seconds

    def _bytes_per_node(self) -> int:
        """The search tree's bytes per node on this board (measured once per size, ~0.4 s)."""
        cache = self.__dict__.setdefault("_node_bytes", {})
        if self.game.size not in cache:
            from ..core.treememory import measure_tree_memory
            cache[self.game.size] = max(measure_tree_memory(self.game, 500)["tree_bytes_per_node"], 1)
        return cache[self.game.size]

    def _move(self, emit) -> None:
        """Search, play and print our move."""
        if self.state.is_terminal():
            emit("ERROR the game is over")
            return
        started = time.perf_counter()
        self.session.ensure_ready(lambda err: emit(f"ERROR {err}"))
        sims, seconds = self.budget()
        if seconds is not None:  # the turn's clock ran while the model loaded (the first move)
            seconds = max(seconds - (time.perf_counter() - started), 0.02)
        # END arriving during the search cuts it short (and no move is printed); an END that was
        # already queued behind this command waits for it
        queued_end = self.ended.is_set()
        stop = (lambda: False) if queued_end else self.ended.is_set
        result = self.session.search(self.state, sims, seconds, should_stop=stop)
        if not queued_end and self.ended.is_set():
            return
        action = result.action
        self.state = self.state.apply(action)
        emit(f"DEBUG {result.sims} visits, value {result.value:+.3f} for this brain")
        emit(self._text(action))


#: the commands a brain obeys (a line inside BOARD ... DONE that starts with one ends the list)
_COMMANDS = frozenset({"START", "RECTSTART", "RESTART", "BEGIN", "TURN", "BOARD", "PLAY", "INFO", "TAKEBACK", "END",
                       "ABOUT", "SWAP2BOARD"})


def serve(brain: GomocupBrain, stdin=None, stdout=None) -> int:
    """Run the brain on text streams until ``END`` or end of input; ``END`` stops a running
    search as soon as it arrives."""
    def on_arrival(line: str) -> None:
        if line.strip().upper() == "END":
            brain.ended.set()
    return serve_lines(brain, stdin or sys.stdin, stdout or sys.stdout, on_arrival)

__all__ = ["GomocupBrain", "serve"]
