"""External NBoard engines (othello; Edax, NTest, ZeroBoard's own) as players: arena spec
``nboard:COMMAND[@depthN]`` (default depth 8).

The client says ``nboard 2`` and ``set depth N`` (NBoard's only limit, so the work per move
does not depend on the machine's load), then for each move sends the game so far as a GGF
record (``set game``), synchronises with ``ping``/``pong`` and asks ``go``; the reply
``=== MV[/EVAL/TIME]`` (or Edax's ``=== MV EVAL TIME``) is the move, ``PA`` the pass.
"""
from __future__ import annotations

import time

from ..core.mcts import SearchResult
from .process import EngineError, EngineProcess, ProcessPlayer

DEFAULT_DEPTH = 8


def ggf_record(state) -> str:
    """``state``'s game from the standard start as a GGF record (what NBoard sends)."""
    g = state.game
    start = g.initial_state()
    board = start.board_array().reshape(-1)
    cells = "".join("*" if v > 0 else "O" if v < 0 else "-" for v in board)
    parts = [f"(;GM[Othello]PC[ZeroBoard]PB[black]PW[white]RE[?]TI[0:00]TY[{g.size}]BO[{g.size} {cells} *]"]
    s = start
    for a in state.moves:
        text = s.action_to_text(a)
        parts.append(f"{'B' if s.current_player == 0 else 'W'}[{'PA' if text == 'pass' else text.upper()}]")
        s = s.apply(a)
    return "".join(parts) + ";)"


class NBoardEnginePlayer(ProcessPlayer):
    """An external NBoard engine as a player (``choose(state)`` like the other players)."""

    def __init__(self, game, command, work: dict | None = None, timeout: float = 10.0,
                 keep_transcript: bool = False):
        if game.id != "othello":
            raise EngineError(f"NBoard engines play othello, not {game.key}")
        work = dict(work) if work else {"depth": DEFAULT_DEPTH}
        if set(work) != {"depth"}:
            raise EngineError("the NBoard protocol limits work only by depth; use depthN")
        self.game = game
        self.depth = int(work["depth"])
        self.timeout = timeout
        self.process = EngineProcess(command, timeout, keep_transcript)
        self.engine_name = self.process.name
        self._ping = 0
        try:
            self.process.send("nboard 2")
            self.process.send(f"set depth {self.depth}")
            for line in self._sync():
                if line.startswith("set myname "):
                    self.engine_name = line[len("set myname "):].strip()
        except BaseException:
            self.close()
            raise
        self.name = f"nboard {self.engine_name}"

    def _sync(self, timeout: float | None = None) -> list[str]:
        self._ping += 1
        self.process.send(f"ping {self._ping}")
        want = f"pong {self._ping}"
        return self.process.read_until(lambda l: l == want, timeout)

    def reset(self) -> None:
        self._sync()

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        from games.base import NotationError
        start = time.perf_counter()
        p = self.process
        p.send(f"set game {ggf_record(state)}")
        self._sync()
        p.send("go")
        lines = p.read_until(lambda l: l.startswith("==="), self.timeout * 6)
        body = lines[-1][3:].strip().replace(" ", "/")
        fields = body.split("/")
        move = fields[0].lower()
        value = 0.0
        if len(fields) > 1:
            try:
                value = max(-1.0, min(1.0, float(fields[1]) / (state.game.cells)))
            except ValueError:
                pass
        try:
            action = state.parse_action("pass" if move in ("pa", "pass") else move)
        except NotationError as e:
            raise EngineError(f"engine {self.engine_name!r} answered {lines[-1]!r}, which is not legal: {e}") from None
        return SearchResult(action, value, [], 0, time.perf_counter() - start)


__all__ = ["NBoardEnginePlayer", "ggf_record"]
