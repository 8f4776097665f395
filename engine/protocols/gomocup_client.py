"""External Gomocup (Piskvork) brains as gomoku players: arena spec
``gomocup:COMMAND[@WORK]`` with WORK ``nodesN`` (``INFO max_node N``: fixed work) or ``MS``
(``INFO timeout_turn MS``).

The client sends ``START size`` and waits for ``OK``, then the ``INFO`` lines (the game's rule:
``rule 0`` freestyle, ``1`` exactly five, ``4`` renju; ``timeout_match 0``: no match clock).
A brain's move on black's forbidden point under renju loses it the game (`ForbiddenPoint`, an
`engine.play.arena.LostByRule`: the match goes on); any other move the rules refuse is an
EngineError. A move is ``BEGIN`` on the empty board, ``TURN x,y`` when the brain knows the position but the opponent's last move, else the whole
position as ``BOARD`` ... ``DONE``; the brain answers ``x,y`` (zero-based, y from the top).
`GomocupBrainPlayer.swap2` asks the brain its part of a Swap2 opening with Gomocup's
``SWAP2BOARD`` ... ``DONE`` (after a fresh ``START``), as `engine.protocols.gomocup` answers it;
the stones go as ``x,y,who`` lines like BOARD's (Gomocup's page shows ``x,y``; Rapfi reads the
``who`` and refuses lines without it; our brain takes both).
``MESSAGE``/``DEBUG``/``SUGGEST`` lines are skipped; ``ERROR`` and ``UNKNOWN`` end the game
with an EngineError that quotes them.
"""
from __future__ import annotations

import re
import time

from ..core.mcts import SearchResult
from ..play.arena import LostByRule
from .process import EngineError, EngineProcess, ProcessPlayer

_MOVE_RE = re.compile(r"^\s*([0-9]{1,9})\s*,\s*([0-9]{1,9})\s*$")   # more digits: not a move (int() refuses 4,300)
#: timeout_turn sent with max_node: a safety limit, not the work (the node count decides)
NODE_MODE_TURN_MS = 120_000


class ForbiddenPoint(LostByRule):
    """A brain playing black under renju played a forbidden point: it loses the game."""


class BrainRefused(EngineError):
    """A brain answered ERROR or UNKNOWN (it did not understand what it was sent)."""


class GomocupBrainPlayer(ProcessPlayer):
    """An external Gomocup brain as a player (``choose(state)`` like the other players)."""

    quit_line = "END"

    def __init__(self, game, command, work: dict | None = None, timeout: float = 10.0,
                 keep_transcript: bool = False):
        if game.id != "gomoku":
            raise EngineError(f"Gomocup brains play gomoku, not {game.key}")
        self.game = game
        self.work = dict(work) if work else {"movetime": 1000}
        if "depth" in self.work:
            raise EngineError("the Gomocup protocol has no depth limit; use nodesN or MS")
        self.timeout = timeout
        self.process = EngineProcess(command, timeout, keep_transcript)
        self.engine_name = self.process.name
        self.known: tuple[int, ...] | None = None  # the moves the brain has, its own reply included
        try:
            self._start()
            self.process.send("ABOUT")
            about = self._reply(self.timeout)
            m = re.search(r'name="([^"]*)"', about)
            if m:
                self.engine_name = m.group(1)
        except BaseException:
            self.close()
            raise
        self.name = f"gomocup {self.engine_name}"

    def _reply(self, timeout: float) -> str:
        """The next line that is not MESSAGE/DEBUG/SUGGEST; EngineError for ERROR/UNKNOWN."""
        deadline = time.monotonic() + timeout
        while True:
            line = self.process.read_line(max(deadline - time.monotonic(), 0.0)).strip()
            word = line.split(" ", 1)[0].upper()
            if word in ("MESSAGE", "DEBUG", "SUGGEST") or not line:
                continue
            if word in ("ERROR", "UNKNOWN"):
                raise BrainRefused(f"brain {self.engine_name!r} answered {line!r}")
            return line

    def _start(self) -> None:
        p = self.process
        p.send(f"START {self.game.size}")
        reply = self._reply(self.timeout)
        if reply.upper() != "OK":
            raise EngineError(f"brain {self.engine_name!r} answered {reply!r} to START {self.game.size}")
        if "nodes" in self.work:
            p.send(f"INFO max_node {int(self.work['nodes'])}")
            p.send(f"INFO timeout_turn {NODE_MODE_TURN_MS}")
        else:
            p.send(f"INFO timeout_turn {int(self.work['movetime'])}")
        p.send("INFO timeout_match 0")
        from games.renju import GOMOCUP_RULE
        p.send(f"INFO rule {GOMOCUP_RULE[self.game.rule]}")
        self.known = ()

    def reset(self) -> None:
        if self.known:
            self.known = None  # the next move starts a fresh board with START

    def _point(self, action: int) -> str:
        y, x = divmod(action, self.game.size)
        return f"{x},{y}"

    def _ask(self, moves: tuple[int, ...]) -> None:
        """Send what the brain needs to answer a move for ``moves``: the opponent's last move
        where the brain knows the rest, else the whole board (after START when needed)."""
        p = self.process
        p.drain()
        if self.known is None:
            self._start()
        if not moves and self.known == ():
            p.send("BEGIN")
        elif self.known is not None and moves[:-1] == self.known and len(moves) == len(self.known) + 1:
            p.send(f"TURN {self._point(moves[-1])}")
        else:
            if self.known:
                self._start()
            mover = len(moves) % 2
            p.send("BOARD")
            for i, a in enumerate(moves):
                p.send(f"{self._point(a)},{1 if i % 2 == mover else 2}")
            p.send("DONE")

    def swap2(self, state) -> tuple[str, list[int]]:
        """The brain's Swap2 step on ``state`` (the opening stones so far: 0, 3 or 5):
        ``("place", [3 stones])`` on the empty board; after three ``("black", [])`` (it answered
        ``SWAP``), ``("white", [4th])`` or ``("two", [4th, 5th])``; after five ``("black", [])`` or
        ``("white", [6th])``. EngineError for a reply that does not fit (wrong count, a point
        taken or illegal). The brain is sent the whole board on its next move."""
        from games.base import NotationError
        moves = tuple(state.moves)
        if len(moves) not in (0, 3, 5):
            raise EngineError(f"a Swap2 step comes after 0, 3 or 5 stones, not {len(moves)}")
        p = self.process
        p.drain()
        try:
            self._start()
        except BrainRefused:   # Rapfi, right after a Swap2 answer, takes START's size for a command: once more
            self._start()
        self.known = None
        p.send("SWAP2BOARD")
        for i, a in enumerate(moves):   # with BOARD's "who" (1 own): Rapfi reads it, plain x,y it refuses
            p.send(f"{self._point(a)},{1 if i % 2 == len(moves) % 2 else 2}")
        p.send("DONE")
        reply = self._reply(NODE_MODE_TURN_MS / 1000.0 if "nodes" in self.work
                            else 10 * self.work.get("movetime", 1000) / 1000.0 + self.timeout)
        if reply.strip().upper() == "SWAP" and moves:
            return "black", []
        points = reply.split()
        want = {0: (3,), 3: (1, 2), 5: (1,)}[len(moves)]
        if len(points) not in want:
            raise EngineError(f"brain {self.engine_name!r} answered {reply!r} to SWAP2BOARD with "
                              f"{len(moves)} stones")
        actions, s = [], state
        for text in points:
            m = _MOVE_RE.match(text)
            x, y = (int(m.group(1)), int(m.group(2))) if m else (-1, -1)
            n = self.game.size
            try:
                if not (0 <= x < n and 0 <= y < n):
                    raise NotationError(f"{text!r} is not a point of the {n}x{n} board")
                s = s.play(y * n + x)
            except NotationError as e:
                raise EngineError(f"brain {self.engine_name!r} answered {reply!r} to SWAP2BOARD: {e}") from None
            actions.append(y * n + x)
        kind = "place" if not moves else "white" if len(actions) == 1 else "two"
        return kind, actions

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        from games.base import NotationError
        start = time.perf_counter()
        moves = tuple(state.moves)
        patience = (self.work.get("movetime", 0) / 1000.0 + self.timeout) if "movetime" in self.work \
            else NODE_MODE_TURN_MS / 1000.0
        try:
            self._ask(moves)
            reply = self._reply(patience)
        except BrainRefused:
            # a brain that lost track of the game (it once answered a fresh START with "ERROR
            # Unknown command: 15" after 400 good games): start it afresh with the whole
            # board, once, before giving up
            self.known = None
            self._ask(moves)
            reply = self._reply(patience)
        m = _MOVE_RE.match(reply)
        if m is None:
            raise EngineError(f"brain {self.engine_name!r} answered {reply!r}, not a move x,y")
        x, y = int(m.group(1)), int(m.group(2))
        n = self.game.size
        if not (0 <= x < n and 0 <= y < n) or state.board_array()[y, x] != 0:
            raise EngineError(f"brain {self.engine_name!r} played {x},{y}, which is not an empty point "
                              f"of the {n}x{n} board")
        action = y * n + x
        if action in getattr(state, "forbidden_actions", list)():
            # renju: black's forbidden point loses the game for black (the rules' own penalty),
            # which ends this game, not the match
            raise ForbiddenPoint(f"brain {self.engine_name!r} played {x},{y} ({state.action_to_text(action)}), "
                                 "forbidden for black under renju",
                                 f"black played the forbidden point {state.action_to_text(action)}")
        try:
            state.play(action)
        except NotationError as e:
            raise EngineError(f"brain {self.engine_name!r} played {x},{y}: {e}") from None
        self.known = moves + (action,)
        return SearchResult(action, 0.0, [], 0, time.perf_counter() - start)


__all__ = ["BrainRefused", "ForbiddenPoint", "GomocupBrainPlayer"]
