"""A UCI-style line protocol, both ways: ZeroBoard as an engine, and external engines as players.

Serving (``python main.py uci --game G [--model PATH] [--size N] [--level NAME]``): one
command per line on stdin, replies on stdout, each line flushed.

- ``uci`` -> ``id name``, ``id author``, the options, ``uciok``; ``isready`` -> ``readyok``
- ``ucinewgame``: forget the search tree and go back to the start position
- ``position startpos [moves M ...]``, ``position fen FEN [moves M ...]`` (xiangqi) or
  ``position text TEXT [moves M ...]`` (any game's own position text; ``fen`` and ``text``
  are synonyms); moves in the game's notation (ICCS for xiangqi)
- ``go [nodes N] [movetime MS] [infinite] [wtime MS btime MS winc MS binc MS movestogo N]``;
  no limit means the level's budget. Answers ``info depth D nodes N nps X time MS score cp C
  pv ...`` lines (``nodes``: the root's visits, reused ones included; ``depth``: the length of
  the principal variation) and ``bestmove M`` (``bestmove (none)`` when the game is over).
  ``depth`` limits are ignored (MCTS has no depth); ``infinite`` runs until ``stop``.
- ``stop``, ``quit``; ``setoption name Level value hard``, ``setoption name Model value PATH``;
  ``d`` prints the board as ``info string`` lines.

Unknown or malformed commands and illegal moves are answered with one
``info string error ...`` line and change nothing (a bad ``position`` keeps the old one).
During a search ``isready`` is answered at once, ``stop`` and ``quit`` end it, and any other
command waits for it to finish (or, after ``go infinite``, stops it first).

Score: the search's value v (the expected outcome for the side to move, -1..1) is reported as
``cp = 400 * log10((1 + v) / (1 - v))``, the Elo-style logistic scale: v = 0.5 (a 75%
expected score) is 191 cp; clipped to +-2000.

Playing (`UCIEnginePlayer`, arena spec ``uci:COMMAND``): drives an external UCI engine. It
sets ``UCI_Variant`` to the game's id when the engine offers that variant, and finds how the
engine numbers ranks by comparing its ``go perft 1`` move list for the start position with
ours (fairy-stockfish writes xiangqi ranks 1..10 where ICCS writes 0..9).
"""
from __future__ import annotations

import argparse
import math
import queue
import re
import shlex
import subprocess
import sys
import threading
import time

from .mcts import SearchResult

#: most visits one ``go`` may spend (bounds ``go infinite``'s memory: ~200 bytes a node)
DEFAULT_NODE_CAP = 2_000_000
CP_LIMIT = 2000
#: interim ``info`` lines during a search, at most this often (seconds)
INFO_INTERVAL = 1.0


def value_to_cp(v: float) -> int:
    """The documented value -> centipawn mapping: 400 * log10((1 + v) / (1 - v)), clipped."""
    v = max(-0.99999, min(0.99999, float(v)))
    return int(round(max(-CP_LIMIT, min(CP_LIMIT, 400.0 * math.log10((1 + v) / (1 - v))))))


def cp_to_value(cp: float) -> float:
    """Inverse of `value_to_cp`: tanh(cp * ln 10 / 800)."""
    return math.tanh(float(cp) * math.log(10) / 800.0)


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


def principal_variation(tree, first_action: int | None = None, max_len: int = 24) -> list[str]:
    """Move texts of the most visited line from the root (starting with ``first_action`` if given)."""
    pv: list[str] = []
    node = 0
    action = first_action
    while len(pv) < max_len and tree.n_count[node] > 0:
        s, k = int(tree.n_start[node]), int(tree.n_count[node])
        if action is None:
            j = int(tree.e_n[s:s + k].argmax())
            if tree.e_n[s + j] <= 0:
                break
        else:
            hits = [i for i in range(k) if int(tree.e_action[s + i]) == action]
            if not hits:
                break
            j = hits[0]
        pv.append(tree.states[node].action_to_text(int(tree.e_action[s + j])))
        node = int(tree.e_child[s + j])
        action = None
        if node < 0:
            break
    return pv


class UCIEngine:
    """The protocol's state machine. ``handle_line(line)`` returns the reply lines; the
    stdio server (`serve`) instead runs ``go`` in a thread with ``run_line(line, emit)``
    so that ``stop`` and ``isready`` are answered during a search."""

    def __init__(self, game, model_path=None, level: str | None = None, evaluator=None,
                 node_cap: int = DEFAULT_NODE_CAP, seed: int | None = None):
        from .players import DEFAULT_LEVEL, LEVEL_SETTINGS, MCTSPlayer, load_evaluator
        self.game = game
        self.node_cap = node_cap
        self._level_settings = LEVEL_SETTINGS
        if evaluator is None:
            evaluator, self.evaluator_description = load_evaluator(game, model_path)
        else:
            self.evaluator_description = type(evaluator).__name__
        self.model_path = str(model_path) if model_path else ""
        self.player = MCTSPlayer(game, evaluator, seed=seed)
        self.level = level or DEFAULT_LEVEL
        self._apply_level(self.level)
        self.state = game.initial_state()
        self.quit_requested = False
        self._stop = threading.Event()

    # --- entry points -------------------------------------------------------
    def handle_line(self, line: str) -> list[str]:
        """Process one command synchronously; the reply lines (``go`` included) in order."""
        out: list[str] = []
        self._stop.clear()
        self.run_line(line, out.append)
        return out

    def start_go(self, line: str, emit) -> threading.Thread:
        """Run a ``go`` command in a thread (for `serve`); `stop` ends it early."""
        self._stop.clear()
        thread = threading.Thread(target=self.run_line, args=(line, emit), daemon=True)
        thread.start()
        return thread

    def run_line(self, line: str, emit) -> None:
        """Process one command, passing each reply line to ``emit`` as it is produced."""
        try:
            self._dispatch(line, emit)
        except Exception as e:  # the protocol must survive anything; say what went wrong
            emit(f"info string error internal: {type(e).__name__}: {_one_line(e)}")

    def stop(self) -> None:
        """Ask a running search to finish now (it still answers ``bestmove``)."""
        self._stop.set()

    # --- commands -------------------------------------------------------------
    def _dispatch(self, line: str, emit) -> None:
        tokens = line.split()
        if not tokens:
            return
        cmd = tokens[0].lower()
        handler = {
            "uci": self._cmd_uci, "isready": lambda t, e: e("readyok"), "ucinewgame": self._cmd_newgame,
            "position": self._cmd_position, "go": self._cmd_go, "setoption": self._cmd_setoption,
            "stop": lambda t, e: None, "quit": self._cmd_quit, "d": self._cmd_show,
            "debug": lambda t, e: None, "ponderhit": lambda t, e: None, "register": lambda t, e: None,
        }.get(cmd)
        if handler is None:
            emit(f"info string error unknown command {_one_line(tokens[0])[:40]!r}")
            return
        handler(tokens, emit)

    def _cmd_uci(self, tokens, emit) -> None:
        from .paths import __version__
        emit(f"id name ZeroBoard {__version__} ({self.game.key})")
        emit("id author the ZeroBoard authors")
        levels = " ".join(f"var {name}" for name in self._level_settings)
        emit(f"option name Level type combo default {self.level} {levels}")
        emit(f"option name Model type string default {self.model_path or '<empty>'}")
        emit("uciok")

    def _cmd_quit(self, tokens, emit) -> None:
        self._stop.set()
        self.quit_requested = True

    def _cmd_newgame(self, tokens, emit) -> None:
        self.player.reset()
        self.state = self.game.initial_state()

    def _cmd_show(self, tokens, emit) -> None:
        for row in self.state.render().splitlines():
            emit(f"info string {row}")
        emit(f"info string position {_one_line(self.state.to_text())}")

    def _cmd_position(self, tokens, emit) -> None:
        from games.base import NotationError
        if len(tokens) < 2:
            emit("info string error position: expected 'startpos', 'fen FEN' or 'text TEXT'")
            return
        kind = tokens[1].lower()
        lowered = [t.lower() for t in tokens]
        cut = lowered.index("moves", 2) if "moves" in lowered[2:] else len(tokens)
        try:
            if kind == "startpos":
                if cut != 2:
                    emit(f"info string error position: unexpected {_one_line(tokens[2])[:40]!r} after startpos")
                    return
                state = self.game.initial_state()
            elif kind in ("fen", "text"):
                if cut == 2:
                    emit(f"info string error position {kind}: the position is missing")
                    return
                state = self.game.state_from_text(" ".join(tokens[2:cut]))
            else:
                emit(f"info string error position: expected 'startpos', 'fen' or 'text', "
                     f"not {_one_line(tokens[1])[:40]!r}")
                return
        except (NotationError, ValueError) as e:
            emit(f"info string error position: {_one_line(e)}")
            return
        for i, tok in enumerate(tokens[cut + 1:]):
            try:
                state = state.play(state.parse_action(tok))
            except (NotationError, ValueError) as e:
                emit(f"info string error position: illegal move {_one_line(tok)[:40]!r} (move {i + 1}): "
                     f"{_one_line(e)}")
                return
        self.state = state

    def _cmd_setoption(self, tokens, emit) -> None:
        lowered = [t.lower() for t in tokens]
        if len(tokens) < 3 or lowered[1] != "name":
            emit("info string error setoption: expected 'setoption name NAME [value VALUE]'")
            return
        vi = lowered.index("value") if "value" in lowered[2:] else len(tokens)
        name = " ".join(tokens[2:vi]).lower()
        value = " ".join(tokens[vi + 1:])
        if name == "level":
            if value not in self._level_settings:
                emit(f"info string error setoption: unknown level {value[:40]!r}; "
                     f"choose one of {', '.join(self._level_settings)}")
                return
            self._apply_level(value)
        elif name == "model":
            from .checkpoint import CheckpointError
            from .players import load_evaluator
            try:
                evaluator, desc = load_evaluator(self.game, value if value and value != "<empty>" else None)
            except (CheckpointError, OSError, ValueError) as e:
                emit(f"info string error setoption: {_one_line(e)}")
                return
            self.player.mcts.evaluator = evaluator
            self.player.reset()
            self.model_path, self.evaluator_description = value, desc
            emit(f"info string using {desc}")
        else:
            emit(f"info string error setoption: unknown option {' '.join(tokens[2:vi])[:40]!r} "
                 "(options: Level, Model)")

    def _apply_level(self, name: str) -> None:
        lv = self._level_settings[name]
        self.level = name
        self.level_sims, self.level_seconds = lv.sims, lv.seconds
        self.player.temperature = lv.temperature

    def _parse_go(self, tokens, emit):
        """(sims, seconds, notes) for a ``go`` command, or None after reporting an error."""
        numeric = {"nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "depth", "mate"}
        limits: dict[str, int] = {}
        infinite = False
        i = 1
        while i < len(tokens):
            t = tokens[i].lower()
            if t in ("infinite", "ponder"):
                infinite = infinite or t == "infinite"
                i += 1
            elif t in numeric:
                raw = tokens[i + 1] if i + 1 < len(tokens) else ""
                if not re.fullmatch(r"-?\d{1,12}", raw):
                    emit(f"info string error go: {t} needs a whole number, not {_one_line(raw)[:40]!r}")
                    return None
                limits[t] = int(raw)
                i += 2
            else:
                emit(f"info string error go: unknown or unsupported parameter {_one_line(tokens[i])[:40]!r}")
                return None
        for key in ("nodes", "movetime"):
            if key in limits and limits[key] <= 0:
                emit(f"info string error go: {key} must be positive")
                return None
        notes = ["depth limits are not supported; using the other limits"] if "depth" in limits else []
        cap = self.node_cap
        if infinite:
            return cap, None, notes
        if "nodes" in limits or "movetime" in limits:
            sims = min(limits.get("nodes", cap), cap)
            seconds = limits["movetime"] / 1000.0 if "movetime" in limits else None
            return sims, seconds, notes
        clock = limits.get("wtime" if self.state.current_player == 0 else "btime")
        if clock is not None:
            inc = limits.get("winc" if self.state.current_player == 0 else "binc", 0)
            moves_left = max(limits.get("movestogo", 30), 1)
            budget = min(max(clock, 0) / moves_left + 0.8 * max(inc, 0), 0.5 * max(clock, 0)) / 1000.0
            return cap, max(budget, 0.01), notes
        return min(self.level_sims, cap), self.level_seconds, notes

    def _cmd_go(self, tokens, emit) -> None:
        parsed = self._parse_go(tokens, emit)
        if parsed is None:
            return
        sims, seconds, notes = parsed
        for note in notes:
            emit(f"info string {note}")
        if self.state.is_terminal():
            emit("info string error go: the game is over; there is no move to search")
            emit("bestmove (none)")
            return
        player = self.player
        player.sims, player.seconds = sims, seconds
        start = time.perf_counter()
        last = [start]

        def on_progress(fraction, partial):
            now = time.perf_counter()
            if now - last[0] >= INFO_INTERVAL and player.tree is not None:
                last[0] = now
                emit(self._info_line(player.tree, partial, now - start, None))

        result = player.choose(self.state, on_progress=on_progress, should_stop=self._stop.is_set)
        elapsed = time.perf_counter() - start
        emit(self._info_line(player.tree, result, elapsed, result.sims))
        emit(f"bestmove {self.state.action_to_text(result.action)}")

    def _info_line(self, tree, result: SearchResult, elapsed: float, sims_run: int | None) -> str:
        pv = principal_variation(tree, result.action)
        parts = [f"info depth {max(len(pv), 1)} nodes {int(tree.root_n)}"]
        if sims_run is not None:
            parts.append(f"nps {int(sims_run / max(elapsed, 1e-6))}")
        parts.append(f"time {int(elapsed * 1000)} score cp {value_to_cp(result.value)}")
        if pv:
            parts.append("pv " + " ".join(pv))
        return " ".join(parts)


def serve(engine: UCIEngine, stdin=None, stdout=None) -> int:
    """Run the protocol on text streams until ``quit`` or end of input."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    lock = threading.Lock()
    broken = threading.Event()

    def write(line: str) -> None:
        with lock:
            try:
                stdout.write(line + "\n")
                stdout.flush()
            except (BrokenPipeError, ValueError):
                broken.set()

    search: threading.Thread | None = None
    infinite = False

    def finish_search(stop: bool) -> None:
        nonlocal search
        if search is not None:
            if stop:
                engine.stop()
            search.join()
            search = None

    while not broken.is_set():
        line = stdin.readline()
        if not line:
            break
        tokens = line.split()
        cmd = tokens[0].lower() if tokens else ""
        if search is not None and not search.is_alive():
            finish_search(False)
        if search is not None:
            if cmd == "isready":
                write("readyok")
                continue
            if not tokens:
                continue
            # stop and quit end the search; anything else waits for it (or stops an infinite one)
            finish_search(cmd in ("stop", "quit") or infinite)
            if cmd == "stop":
                continue
        if cmd == "go":
            infinite = "infinite" in (t.lower() for t in tokens)
            search = engine.start_go(line, write)
            continue
        for reply in engine.handle_line(line):
            write(reply)
        if engine.quit_requested:
            break
    finish_search(True)
    return 0


def main(argv: list[str]) -> int:
    """``python main.py uci``: serve the protocol on stdin/stdout."""
    from .cli import ArgParser, UsageError, game_from_args, run_command
    from .players import LEVELS
    parser = ArgParser(prog="main.py uci", description="Speak a UCI-style protocol on stdin/stdout.")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    parser.add_argument("--model", help="model file (default: the shipped model, else rollout search)")
    parser.add_argument("--level", choices=LEVELS, help="initial level (default: strong)")

    def body(args) -> int:
        from .checkpoint import CheckpointError
        game = game_from_args(args.game, args.size)
        try:
            engine = UCIEngine(game, args.model, args.level)
        except (CheckpointError, OSError) as e:
            raise UsageError(str(e)) from None
        return serve(engine)

    return run_command(parser, argv, body)


# --- external engines as players ---------------------------------------------

class UCIEngineError(RuntimeError):
    """An external engine that cannot be started or answered something unusable."""


_OPTION_RE = re.compile(r"^option name (.+?) type (\S+)(.*)$")


def shift_ranks(move: str, offset: int) -> str:
    """Add ``offset`` to every rank number written after a file letter (``h2e2`` +1 -> ``h3e3``)."""
    if offset == 0:
        return move
    return re.sub(r"(?<=[a-z])(\d+)", lambda m: str(int(m.group(1)) + offset), move)


class UCIEnginePlayer:
    """An external UCI engine as a player (``choose(state)`` like the other players).

    ``options`` are sent as ``setoption`` commands; a value ``min`` or ``max`` takes the bound
    the engine declares for that option, and a value the engine's declaration rules out (a spin
    outside its bounds, an unlisted combo value, an unknown option) raises UCIEngineError.
    Call `close` (or use ``with``) to end the process.
    """

    def __init__(self, game, command, movetime_ms: int = 100, options: dict | None = None,
                 timeout: float = 10.0, rank_offset: int | None = None):
        self.game = game
        self.command = command
        self.movetime_ms = int(movetime_ms)
        self.timeout = timeout
        argv = shlex.split(command) if isinstance(command, str) else list(command)
        if not argv:
            raise UCIEngineError("no engine command given")
        try:
            self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                         stderr=subprocess.DEVNULL, text=True, bufsize=1)
        except (OSError, ValueError) as e:
            raise UCIEngineError(f"cannot start engine {command!r}: {e}") from None
        self._lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read_stdout, daemon=True).start()
        self.engine_name = argv[0] if argv else "engine"
        self.options: dict[str, dict] = {}
        try:
            self._handshake(dict(options or {}))
            self.rank_offset = self._detect_rank_offset() if rank_offset is None else rank_offset
        except BaseException:
            self.close()
            raise
        self.name = f"uci {self.engine_name}"

    # --- process plumbing -----------------------------------------------------
    def _read_stdout(self) -> None:
        for line in self.proc.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _send(self, line: str) -> None:
        try:
            self.proc.stdin.write(line + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError, ValueError):
            raise UCIEngineError(f"engine {self.engine_name!r} has exited") from None

    def _read_until(self, done, timeout: float) -> list[str]:
        lines = []
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise UCIEngineError(f"engine {self.engine_name!r} did not answer within {timeout:.1f} s")
            try:
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._lines.put(None)
                raise UCIEngineError(f"engine {self.engine_name!r} exited unexpectedly")
            lines.append(line)
            if done(line.strip()):
                return lines

    def _drain(self) -> None:
        """Drop lines left over from earlier commands (a late ``bestmove`` after a ``stop``)."""
        while True:
            try:
                line = self._lines.get_nowait()
            except queue.Empty:
                return
            if line is None:
                self._lines.put(None)
                return

    def _sync(self) -> None:
        self._send("isready")
        self._read_until(lambda l: l == "readyok", self.timeout)

    def _handshake(self, options: dict) -> None:
        self._send("uci")
        for line in self._read_until(lambda l: l == "uciok", self.timeout):
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
            self._send(f"setoption name {decl['name']} value {value}")
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
            lo, hi = int(decl.get("min", -2**63)), int(decl.get("max", 2**63))
            if not re.fullmatch(r"-?\d+", value) or not lo <= int(value) <= hi:
                raise UCIEngineError(f"option {name!r} takes a whole number from {lo} to {hi}, not {value!r}")
        elif kind == "check" and value.lower() not in ("true", "false"):
            raise UCIEngineError(f"option {name!r} takes true or false, not {value!r}")
        elif kind == "combo" and decl["vars"] and value not in decl["vars"]:
            raise UCIEngineError(f"option {name!r} takes one of {', '.join(decl['vars'][:12])}, not {value!r}")
        return value

    def _detect_rank_offset(self) -> int:
        """0, +1 or -1: how the engine's rank numbers differ from ours (by ``go perft 1``)."""
        start = self.game.initial_state()
        self._send("position startpos")
        self._send("go perft 1")
        self._send("isready")
        lines = self._perft_lines()
        if lines is None:  # no perft here: in case it took "go perft" for an ordinary search, end that
            self._send("stop")
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
                line = self._lines.get(timeout=left)
            except queue.Empty:
                continue
            if line is None:
                self._lines.put(None)
                raise UCIEngineError(f"engine {self.engine_name!r} exited unexpectedly")
            line = line.strip()
            if line == "readyok":
                ready_at = time.monotonic()
            elif line.startswith("Nodes searched"):
                return lines
            else:
                lines.append(line)

    # --- the player API -----------------------------------------------------------
    def reset(self) -> None:
        self._send("ucinewgame")
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
        self._drain()
        self._send(self.position_command(state))
        self._send(f"go movetime {self.movetime_ms}")
        lines = self._read_until(lambda l: l.startswith("bestmove"), self.movetime_ms / 1000.0 + self.timeout)
        words = lines[-1].split()
        best = words[1] if len(words) > 1 else "(none)"
        value = 0.0
        for line in reversed(lines):
            m = re.search(r"\bscore (cp|mate) (-?\d+)", line)
            if m:
                value = cp_to_value(int(m.group(2))) if m.group(1) == "cp" else (1.0 if int(m.group(2)) > 0 else -1.0)
                break
        try:
            action = state.parse_action(shift_ranks(best, -self.rank_offset))
        except NotationError as e:
            raise UCIEngineError(f"engine {self.engine_name!r} answered bestmove {best!r}, which is not legal in "
                                 f"{state.to_text()!r}: {e}") from None
        return SearchResult(action, value, [], 0, time.perf_counter() - start)

    def close(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is None or proc.poll() is not None:
            return
        try:
            proc.stdin.write("quit\n")
            proc.stdin.flush()
            proc.wait(timeout=2)
        except Exception:
            proc.kill()
            proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass


__all__ = ["UCIEngine", "UCIEnginePlayer", "UCIEngineError", "serve", "main", "value_to_cp", "cp_to_value",
           "principal_variation", "shift_ranks"]
