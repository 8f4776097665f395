"""External UCI engines as players (arena spec ``uci:COMMAND[@WORK]``: ``go movetime MS``,
``go depth N`` or ``go nodes N``; process handling in `engine.protocols.process`).

Playing (`UCIEnginePlayer`, arena spec ``uci:COMMAND``): drives an external UCI engine. It
sets ``UCI_Variant`` to the game's id when the engine offers that variant, and finds how the
engine numbers ranks by comparing its ``go perft 1`` move list for the start position with
ours (fairy-stockfish writes xiangqi ranks 1..10 where ICCS writes 0..9).
"""
from __future__ import annotations

import re
import time

from ..core.mcts import SearchResult
from .common import cp_to_value
from .process import EngineError, EngineProcess, ProcessPlayer


UCIEngineError = EngineError  # the name the UCI client's callers know

_OPTION_RE = re.compile(r"^option name (.+?) type (\S+)(.*)$")


#: a whole number as an option's bound or value (ASCII digits: int() refuses '²' and 4,300 digits)
_WHOLE_RE = re.compile(r"-?[0-9]{1,19}")


def _bound(text, default: int) -> int:
    """A spin option's declared ``min`` or ``max``; ``default`` (no bound) where the engine's
    declaration is missing or no whole number."""
    return int(text) if isinstance(text, str) and _WHOLE_RE.fullmatch(text) else default


def shift_ranks(move: str, offset: int) -> str:
    """Add ``offset`` to every rank number written after a file letter (``h2e2`` +1 -> ``h3e3``)."""
    if offset == 0:
        return move
    return re.sub(r"(?<=[a-z])([0-9]{1,9})", lambda m: str(int(m.group(1)) + offset), move)


def go_command(work: dict) -> str:
    """The UCI ``go`` line for a work dict ({"movetime": ms} | {"depth": n} | {"nodes": n})."""
    (key, value), = work.items()
    return f"go {key} {int(value)}"


class UCIEnginePlayer(ProcessPlayer):
    """An external UCI engine as a player (``choose(state)`` like the other players).

    ``options`` are sent as ``setoption`` commands; a value ``min`` or ``max`` takes the bound
    the engine declares for that option, and a value the engine's declaration rules out (a spin
    outside its bounds, an unlisted combo value, an unknown option) raises UCIEngineError.
    ``work`` fixes the work per move instead of ``movetime_ms``: {"depth": n} or {"nodes": n}
    (the same search whatever the machine's load). Call `close` (or use ``with``) to end the process.
    """

    def __init__(self, game, command, movetime_ms: int = 100, options: dict | None = None,
                 timeout: float = 10.0, rank_offset: int | None = None, work: dict | None = None,
                 keep_transcript: bool = False):
        self.game = game
        self.command = command
        self.movetime_ms = int(movetime_ms)
        self.work = dict(work) if work else {"movetime": self.movetime_ms}
        self.timeout = timeout
        self.process = EngineProcess(command, timeout, keep_transcript)
        self.engine_name = self.process.name
        self.options: dict[str, dict] = {}
        try:
            self._handshake(dict(options or {}))
            self.rank_offset = self._detect_rank_offset() if rank_offset is None else rank_offset
        except BaseException:
            self.close()
            raise
        self.name = f"uci {self.engine_name}"

    def _sync(self) -> None:
        self.process.send("isready")
        self.process.read_until(lambda l: l == "readyok", self.timeout)

    def _handshake(self, options: dict) -> None:
        self.process.send("uci")
        for line in self.process.read_until(lambda l: l == "uciok", self.timeout):
            line = line.strip()
            if line.startswith("id name "):
                self.engine_name = line[len("id name "):].strip()
            m = _OPTION_RE.match(line)
            if m:
                rest = m.group(3)
                info = {"type": m.group(2)}
                for key in ("default", "min", "max"):
                    km = re.search(rf"\b{key} (\S+)", rest)
                    if km:
                        info[key] = km.group(1)
                info["vars"] = re.findall(r"\bvar (\S+)", rest)
                self.options[m.group(1).lower()] = {"name": m.group(1), **info}
        variant = self.options.get("uci_variant")
        if variant and not any(k.lower() == "uci_variant" for k in options) and self.game.id in variant["vars"]:
            options = {"UCI_Variant": self.game.id, **options}
        for name, value in options.items():
            decl = self.options.get(name.lower())
            if decl is None:
                offered = ", ".join(d["name"] for d in self.options.values()) or "none"
                raise UCIEngineError(f"engine {self.engine_name!r} has no option {name!r} (it offers: {offered})")
            value = self._checked_value(decl, str(value))
            self.process.send(f"setoption name {decl['name']} value {value}")
        self._sync()

    def _checked_value(self, decl: dict, value: str) -> str:
        """``value`` for a declared option, with ``min``/``max`` resolved; UCIEngineError when the
        engine would not accept it (a spin outside its bounds, a combo value it does not list)."""
        name, kind = decl["name"], decl["type"]
        if value.lower() in ("min", "max"):
            if value.lower() not in decl:
                raise UCIEngineError(f"option {name!r} declares no {value.lower()} value")
            return decl[value.lower()]
        if kind == "spin":
            lo, hi = _bound(decl.get("min"), -2**63), _bound(decl.get("max"), 2**63)
            if not _WHOLE_RE.fullmatch(value) or not lo <= int(value) <= hi:
                raise UCIEngineError(f"option {name!r} takes a whole number from {lo} to {hi}, not {value!r}")
        elif kind == "check" and value.lower() not in ("true", "false"):
            raise UCIEngineError(f"option {name!r} takes true or false, not {value!r}")
        elif kind == "combo" and decl["vars"] and value not in decl["vars"]:
            raise UCIEngineError(f"option {name!r} takes one of {', '.join(decl['vars'][:12])}, not {value!r}")
        return value

    def _detect_rank_offset(self) -> int:
        """0, +1 or -1: how the engine's rank numbers differ from ours (by ``go perft 1``)."""
        start = self.game.initial_state()
        self.process.send("position startpos")
        self.process.send("go perft 1")
        self.process.send("isready")
        lines = self._perft_lines()
        if lines is None:  # no perft here: in case it took "go perft" for an ordinary search, end that
            self.process.send("stop")
            self._sync()
            return 0
        theirs = {m.group(1) for l in lines if (m := re.match(r"^(\S+): \d+$", l.strip()))}
        ours = {start.action_to_text(a) for a in start.legal_actions()}
        for offset in (0, 1, -1):
            if {shift_ranks(t, offset) for t in ours} == theirs:
                return offset
        if theirs:
            raise UCIEngineError(f"engine {self.engine_name!r} does not play {self.game.key}: its moves from the "
                                 f"start position ({', '.join(sorted(theirs)[:6])}, ...) are not ours "
                                 f"({', '.join(sorted(ours)[:6])}, ...)")
        return 0

    def _perft_lines(self, grace: float = 0.5) -> list[str] | None:
        """Lines up to ``Nodes searched``; None when none came within ``grace`` seconds after
        ``readyok`` (perft runs in the search thread, so its output may follow the readyok)."""
        lines: list[str] = []
        deadline = time.monotonic() + self.timeout
        ready_at = None
        while True:
            now = time.monotonic()
            left = (ready_at + grace - now) if ready_at is not None else (deadline - now)
            if left <= 0:
                return None
            try:
                line = self.process.read_line(left).strip()
            except EngineError:
                if self.process.running:
                    continue   # nothing yet: the deadline decides
                raise
            if line == "readyok":
                ready_at = time.monotonic()
            elif line.startswith("Nodes searched"):
                return lines
            else:
                lines.append(line)

    # --- the player API -----------------------------------------------------------
    def reset(self) -> None:
        self.process.send("ucinewgame")
        self._sync()

    def position_command(self, state) -> str:
        """The ``position`` line for ``state``: startpos plus moves, else its own text as a FEN."""
        texts: list[str] = []
        s = self.game.initial_state()
        try:
            for a in state.moves:
                texts.append(s.action_to_text(a))
                s = s.apply(a)
            from_start = s.key() == state.key()
        except Exception:  # the moves do not start from the start position (a FEN game)
            from_start = False
        if from_start:
            head = "position startpos"
        else:
            fen, _, tail = state.to_text().partition(" moves ")
            head, texts = f"position fen {fen}", tail.split()
        if texts:
            head += " moves " + " ".join(shift_ranks(t, self.rank_offset) for t in texts)
        return head

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        from games.base import NotationError
        start = time.perf_counter()
        self.process.drain()
        self.process.send(self.position_command(state))
        self.process.send(go_command(self.work))
        lines = self.process.read_until(lambda l: l.startswith("bestmove"), self.work.get("movetime", 0) / 1000.0
                                 + self.timeout * (1 if "movetime" in self.work else 6))
        words = lines[-1].split()
        best = words[1] if len(words) > 1 else "(none)"
        value = 0.0
        for line in reversed(lines):
            m = re.search(r"\bscore (cp|mate) (-?[0-9]{1,9})(?![0-9])", line)   # a longer number is no score
            if m:
                value = cp_to_value(int(m.group(2))) if m.group(1) == "cp" else (1.0 if int(m.group(2)) > 0 else -1.0)
                break
        try:
            action = state.parse_action(shift_ranks(best, -self.rank_offset))
        except NotationError as e:
            raise UCIEngineError(f"engine {self.engine_name!r} answered bestmove {best!r}, which is not legal in "
                                 f"{state.to_text()!r}: {e}") from None
        return SearchResult(action, value, [], 0, time.perf_counter() - start)


__all__ = ["UCIEnginePlayer", "UCIEngineError", "go_command", "shift_ranks"]
