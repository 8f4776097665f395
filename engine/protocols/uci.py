"""A UCI-style line protocol: ZeroBoard as an engine other programs and GUIs can drive.

Serving (``python main.py uci --game G [--model PATH] [--size N] [--level NAME]``): one
command per line on stdin, replies on stdout, each line flushed.

- ``uci`` -> ``id name``, ``id author``, the options, ``uciok``; ``isready`` -> ``readyok``
- ``ucinewgame``: forget the search tree and go back to the start position
- ``position startpos [moves M ...]``, ``position fen FEN [moves M ...]`` (xiangqi) or
  ``position text TEXT [moves M ...]`` (any game's own position text; ``fen`` and ``text``
  are synonyms); moves in the game's notation (ICCS for xiangqi)
- ``go [searchmoves M ...] [ponder] [nodes N] [movetime MS] [infinite] [wtime MS btime MS winc MS
  binc MS movestogo N]``; no limit means the level's budget; ``searchmoves`` restricts the
  answer to the moves listed. Answers ``info depth D nodes N nps X time MS score cp C
  pv ...`` lines (``nodes``: the root's visits, reused ones included; ``depth``: the length of
  the principal variation) and ``bestmove M`` (``bestmove (none)`` when the game is over).
  ``depth`` limits are ignored (MCTS has no depth); ``infinite`` runs until ``stop``.
  ``go ponder`` searches without a limit until ``ponderhit`` (then the search goes on under
  the command's limits, counted from the ponderhit) or ``stop``; ``bestmove`` comes only
  after one of them.
- ``UCI_Variant`` (a combo of the game's id, which GUIs such as cutechess need before they
  play a variant with an engine): setting it to ``xiangqi`` switches the moves to the numbering
  of the programs that send it (cutechess, Fairy-Stockfish): ranks 1..10 (``h3e3``) instead
  of ICCS's 0..9 (``h2e2``), in ``position``, ``searchmoves``, ``bestmove`` and ``pv``.
  ``go perft D`` lists each legal move with its count of positions D plies on, then
  ``Nodes searched: N`` (as Fairy-Stockfish does; clients learn the numbering from it).
- ``stop``, ``quit``; ``setoption name Level value hard``, ``setoption name Model value PATH``,
  ``setoption name Hash value MB`` (the search tree's memory budget; a search stops growing
  the tree at the node count that fits, from the game's measured bytes per node),
  ``setoption name Threads value N`` (search threads sharing the tree; ``--threads``, default 1);
  ``d`` prints the board as ``info string`` lines.

The handshake is answered at once: torch and the model load on a background thread that
`serve` starts after the first command's answer (`SearchSession`); ``isready`` and ``go``
wait for them. ``--model rollout`` (or ``setoption name Model value rollout``) plays with the
rollout search, no torch.

Unknown or malformed commands and illegal moves are answered with one
``info string error ...`` line and change nothing (a bad ``position`` keeps the old one).
During a search ``isready`` is answered at once, ``ponderhit`` turns pondering into the
normal search, ``stop`` and ``quit`` end it, and any other command waits for it to finish (or,
after ``go infinite`` or ``go ponder``, stops it first).

Score: the search's value v (the expected outcome for the side to move, -1..1) is reported as
``cp = 400 * log10((1 + v) / (1 - v))``, the Elo-style logistic scale: v = 0.5 (a 75%
expected score) is 191 cp; clipped to +-2000.

External engines as players live in `engine.protocols.uci_client`.
"""
from __future__ import annotations

import math
import re
import sys
import threading
import time


from ..core.mcts import SearchResult
from ..play.players import MAX_THREADS
from .common import (ROLLOUT, LineWriter, one_line, parse_int, principal_variation, tolerant_input,
                     value_to_cp)
from .session import SearchSession, clock_budget
from .uci_client import shift_ranks

#: the search tree's memory budget (the ``Hash`` option, MB): ``go infinite`` and clock
#: searches stop at the node count that fits. A node costs ~0.3 KB in connect4 to ~2 KB in
#: gomoku (docs/performance.md, tree figures), so one budget gives each game its own node cap.
DEFAULT_HASH_MB = 1024
HASH_MB_RANGE = (16, 65536)
#: nodes built to measure a game's bytes per node (the first nodes, with the widest fan-out,
#: cost the most, so the estimate errs on the safe side)
MEASURE_NODES = 500
#: interim ``info`` lines during a search, at most this often (seconds)
INFO_INTERVAL = 1.0
#: what a `go` number of more than 12 digits counts as: more than any node cap or clock
GO_NUMBER_CAP = 10 ** 12
#: the deepest ``go perft`` (deeper counts take minutes in Python)
PERFT_MAX_DEPTH = 4


class UCIEngine:
    """The protocol's state machine. ``handle_line(line)`` returns the reply lines; the
    stdio server (`serve`) instead runs ``go`` in a thread with ``run_line(line, emit)``
    so that ``stop`` and ``isready`` are answered during a search."""

    def __init__(self, game, model_path=None, level: str | None = None, evaluator=None,
                 node_cap: int | None = None, seed: int | None = None, threads: int = 1):
        """``node_cap`` fixes the most visits of one search; by default it follows ``Hash``.
        Without ``evaluator`` the model is loaded in the background once the handshake is
        answered (`SearchSession`), so ``uci`` is answered at once."""
        self.game = game
        self._fixed_cap = node_cap
        self.hash_mb = DEFAULT_HASH_MB
        self._bytes_per_node: int | None = None
        self.session = SearchSession(game, model_path, level, evaluator, seed, threads)
        self._level_settings = self.session.level_settings
        self.player = self.session.player
        self.state = game.initial_state()
        self.quit_requested = False
        self._stop = threading.Event()
        self._wake = threading.Event()   # set by stop and by ponderhit: a held bestmove may go
        self._infinite = False
        self._pondering = False
        self._searchmoves: list[int] = []
        self.rank_offset = 0   # added to the ranks of the moves we read and write (1 after UCI_Variant xiangqi)
        self._waitable = False  # True while a go runs in its own thread (`start_go`): stop can arrive

    @property
    def level(self) -> str:
        return self.session.level

    @property
    def model_path(self) -> str:
        return self.session.model_path

    # --- entry points -------------------------------------------------------
    def handle_line(self, line: str) -> list[str]:
        """Process one command synchronously; the reply lines (``go`` included) in order."""
        out: list[str] = []
        self._clear_signals()
        self._waitable = False  # nobody can send stop while this call runs
        self.run_line(line, out.append)
        return out

    def start_go(self, line: str, emit) -> threading.Thread:
        """Run a ``go`` command in a thread (for `serve`); `stop` ends it early."""
        self._clear_signals()
        self._waitable = True
        thread = threading.Thread(target=self.run_line, args=(line, emit), daemon=True)
        thread.start()
        return thread

    def run_line(self, line: str, emit) -> None:
        """Process one command, passing each reply line to ``emit`` as it is produced."""
        try:
            self._dispatch(line, emit)
        except Exception as e:  # the protocol must survive anything; say what went wrong
            emit(f"info string error internal: {type(e).__name__}: {one_line(e)}")

    def stop(self) -> None:
        """Ask a running search to finish now (it still answers ``bestmove``)."""
        self._stop.set()
        self._wake.set()

    def ponderhit(self) -> None:
        """The move pondered on was played: a ``go ponder`` search goes on as a normal one."""
        self._wake.set()

    def _clear_signals(self) -> None:
        for event in (self._stop, self._wake):
            event.clear()

    # --- commands -------------------------------------------------------------
    def _dispatch(self, line: str, emit) -> None:
        tokens = line.split()
        if not tokens:
            return
        handler = self._handlers().get(tokens[0].lower())
        if handler is None:
            emit(f"{self.error_prefix} unknown command {one_line(tokens[0])[:40]!r}")
            return
        handler(tokens, emit)

    #: how error lines begin (``info string error``; a protocol subclass may differ)
    error_prefix = "info string error"

    def _handlers(self) -> dict:
        """Command word -> handler(tokens, emit)."""
        return {
            "uci": self._cmd_uci, "isready": self._cmd_isready, "ucinewgame": self._cmd_newgame,
            "position": self._cmd_position, "go": self._cmd_go, "setoption": self._cmd_setoption,
            "stop": lambda t, e: None, "quit": self._cmd_quit, "d": self._cmd_show,
            "debug": lambda t, e: None, "ponderhit": lambda t, e: None, "register": lambda t, e: None,
        }

    def answer_while_searching(self, tokens: list[str]) -> list[str] | None:
        """The replies to a command that is answered while a search runs without waiting for it
        or stopping it, or None for a command that waits (UCI has none besides `serve`'s
        ``isready`` and ``ponderhit``; UCCI answers ``probe``)."""
        return None

    @staticmethod
    def open_ended(tokens: list[str]) -> bool:
        """True for a ``go`` that runs until ``stop`` or ``ponderhit`` (the server stops it before
        the next command)."""
        words = [t.lower() for t in tokens]
        return "infinite" in words or "ponder" in words

    def _cmd_uci(self, tokens, emit) -> None:
        from ..core.paths import __version__
        emit(f"id name ZeroBoard {__version__} ({self.game.key})")
        emit("id author the ZeroBoard authors")
        levels = " ".join(f"var {name}" for name in self._level_settings)
        emit(f"option name Level type combo default {self.level} {levels}")
        emit(f"option name Model type string default {self.model_path or '<empty>'}")
        emit(f"option name Hash type spin default {DEFAULT_HASH_MB} min {HASH_MB_RANGE[0]} max {HASH_MB_RANGE[1]}")
        emit(f"option name Threads type spin default {self.session.threads} min 1 max {MAX_THREADS}")
        emit(f"option name UCI_Variant type combo default {self.game.id} var {self.game.id}")
        emit("uciok")

    def _cmd_isready(self, tokens, emit) -> None:
        self.session.ensure_ready(lambda err: emit(f"info string error {err}"))
        emit("readyok")

    @property
    def node_cap(self) -> int:
        """Most visits one search may spend: the fixed cap, else what fits in ``Hash`` MB."""
        if self._fixed_cap is not None:
            return self._fixed_cap
        if self._bytes_per_node is None:  # measured once, on the first search that needs it
            from ..core.treememory import measure_tree_memory
            self._bytes_per_node = max(measure_tree_memory(self.game, MEASURE_NODES)["tree_bytes_per_node"], 1)
        return max(1000, self.hash_mb * (1 << 20) // self._bytes_per_node)

    def _cmd_quit(self, tokens, emit) -> None:
        self._stop.set()
        self.quit_requested = True

    def _cmd_newgame(self, tokens, emit) -> None:
        self.player.reset()
        self.state = self.game.initial_state()

    def _cmd_show(self, tokens, emit) -> None:
        for row in self.state.render().splitlines():
            emit(f"info string {row}")
        emit(f"info string position {one_line(self.state.to_text())}")

    def _cmd_position(self, tokens, emit) -> None:
        state = self._read_position(tokens, emit)
        if state is not None:
            self.state = state

    def _read_position(self, tokens, emit):
        """The position ``tokens[1:]`` describe (``startpos | fen FEN | text TEXT [moves ...]``),
        or None after one ``info string error`` line naming ``tokens[0]``'s command."""
        from games.base import NotationError
        cmd = one_line(tokens[0].lower())[:20]
        if len(tokens) < 2:
            emit(f"info string error {cmd}: expected 'startpos', 'fen FEN' or 'text TEXT'")
            return None
        kind = tokens[1].lower()
        lowered = [t.lower() for t in tokens]
        cut = lowered.index("moves", 2) if "moves" in lowered[2:] else len(tokens)
        try:
            if kind == "startpos":
                if cut != 2:
                    emit(f"info string error {cmd}: unexpected {one_line(tokens[2])[:40]!r} after startpos")
                    return None
                state = self.game.initial_state()
            elif kind in ("fen", "text"):
                if cut == 2:
                    emit(f"info string error {cmd} {kind}: the position is missing")
                    return None
                state = self.game.state_from_text(" ".join(tokens[2:cut]))
            else:
                emit(f"info string error {cmd}: expected 'startpos', 'fen' or 'text', "
                     f"not {one_line(tokens[1])[:40]!r}")
                return None
        except (NotationError, ValueError) as e:
            emit(f"info string error {cmd}: {one_line(e)}")
            return None
        for i, tok in enumerate(tokens[cut + 1:]):
            try:
                state = state.play(state.parse_action(self._move_in(tok)))
            except (NotationError, ValueError) as e:
                emit(f"info string error {cmd}: illegal move {one_line(tok)[:40]!r} (move {i + 1}): "
                     f"{one_line(e)}")
                return None
        return state

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
            from ..core.checkpoint import CheckpointError
            from ..play.players import load_evaluator
            try:
                if value.lower() == ROLLOUT:
                    evaluator, desc = self.session.loader._rollout()
                else:
                    evaluator, desc = load_evaluator(self.game, value if value and value != "<empty>" else None)
            except (CheckpointError, OSError, ValueError) as e:
                emit(f"info string error setoption: {one_line(e)}")
                return
            self.session.set_evaluator(evaluator)
            self.session.loader.model_path = value if value != "<empty>" else ""
            emit(f"info string using {desc}")
        elif name == "hash":
            lo, hi = HASH_MB_RANGE
            try:
                mb = int(value)
            except ValueError:
                mb = None
            if mb is None or not lo <= mb <= hi:
                emit(f"info string error setoption: Hash must be a whole number of MB from {lo} to {hi}, "
                     f"not {value[:40]!r}")
                return
            self.hash_mb = mb
        elif name == "uci_variant":
            if value.lower() != self.game.id:
                emit(f"info string error setoption: UCI_Variant {value[:40]!r}: this engine plays {self.game.id}")
                return
            self.rank_offset = 1 if self.game.id == "xiangqi" else 0
        elif name == "threads":
            try:
                self.session.set_threads(value)
            except ValueError:
                emit(f"info string error setoption: Threads must be a whole number from 1 to {MAX_THREADS}, "
                     f"not {value[:40]!r}")
        else:
            emit(f"info string error setoption: unknown option {' '.join(tokens[2:vi])[:40]!r} "
                 "(options: Level, Model, Hash, Threads, UCI_Variant)")

    def _move_in(self, text: str) -> str:
        """A move as the GUI numbers ranks, in the game's own notation."""
        return shift_ranks(text, -self.rank_offset)

    def _move_out(self, text: str) -> str:
        """A move in the game's own notation, as the GUI numbers ranks."""
        return shift_ranks(text, self.rank_offset)

    def _apply_level(self, name: str) -> None:
        self.session.set_level(name)

    @property
    def level_sims(self) -> int:
        return self.session.level_sims

    @property
    def level_seconds(self) -> float:
        return self.session.level_seconds

    def _parse_go(self, tokens, emit):
        """(sims, seconds, notes) for a ``go`` command, or None after reporting an error."""
        from games.base import NotationError
        if [t.lower() for t in tokens[1:2]] == ["perft"]:
            self._perft(tokens[2:], emit)
            return None
        numeric = {"nodes", "movetime", "wtime", "btime", "winc", "binc", "movestogo", "depth", "mate"}
        limits: dict[str, int] = {}
        infinite = ponder = False
        searchmoves: list[int] = []
        i = 1
        while i < len(tokens):
            t = tokens[i].lower()
            if t in ("infinite", "ponder"):
                infinite = infinite or t == "infinite"
                ponder = ponder or t == "ponder"
                i += 1
            elif t == "searchmoves":   # the moves up to the next keyword
                i += 1
                while i < len(tokens) and tokens[i].lower() not in numeric | {"infinite", "ponder"}:
                    try:
                        searchmoves.append(self.state.parse_action(self._move_in(tokens[i])))
                    except (NotationError, ValueError) as e:
                        emit(f"info string error go: searchmoves {one_line(tokens[i])[:40]!r} is not a legal "
                             f"move here: {one_line(e)}")
                        return None
                    i += 1
            elif t in numeric:
                raw = tokens[i + 1] if i + 1 < len(tokens) else ""
                if not re.fullmatch(r"-?[0-9]+", raw, re.ASCII):
                    emit(f"info string error go: {t} needs a whole number, not {one_line(raw)[:40]!r}")
                    return None
                # a number longer than any budget means "as much as allowed" (never int() of 5,000 digits)
                digits = raw.lstrip("-").lstrip("0")
                limits[t] = int(raw) if len(digits) <= 12 else (-1 if raw.startswith("-") else 1) * GO_NUMBER_CAP
                i += 2
            else:
                emit(f"info string error go: unknown or unsupported parameter {one_line(tokens[i])[:40]!r}")
                return None
        for key in ("nodes", "movetime"):
            if key in limits and limits[key] <= 0:
                emit(f"info string error go: {key} must be positive")
                return None
        notes = ["depth limits are not supported; using the other limits"] if "depth" in limits else []
        self._infinite, self._pondering, self._searchmoves = infinite, ponder and not infinite, searchmoves
        if infinite:
            return self.node_cap, None, notes
        if "nodes" in limits or "movetime" in limits:
            cap = self.node_cap
            sims = min(limits.get("nodes", cap), cap)
            seconds = limits["movetime"] / 1000.0 if "movetime" in limits else None
            return sims, seconds, notes
        clock = limits.get("wtime" if self.state.current_player == 0 else "btime")
        if clock is not None:
            inc = limits.get("winc" if self.state.current_player == 0 else "binc", 0)
            return self.node_cap, clock_budget(clock, inc, limits.get("movestogo")), notes
        return self.level_sims, self.level_seconds, notes  # a level's budget is small

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
        info = lambda tree, partial, t: self._info_line(tree, partial, t, None)   # noqa: E731
        if self._pondering and self._waitable:
            # no limit while pondering; the command's own limits apply from the ponderhit on
            result, elapsed = self._search(self.node_cap, None, emit, info, self._wake.is_set)
            self._wake.wait()   # the protocol: a ponder search never ends by itself
            if not self._stop.is_set():
                result, elapsed = self._search(sims, seconds, emit, info)
        else:
            result, elapsed = self._search(sims, seconds, emit, info)
        result.action = self._searched_move(result.action)
        emit(self._info_line(self.player.tree, result, elapsed, result.sims))
        if self._infinite and self._waitable and not self._stop.is_set():
            emit(f"info string node cap {self.node_cap} reached (Hash {self.hash_mb} MB); waiting for stop")
            self._stop.wait()  # the protocol: after go infinite, bestmove only once stop (or quit) arrives
        emit(f"bestmove {self._move_out(self.state.action_to_text(result.action))}")

    def _perft(self, words: list[str], emit) -> None:
        """``go perft D``: each legal move and its positions D plies on, then the total."""
        from games.perft import perft
        depth = parse_int(words[0], 1, PERFT_MAX_DEPTH) if len(words) == 1 else None
        if depth is None:
            emit(f"info string error go perft: expected a depth from 1 to {PERFT_MAX_DEPTH}")
            return
        total = 0
        for action in ([] if self.state.is_terminal() else self.state.legal_actions()):
            count = perft(self.state.apply(action), depth - 1)[-1] if depth > 1 else 1
            total += count
            emit(f"{self._move_out(self.state.action_to_text(action))}: {count}")
        emit("")
        emit(f"Nodes searched: {total}")

    def _searched_move(self, action: int) -> int:
        """``action``, or under ``go searchmoves`` the most visited of the moves listed."""
        allowed = self._searchmoves
        if not allowed or action in allowed:
            return action
        actions, visits = self.player.tree.visit_counts()
        seen = dict(zip(actions.tolist(), visits.tolist()))
        return max(allowed, key=lambda a: seen.get(a, 0))

    def _search(self, sims: int, seconds: float | None, emit, info, should_stop=None) -> tuple[SearchResult, float]:
        """Search the current position with this budget once the evaluator is ready, emitting
        ``info(tree, partial_result, elapsed)`` every INFO_INTERVAL seconds, until the budget is
        spent or ``should_stop()`` (by default: until ``stop``); (result, elapsed)."""
        self.session.ensure_ready(lambda err: emit(f"info string error {err}"))
        player = self.player
        player.sims, player.seconds = sims, seconds
        start = time.perf_counter()
        last = [start]

        def on_progress(fraction, partial):
            now = time.perf_counter()
            if now - last[0] >= INFO_INTERVAL and player.tree is not None:
                last[0] = now
                emit(info(player.tree, partial, now - start))

        result = player.choose(self.state, on_progress=on_progress, should_stop=should_stop or self._stop.is_set)
        return result, time.perf_counter() - start

    def _info_line(self, tree, result: SearchResult, elapsed: float, sims_run: int | None) -> str:
        pv = principal_variation(tree, result.action)
        parts = [f"info depth {max(len(pv), 1)} nodes {int(tree.root_n)}"]
        if sims_run is not None:
            parts.append(f"nps {int(sims_run / max(elapsed, 1e-6))}")
        parts.append(f"time {int(elapsed * 1000)}")
        if math.isfinite(result.value):  # a value that is not a number has no score to report
            parts.append(f"score cp {value_to_cp(result.value)}")
        if pv:
            parts.append("pv " + " ".join(self._move_out(m) for m in pv))
        return " ".join(parts)


def serve(engine: UCIEngine, stdin=None, stdout=None) -> int:
    """Run the protocol on text streams until ``quit`` or end of input."""
    stdin = tolerant_input(stdin or sys.stdin)
    write = LineWriter(stdout or sys.stdout)
    search: threading.Thread | None = None
    infinite = False

    def finish_search(stop: bool) -> None:
        nonlocal search
        if search is not None:
            if stop:
                engine.stop()
            search.join()
            search = None

    while not write.broken.is_set():
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
            if cmd == "ponderhit":
                engine.ponderhit()
                continue
            if not tokens:
                continue
            replies = engine.answer_while_searching(tokens)
            if replies is not None:
                for reply in replies:
                    write(reply)
                continue
            # stop and quit end the search; anything else waits for it (or stops an infinite one)
            finish_search(cmd in ("stop", "quit") or infinite)
            if cmd == "stop":
                continue
        if cmd == "go":
            infinite = engine.open_ended(tokens)
            search = engine.start_go(line, write)
            continue
        for reply in engine.handle_line(line):
            write(reply)
        engine.session.start_loading()  # after the handshake's answer: torch and the model load meanwhile
        if engine.quit_requested:
            break
    finish_search(True)
    return 0


__all__ = ["UCIEngine", "serve"]
