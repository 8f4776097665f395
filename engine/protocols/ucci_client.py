"""External UCCI engines (xiangqi) as players: arena spec ``ucci:COMMAND[@WORK][?OPT=V&...]``.

The client says ``ucci`` and waits for ``ucciok``, turns on ``usemillisec`` when the engine
offers it, sends the spec's options as ``setoption NAME VALUE``, and for each move sends
``position fen FEN moves ...`` and ``go depth N`` / ``go nodes N`` (fixed work, the same on a
busy machine) or ``go time MS movestogo 1`` (a time per move). ``bestmove M`` is the move
(ICCS, ranks 0..9); ``nobestmove`` while legal moves remain is an error.
"""
from __future__ import annotations

import re
import time

from ..core.mcts import SearchResult
from .common import cp_to_value
from .process import EngineError, EngineProcess, ProcessPlayer

_OPTION_RE = re.compile(r"^option (\S+) type (\S+)(.*)$")


class UCCIEnginePlayer(ProcessPlayer):
    """An external UCCI engine as a player (``choose(state)`` like the other players)."""

    def __init__(self, game, command, work: dict | None = None, options: dict | None = None,
                 timeout: float = 10.0, keep_transcript: bool = False):
        if game.id != "xiangqi":
            raise EngineError(f"UCCI engines play xiangqi, not {game.key}")
        self.game = game
        self.work = dict(work) if work else {"movetime": 100}
        self.timeout = timeout
        self.process = EngineProcess(command, timeout, keep_transcript)
        self.engine_name = self.process.name
        self.options: dict[str, dict] = {}
        self.millisec = False
        try:
            self._handshake(dict(options or {}))
        except BaseException:
            self.close()
            raise
        self.name = f"ucci {self.engine_name}"

    def _handshake(self, options: dict) -> None:
        p = self.process
        p.send("ucci")
        for line in p.read_until(lambda l: l == "ucciok"):
            line = line.strip()
            if line.startswith("id name "):
                self.engine_name = line[len("id name "):].strip()
            m = _OPTION_RE.match(line)
            if m:
                self.options[m.group(1).lower()] = {"name": m.group(1), "type": m.group(2), "rest": m.group(3)}
        if "usemillisec" in self.options:
            p.send("setoption usemillisec true")
            self.millisec = True
        for name, value in options.items():
            if name.lower() not in self.options:
                offered = ", ".join(d["name"] for d in self.options.values()) or "none"
                raise EngineError(f"engine {self.engine_name!r} has no option {name!r} (it offers: {offered})")
            p.send(f"setoption {self.options[name.lower()]['name']} {value}".rstrip())
        self._sync()

    def _sync(self) -> None:
        self.process.send("isready")
        self.process.read_until(lambda l: l == "readyok")

    def reset(self) -> None:
        if "newgame" in self.options:
            self.process.send("setoption newgame")
        self._sync()

    def go_command(self) -> str:
        (key, value), = self.work.items()
        if key in ("depth", "nodes"):
            return f"go {key} {int(value)}"
        amount = int(value) if self.millisec else max(1, round(int(value) / 1000))
        return f"go time {amount} movestogo 1"

    @staticmethod
    def position_command(state) -> str:
        fen, _, moves = state.to_text().partition(" moves ")
        return f"position fen {fen}" + (f" moves {moves}" if moves else "")

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        from games.base import NotationError
        start = time.perf_counter()
        p = self.process
        p.drain()
        p.send(self.position_command(state))
        p.send(self.go_command())
        patience = self.work.get("movetime", 0) / 1000.0 + self.timeout * (1 if "movetime" in self.work else 6)
        lines = p.read_until(lambda l: l.startswith("bestmove") or l == "nobestmove", patience)
        words = lines[-1].split()
        if words[0] == "nobestmove" or len(words) < 2:
            raise EngineError(f"engine {self.engine_name!r} answered {lines[-1]!r} in {state.to_text()!r}, "
                              "where legal moves remain")
        value = 0.0
        for line in reversed(lines):
            m = re.search(r"\bscore (?:cp )?(-?[0-9]{1,9})(?![0-9])", line)   # a longer number is no score
            if m:
                value = cp_to_value(int(m.group(1)))
                break
        try:
            action = state.parse_action(words[1])
        except NotationError as e:
            raise EngineError(f"engine {self.engine_name!r} answered bestmove {words[1]!r}, which is not legal "
                              f"in {state.to_text()!r}: {e}") from None
        return SearchResult(action, value, [], 0, time.perf_counter() - start)


__all__ = ["UCCIEnginePlayer"]
