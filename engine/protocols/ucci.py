"""UCCI, the Universal Chinese Chess Protocol (version 3.0, xqbase.com): ZeroBoard's xiangqi
AI as an engine that xiangqi GUIs load (``python main.py ucci [--model PATH] [--level NAME]``).

- ``ucci`` -> ``id name``, ``id copyright``, ``id author``, ``id user``, the options, ``ucciok``
  (at once: the model loads in the background afterwards); ``isready`` -> ``readyok`` once
  the model is loaded.
- ``setoption NAME [VALUE]`` (UCCI's form; ``setoption name NAME value VALUE`` works too):
  ``usemillisec true|false`` (time unit of ``go time``: milliseconds, else seconds as UCCI
  says by default), ``hashsize MB`` (the search tree's memory budget), ``level NAME``,
  ``model PATH``, ``threads N`` (search threads sharing the tree; ``--threads``, default 1),
  ``newgame``; ``batch``, ``debug``, ``ponder``, ``bookfiles`` and other
  standard options are accepted and ignored.
- ``position {fen FEN | startpos} [moves M ...]``: moves in ICCS coordinates (``h2e2``, ranks
  0..9 from red's side); ``banmoves M ...`` forbids moves in the current position (until the
  next ``position``).
- ``go [ponder | draw] depth D | nodes N | time T [movestogo M | increment I] [opptime ...]``
  and ``go [depth] infinite``. ``nodes N``: N visits, no time cap (fixed work). ``depth D``:
  MCTS has no depth, so the level's visits without its time cap (fixed work, said in an
  ``info`` line). ``time``: a share of the clock. ``ponder`` and ``infinite`` search until
  ``stop`` or ``ponderhit``, which both answer at once with the best move so far.
  Answers ``info depth D score S pv ...`` / ``info nodes N time MS`` lines and ``bestmove M``;
  ``nobestmove`` when the game is over or every legal move is banned.
- ``stop``, ``probe [startpos | fen FEN] [moves ...]`` -> ``pophash [bestmove M]`` (the best move
  the last search's tree knows for that position; bare while a search runs),
  ``quit`` -> ``bye``.

Malformed lines and illegal moves get one ``info string error ...`` line and change nothing.
The shared state machine, server loop and scores are the UCI server's (`engine.protocols.uci`).
"""
from __future__ import annotations


from .common import one_line, parse_int, principal_variation, value_to_cp
from .session import clock_budget
from .uci import DEFAULT_HASH_MB, HASH_MB_RANGE, MAX_THREADS, UCIEngine, serve

#: standard UCCI options a GUI may set that change nothing here
IGNORED_OPTIONS = ("batch", "debug", "ponder", "bookfiles", "egtbpaths", "evalapi",
                   "idle", "pruning", "knowledge", "randomness", "style", "promotion", "drawmoves",
                   "repetition", "selectivity", "loadbook", "clearhash")


class UCCIEngine(UCIEngine):
    """The UCCI state machine (see the module docstring); `serve` runs it on stdin/stdout."""

    def __init__(self, game, *args, **kwargs):
        if game.id != "xiangqi":
            raise ValueError(f"UCCI is xiangqi's protocol; {game.key} speaks UCI (main.py uci)")
        super().__init__(game, *args, **kwargs)
        self.use_millisec = False
        self.banned: set[int] = set()

    def _handlers(self) -> dict:
        return {
            "ucci": self._cmd_ucci, "isready": self._cmd_isready, "position": self._cmd_position,
            "banmoves": self._cmd_banmoves, "go": self._cmd_go, "setoption": self._cmd_setoption,
            "stop": lambda t, e: None, "ponderhit": lambda t, e: None, "probe": self._cmd_probe,
            "quit": self._cmd_quit, "d": self._cmd_show,
        }

    def ponderhit(self) -> None:
        """UCCI's ponderhit answers at once, with the best move so far."""
        self.stop()

    def _cmd_ucci(self, tokens, emit) -> None:
        from ..core.paths import __version__
        emit(f"id name ZeroBoard {__version__}")
        emit("id copyright the ZeroBoard authors, MIT licence")
        emit("id author the ZeroBoard authors")
        emit("id user unknown")
        emit("option usemillisec type check default false")
        lo, hi = HASH_MB_RANGE
        emit(f"option hashsize type spin min {lo} max {hi} default {DEFAULT_HASH_MB}")
        emit(f"option level type combo var {' var '.join(self._level_settings)} default {self.level}")
        emit(f"option model type string default {self.model_path or '<empty>'}")
        emit(f"option threads type spin min 1 max {MAX_THREADS} default {self.session.threads}")
        emit("option newgame type button")
        emit("ucciok")

    def _cmd_quit(self, tokens, emit) -> None:
        super()._cmd_quit(tokens, emit)
        emit("bye")

    def _cmd_position(self, tokens, emit) -> None:
        before = self.state
        super()._cmd_position(tokens, emit)
        if self.state is not before:  # a new position: the old bans no longer apply
            self.banned = set()

    def _cmd_banmoves(self, tokens, emit) -> None:
        from games.base import NotationError
        banned = set()
        for tok in tokens[1:]:
            try:
                banned.add(self.state.parse_action(tok))
            except (NotationError, ValueError) as e:
                emit(f"info string error banmoves: {one_line(tok)[:40]!r} is not a legal move here: {one_line(e)}")
                return
        self.banned = banned

    def _cmd_setoption(self, tokens, emit) -> None:
        words = tokens[1:]
        if words and words[0].lower() == "name":  # UCI's form, which some GUIs send
            lowered = [w.lower() for w in words]
            vi = lowered.index("value") if "value" in lowered else len(words)
            name, value = " ".join(words[1:vi]).lower(), " ".join(words[vi + 1:])
        elif words:
            name, value = words[0].lower(), " ".join(words[1:])
        else:
            emit("info string error setoption: expected 'setoption NAME [VALUE]'")
            return
        if name == "usemillisec":
            if value.lower() not in ("true", "false"):
                emit(f"info string error setoption: usemillisec takes true or false, not {value[:40]!r}")
                return
            self.use_millisec = value.lower() == "true"
        elif name == "hashsize":
            super()._cmd_setoption(["setoption", "name", "Hash", "value", value], emit)
        elif name in ("level", "model", "threads"):
            super()._cmd_setoption(["setoption", "name", name, "value", value], emit)
        elif name == "newgame":
            self.session.reset()
            self.state, self.banned = self.game.initial_state(), set()
        elif name in IGNORED_OPTIONS:
            pass
        else:
            emit(f"info string error setoption: unknown option {name[:40]!r} "
                 "(options: usemillisec, hashsize, level, model, threads, newgame)")

    def _parse_go(self, tokens, emit):
        """(sims, seconds, notes) for a UCCI ``go``, or None after reporting an error."""
        words = [t.lower() for t in tokens[1:]]
        notes: list[str] = []
        while words and words[0] in ("ponder", "draw"):
            words.pop(0)
        self._infinite = False
        if not words or words in (["infinite"], ["depth", "infinite"]):
            if not words:  # a bare go: the level's budget
                return self.level_sims, self.level_seconds, notes
            self._infinite = True
            return self.node_cap, None, notes
        if self.open_ended(tokens):
            self._infinite = True
        mode, rest = words[0], words[2:]
        fields: dict[str, int] = {}
        for i in range(0, len(rest), 2):
            key = rest[i]
            value = parse_int(rest[i + 1], 0) if i + 1 < len(rest) else None
            if key not in ("movestogo", "increment", "opptime", "oppmovestogo", "oppincrement") or value is None:
                emit(f"info string error go: unexpected {one_line(' '.join(rest[i:i + 2]))[:40]!r}")
                return None
            fields[key] = value
        amount = parse_int(words[1], 1) if len(words) > 1 else None
        if mode not in ("depth", "nodes", "time") or amount is None:
            emit(f"info string error go: expected depth D, nodes N, time T or infinite, "
                 f"not {one_line(' '.join(words[:2]))[:40]!r}")
            return None
        if mode in ("depth", "nodes") and fields:
            emit(f"info string error go {mode}: takes no clock fields")
            return None
        if self._infinite:
            return self.node_cap, None, notes
        if mode == "nodes":
            return min(amount, self.node_cap), None, notes
        if mode == "depth":
            notes.append(f"depth has no meaning for MCTS: searching the {self.level} level's "
                         f"{self.level_sims} visits without a time cap")
            return self.level_sims, None, notes
        unit = 1 if self.use_millisec else 1000
        budget = clock_budget(amount * unit, fields.get("increment", 0) * unit, fields.get("movestogo"))
        return self.node_cap, budget, notes

    def _cmd_go(self, tokens, emit) -> None:
        parsed = self._parse_go(tokens, emit)
        if parsed is None:
            return
        sims, seconds, notes = parsed
        for note in notes:
            emit(f"info string {note}")
        legal = [] if self.state.is_terminal() else self.state.legal_actions()
        allowed = [a for a in legal if a not in self.banned]
        if not allowed:
            emit("nobestmove")
            return
        if len(allowed) == 1 and not self._infinite:
            action, value = allowed[0], 0.0  # a forced move needs no search
            emit(f"info depth 1 score 0 pv {self.state.action_to_text(action)}")
        else:
            result, elapsed = self._search(sims, seconds, emit,
                                           lambda tree, partial, _: self._ucci_info(tree, partial.action, partial.value))
            action, value = self._unbanned(result.action), result.value
            tree = self.player.tree
            emit(self._ucci_info(tree, action, value))
            emit(f"info nodes {int(tree.root_n)} time {int(elapsed * 1000)}")
            if self._infinite and self._waitable and not self._stop.is_set():
                self._stop.wait()  # ponder/infinite: the move is given only once stop or ponderhit comes
        emit(f"bestmove {self.state.action_to_text(action)}")

    def _unbanned(self, action: int) -> int:
        """``action``, or the most visited root move that is not banned."""
        if action not in self.banned:
            return action
        actions, visits = self.player.tree.visit_counts()
        order = [int(a) for _, a in sorted(zip(visits.tolist(), actions.tolist()), reverse=True)]
        rest = [a for a in order if a not in self.banned]
        if rest:
            return rest[0]
        return next(a for a in self.state.legal_actions() if a not in self.banned)

    def _ucci_info(self, tree, action: int, value: float) -> str:
        pv = principal_variation(tree, action)
        line = f"info depth {max(len(pv), 1)} score {value_to_cp(value)}"
        return line + (" pv " + " ".join(pv) if pv else "")

    def _cmd_probe(self, tokens, emit) -> None:
        """UCCI's ``probe [startpos | fen FEN] [moves ...]`` (the current position when none is
        given): ``pophash bestmove M`` when the last search's tree holds the position (its root,
        or a position one move from it that the search visited), else a bare ``pophash``.
        A tree search has no alpha-beta bounds, so ``lowerbound`` and ``upperbound`` are never
        given."""
        if len(tokens) > 1:
            state = self._read_position(tokens, emit)
            if state is None:
                return
        else:
            state = self.state
        move = self._known_best_move(state)
        emit(f"pophash bestmove {self._move_out(state.action_to_text(move))}" if move is not None else "pophash")

    def _known_best_move(self, state) -> int | None:
        """The most visited move the last search found in ``state``, or None when its tree does
        not reach the position."""
        tree = self.player.tree
        if tree is None or tree.root_n == 0:
            return None
        key = state.key()
        if tree.root_state.key() == key:
            return tree.stats(limit=1)[0].action
        for stat in tree.stats():
            if stat.visits and tree.root_state.play(stat.action).key() == key:
                child = tree.child_tree(stat.action)
                top = child.stats(limit=1) if child is not None and child.root_expanded else []
                return top[0].action if top and top[0].visits else None
        return None

    def answer_while_searching(self, tokens: list[str]) -> list[str] | None:
        """``probe`` during a search answers a bare ``pophash`` at once (the tree is being
        searched) and leaves the search running; everything else waits as in UCI."""
        return ["pophash"] if tokens[0].lower() == "probe" else None

def ucci_serve(engine: UCCIEngine, stdin=None, stdout=None) -> int:
    """Run UCCI on text streams until ``quit`` or end of input (the UCI server's loop)."""
    return serve(engine, stdin, stdout)


__all__ = ["UCCIEngine", "ucci_serve"]
