"""The NBoard protocol (version 2, as Edax speaks it to the NBoard othello GUI): ZeroBoard's
othello AI as an engine NBoard loads (``python main.py nboard [--model PATH|rollout]``).

- ``nboard 2`` (or 1) -> ``set myname ZeroBoard`` at once (the model loads afterwards).
- ``set depth N``: fixed work per move, 100 x N visits (MCTS has no depth: depth 8 is the
  800 visits the strength reports were measured at), no time cap. ``set contempt N`` is accepted and ignored.
- ``set game GGF``: the position at the end of the GGF game record (``BO[8 ... *]`` start
  board and side to move, ``B[d3]``/``W[c5/1.2/0.3]`` moves, ``PA`` the pass).
- ``move MV[/EVAL/TIME]`` (``MV`` alone in version 1): play a move on the stored position.
- ``hint N`` -> ``status ZeroBoard is thinking``, ``search MV EVAL 0 DEPTH`` for the N most
  visited moves, ``status``.
- ``go`` -> ``status ...``, ``nodestats NODES SECONDS``, ``=== MV/EVAL/TIME``, ``status``;
  the stored position is not changed (NBoard sends ``move`` when it plays it).
- ``ping N`` -> ``pong N`` (a search still running is cut short first; ``quit`` cuts it short too); ``learn`` ->
  ``learned`` (nothing is learnt); ``analyze`` -> ``analysis N EVAL`` for each position of
  the game from the last back to the first (N = moves played), then ``status``; ``quit``.

EVAL is from the point of view of the player to move: the search's value (-1..1) x 64, on
the disc-difference scale NBoard shows, not a counted disc difference. Lines the protocol
does not know are ignored as it asks (a note goes to stderr); a bad GGF or an illegal move
gets a ``status error: ...`` line and changes nothing.
"""
from __future__ import annotations

import re
import sys

from .common import one_line, parse_int, principal_variation, serve_lines
from .session import SearchSession, Stopwatch

#: visits per unit of NBoard's depth
VISITS_PER_DEPTH = 100
DEFAULT_DEPTH = 8
EVAL_SCALE = 64.0
#: visits per position in ``analyze``
ANALYZE_VISITS = 100

_BOARD_RE = re.compile(r"BO\[\s*([0-9]{1,9})\s+([^\]]*)\]")   # a size of more digits is no size (int() refuses 4,300)
_MOVE_RE = re.compile(r"(?<![A-Z])([BW])\[([^\]]*)\]")


class GGFError(ValueError):
    """A GGF game record that cannot be read; the message says where."""


def parse_ggf(game_factory, text: str):
    """The othello position at the end of a GGF record (``game_factory(size)`` makes the game)."""
    return ggf_positions(game_factory, text)[-1]


def ggf_positions(game_factory, text: str) -> list:
    """Every position of a GGF record, its start board first; GGFError when it cannot be read."""
    from games.othello import OthelloState
    m = _BOARD_RE.search(text)
    if m is None:
        raise GGFError("no BO[size board side] start position in the game record")
    size = int(m.group(1))
    try:
        game = game_factory(size)
    except ValueError as e:
        raise GGFError(f"BO[{size} ...]: {e}") from None
    cells = "".join(m.group(2).split())
    if len(cells) != size * size + 1:
        raise GGFError(f"BO[{size} ...] needs {size * size} squares and the side to move, got {len(cells)} characters")
    black = white = 0
    for i, c in enumerate(cells[:-1]):
        if c in "*xX#":
            black |= 1 << i
        elif c in "OoW":
            white |= 1 << i
        elif c not in "-.":
            raise GGFError(f"BO[...]: square {i + 1} is {c!r} (expected *, O or -)")
    side = cells[-1]
    if side not in "*O":
        raise GGFError(f"BO[...]: side to move {side!r} is not * (black) or O (white)")
    start = game.initial_state()
    player = 0 if side == "*" else 1
    probe = OthelloState(game, black, white, 0) if player == 0 else OthelloState(game, white, black, 1)
    state = start if probe.key() == start.key() and player == 0 else probe
    positions = [state]
    for n, mv in enumerate(_MOVE_RE.finditer(text[m.end():]), 1):
        color, body = mv.group(1), mv.group(2).split("/")[0].strip().lower()
        mover = 0 if color == "B" else 1
        if state.current_player != mover and not state.is_terminal() and state.legal_actions() == [game.pass_action]:
            state = state.apply(game.pass_action)  # a pass the record leaves out
        if state.current_player != mover:
            raise GGFError(f"move {n} {color}[{body}]: it is {'black' if state.current_player == 0 else 'white'}'s turn")
        try:
            state = state.play(state.parse_action("pass" if body in ("pa", "pass") else body))
        except ValueError as e:
            raise GGFError(f"move {n} {color}[{body}]: {one_line(e)}") from None
        positions.append(state)
    return positions


def move_text(state, action: int) -> str:
    """NBoard's spelling of a move: the square in capitals, ``PA`` for the pass."""
    text = state.action_to_text(action)
    return "PA" if text == "pass" else text.upper()


class NBoardEngine:
    """The NBoard state machine: ``handle_line(line, emit)``; `serve` runs it on stdin/stdout."""

    def __init__(self, model_path=None, evaluator=None, seed: int | None = None, size: int = 8, threads: int = 1):
        """``threads``: search threads sharing the tree (NBoard has no command for it)."""
        from games.othello import Othello
        self.game = Othello(size)
        self.session = SearchSession(self.game, model_path, "strong", evaluator, seed, threads)
        self.state = self.game.initial_state()
        self.history = [self.state]
        self.depth = DEFAULT_DEPTH
        self.version = 0
        self.quit_requested = False
        self.pings_seen = 0      # counted by the reader thread as ping lines arrive
        self.pings_answered = 0
        self.leaving = False     # set by the reader thread as soon as quit arrives

    def handle_line(self, line: str, emit) -> None:
        try:
            self._handle(line.strip(), emit)
        except Exception as e:  # the protocol must survive anything; say what went wrong
            emit(f"status error: internal {type(e).__name__}: {one_line(e)}")

    def _handle(self, line: str, emit) -> None:
        words = line.split()
        if not words:
            return
        cmd = words[0].lower()
        if cmd == "nboard":
            self.version = parse_int(words[1], 0) if len(words) > 1 else 1
            emit("set myname ZeroBoard")
            self.session.start_loading()  # after the first reply: torch and the model load meanwhile
        elif cmd == "set" and len(words) >= 2:
            self._cmd_set(words[1].lower(), line.split(None, 2)[2] if len(words) > 2 else "", emit)
        elif cmd == "move" and len(words) == 2:
            self._play(words[1], emit)
        elif len(cmd) == 2 and len(words) == 1 and (cmd == "pa" or cmd[0].isalpha() and cmd[1].isdigit()):
            self._play(cmd, emit)  # version 1 sends the bare move
        elif cmd == "hint":
            n = parse_int(words[1], 1) if len(words) > 1 else 1
            if n is None:
                emit(f"status error: hint needs a positive count, not {one_line(words[1])[:20]!r}")
                return
            self._cmd_hint(n, emit)
        elif cmd == "go":
            self._cmd_go(emit)
        elif cmd == "ping":
            self.pings_answered += 1
            emit(f"pong {words[1] if len(words) > 1 else ''}".rstrip())
        elif cmd == "learn":
            emit("learned")
        elif cmd == "analyze":
            self._cmd_analyze(emit)
        elif cmd == "quit":
            self.quit_requested = True
        else:
            print(f"nboard: ignoring unknown line {one_line(line)[:80]!r}", file=sys.stderr)

    def _cmd_set(self, what: str, value: str, emit) -> None:
        if what == "depth":
            depth = parse_int(value, 1, 60)
            if depth is None:
                emit(f"status error: set depth needs a whole number from 1 to 60, not {one_line(value)[:20]!r}")
                return
            self.depth = depth
        elif what == "game":
            from games.othello import Othello
            try:
                positions = ggf_positions(Othello, value)
            except GGFError as e:
                emit(f"status error: set game: {one_line(e)}")
                return
            state = positions[-1]
            if state.game.size != self.game.size:
                emit(f"status error: set game: this engine plays {self.game.size}x{self.game.size}")
                return
            self.state = state
            self.history = positions
            self.session.reset()
        elif what == "contempt":
            if parse_int(value.split(".")[0] or "0") is None:
                emit(f"status error: set contempt needs a number, not {one_line(value)[:20]!r}")
        else:
            print(f"nboard: ignoring 'set {what}'", file=sys.stderr)

    def _play(self, text: str, emit) -> None:
        body = text.split("/")[0].strip().lower()
        try:
            action = self.state.parse_action("pass" if body in ("pa", "pass") else body)
            state = self.state.play(action)
        except ValueError as e:
            emit(f"status error: move {one_line(text)[:20]!r}: {one_line(e)}")
            return
        self.state = state
        self.history.append(state)

    def _stop_requested(self) -> bool:
        return self.leaving or self.pings_seen > self.pings_answered

    def _search(self, state, sims: int):
        return self.session.search(state, sims, None, should_stop=self._stop_requested)

    def _eval(self, value: float) -> str:
        return f"{max(-EVAL_SCALE, min(EVAL_SCALE, value * EVAL_SCALE)):.2f}"

    def _cmd_go(self, emit) -> None:
        if self.state.is_terminal():
            emit("status error: go: the game is over")
            return
        emit("status ZeroBoard is thinking")
        self.session.ensure_ready(lambda err: emit(f"status error: {err}"))
        watch = Stopwatch()
        result = self._search(self.state, self.depth * VISITS_PER_DEPTH)
        emit(f"nodestats {int(self.session.player.tree.root_n)} {watch.seconds:.2f}")
        emit(f"=== {move_text(self.state, result.action)}/{self._eval(result.value)}/{watch.seconds:.2f}")
        emit("status")

    def _cmd_hint(self, n: int, emit) -> None:
        if self.state.is_terminal():
            emit("status error: hint: the game is over")
            return
        emit("status ZeroBoard is thinking")
        self.session.ensure_ready(lambda err: emit(f"status error: {err}"))
        self._search(self.state, self.depth * VISITS_PER_DEPTH)
        tree = self.session.player.tree
        for stat in tree.stats(limit=n):
            pv = principal_variation(tree, stat.action)
            pv_text = "-".join(p.upper() if p != "pass" else "PA" for p in pv) or move_text(self.state, stat.action)
            emit(f"search {pv_text} {self._eval(stat.q)} 0 {len(pv)} {stat.visits} visits")
        emit("status")

    def _cmd_analyze(self, emit) -> None:
        emit("status ZeroBoard is analyzing")
        for state in reversed(self.history):
            if self._stop_requested():
                break
            if state.is_terminal():
                black, white = state.discs()
                diff = black - white if state.current_player == 0 else white - black
                emit(f"analysis {len(state.moves)} {diff:.2f}")
                continue
            result = self._search(state, ANALYZE_VISITS)
            emit(f"analysis {len(state.moves)} {self._eval(result.value)}")
        emit("status")


def serve(engine: NBoardEngine, stdin=None, stdout=None) -> int:
    """Run NBoard on text streams until ``quit`` or end of input; ``ping`` lines are counted as
    they arrive, so that a search in progress is cut short for them, and ``quit`` cuts it short too."""
    def on_arrival(line: str) -> None:
        word = line.split()[:1]
        if word == ["ping"]:
            engine.pings_seen += 1
        elif word == ["quit"]:
            engine.leaving = True
    return serve_lines(engine, stdin or sys.stdin, stdout or sys.stdout, on_arrival)

__all__ = ["NBoardEngine", "parse_ggf", "ggf_positions", "GGFError", "move_text", "serve"]
