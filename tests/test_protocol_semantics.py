"""The engine protocols as real clients use them, line by line and in time: a GUI's session
transcript is sent to a served engine over a pipe, and each reply's content, order and moment
is checked against the protocol's published text (UCI's engine-interface.txt, UCCI 3.0, the
Gomocup brain protocol, NBoard's protocol page)."""
from __future__ import annotations

import os
import queue
import sys
import threading
import time
from pathlib import Path

from engine.core.evaluators import UniformEvaluator
from engine.protocols.uci_client import UCIEnginePlayer, shift_ranks
from games import get_game

ROOT = Path(__file__).resolve().parent.parent


class Served:
    """An engine's ``serve`` loop on a thread, fed through a real pipe (so lines arrive while a
    search runs, as from a GUI) and read with timeouts (so a hang fails instead of blocking)."""

    def __init__(self, serve, engine):
        read_fd, write_fd = os.pipe()
        self._stdin = os.fdopen(write_fd, "w", buffering=1, encoding="utf-8")
        self.lines: queue.Queue = queue.Queue()
        served = self

        class Out:
            """stdout: each whole line goes to the queue as it is flushed."""
            buffer = ""

            def write(self, text):
                self.buffer += text
                *done, self.buffer = self.buffer.split("\n")
                for line in done:
                    served.lines.put(line)

            def flush(self):
                pass

        stdin = os.fdopen(read_fd, "r", encoding="utf-8")
        self.thread = threading.Thread(target=serve, args=(engine, stdin, Out()), daemon=True)
        self.thread.start()

    def send(self, line: str) -> None:
        self._stdin.write(line + "\n")
        self._stdin.flush()

    def read(self, timeout: float) -> str | None:
        """The next reply line, or None when none comes within ``timeout`` seconds."""
        try:
            return self.lines.get(timeout=timeout)
        except queue.Empty:
            return None

    def until(self, prefix: str, timeout: float = 20.0) -> list[str]:
        """The reply lines up to the first that starts with ``prefix``."""
        got: list[str] = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.read(max(deadline - time.monotonic(), 0.0))
            assert line is not None, f"no {prefix!r} within {timeout} s; got {got}"
            got.append(line)
            if line.startswith(prefix):
                return got

    def close(self) -> None:
        self._stdin.close()
        self.thread.join(20)
        assert not self.thread.is_alive(), "the engine did not end with its input"


class SlowEvaluator(UniformEvaluator):
    """Uniform priors at a network's pace (5 ms a call), so that a deep search takes a while."""

    def evaluate(self, states, legal):
        time.sleep(0.005)
        return super().evaluate(states, legal)


def uci_engine(game_id: str = "xiangqi"):
    from engine.protocols.uci import UCIEngine, serve
    return Served(serve, UCIEngine(get_game(game_id), evaluator=UniformEvaluator(), seed=0))


# --- UCI ---------------------------------------------------------------------------------

def test_uci_go_ponder_holds_bestmove_until_ponderhit_and_then_searches_under_its_limits():
    """engine-interface.txt: 'go ponder' never ends by itself; after 'ponderhit' the search goes
    on as a normal one. The engine once answered bestmove in the middle of pondering."""
    s = uci_engine()
    s.send("position startpos moves h2e2 h9g7")
    s.send("go ponder wtime 3000 btime 3000")
    early = [s.read(0.6)]
    while early[-1] is not None:
        early.append(s.read(0.6))
    assert not any(l.startswith("bestmove") for l in early if l), early
    s.send("isready")   # answered at once during the ponder search
    assert s.until("readyok", 2.0)[-1] == "readyok"
    s.send("ponderhit")
    sent = time.monotonic()
    reply = s.until("bestmove", 5.0)
    assert time.monotonic() - sent < 2.0   # the clock's share of 3 s, not an unending search
    state = get_game("xiangqi").state_from_text(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7")
    state.parse_action(reply[-1].split()[1])   # a legal move (NotationError otherwise)
    s.send("go ponder movetime 100")
    assert s.read(0.5) is None   # past its movetime, still pondering
    s.send("stop")   # a ponder miss: stop answers with the ponder search's move
    assert s.until("bestmove", 2.0)[-1].startswith("bestmove ")
    s.close()


def test_uci_ponderhit_does_not_end_go_infinite():
    """ponderhit only turns pondering into searching; after go infinite only stop gives bestmove."""
    s = uci_engine()
    s.send("position startpos")
    s.send("go infinite")
    s.send("ponderhit")
    time.sleep(0.3)
    s.send("isready")
    reply = s.until("readyok", 2.0)
    assert not any(l.startswith("bestmove") for l in reply), reply
    s.send("stop")
    assert s.until("bestmove", 2.0)[-1].startswith("bestmove ")
    s.close()


def test_uci_go_searchmoves_answers_one_of_the_moves_listed():
    """'go searchmoves M ...' restricts the search; it was once an unknown parameter answered
    with an error and no bestmove at all, which leaves a GUI waiting for ever."""
    s = uci_engine()
    s.send("position startpos")
    s.send("go searchmoves a3a4 i3i4 nodes 60")
    reply = s.until("bestmove", 10.0)
    assert reply[-1] in ("bestmove a3a4", "bestmove i3i4"), reply
    assert not any("error" in l for l in reply), reply
    s.send("go movetime 50 searchmoves b0c2")
    reply = s.until("bestmove", 10.0)
    assert reply[-1] == "bestmove b0c2", reply
    pv = [l for l in reply if l.startswith("info depth")][-1].split(" pv ")[1].split()
    assert pv[0] == "b0c2", reply
    s.close()


def test_uci_variant_xiangqi_speaks_the_rank_numbering_of_cutechess_and_fairy_stockfish():
    """cutechess plays a variant only with an engine whose UCI_Variant lists it, then writes
    xiangqi ranks 1..10 (``h3e3``), as Fairy-Stockfish does: the engine offered no UCI_Variant
    and read and wrote only ICCS's 0..9, so no such GUI could play it."""
    s = uci_engine()
    s.send("uci")
    assert "option name UCI_Variant type combo default xiangqi var xiangqi" in s.until("uciok")
    s.send("setoption name UCI_Variant value xiangqi")
    s.send("position startpos moves h3e3 h10g8")   # ICCS h2e2 h9g7
    s.send("go perft 1")
    perft = s.until("Nodes searched")
    assert perft[-1] == "Nodes searched: 35" and "c4c5: 1" in perft and "c3c4: 1" not in perft, perft   # as fairy-stockfish counts
    s.send("go nodes 40 searchmoves b1c3 h1g3")
    reply = s.until("bestmove")
    assert reply[-1] in ("bestmove b1c3", "bestmove h1g3"), reply
    pv = [l for l in reply if l.startswith("info depth")][-1].split(" pv ")[1].split()
    state = get_game("xiangqi").state_from_text(
        "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1 moves h2e2 h9g7")
    for move in pv:   # the whole line, read back in ICCS, is legal
        state = state.play(state.parse_action(shift_ranks(move, -1)))
    s.send("setoption name UCI_Variant value chess")
    assert s.until("info string error")[-1].startswith("info string error setoption: UCI_Variant")
    s.close()


def test_our_uci_client_learns_the_numbering_of_our_uci_engine(tmp_path):
    """The client sets UCI_Variant when offered and learns the ranks from go perft 1."""
    game = get_game("xiangqi")
    command = [sys.executable, str(ROOT / "main.py"), "uci", "--game", "xiangqi", "--model", "rollout"]
    with UCIEnginePlayer(game, command, work={"nodes": 20}) as player:
        assert player.rank_offset == 1
        state = game.initial_state().play(game.initial_state().parse_action("h2e2"))
        assert player.choose(state).action in state.legal_actions()


# --- NBoard ------------------------------------------------------------------------------

def test_nboard_quit_during_a_deep_search_ends_the_engine_at_once():
    """quit once waited for the whole search (set depth 60: 6,000 visits, seconds to minutes)."""
    from engine.protocols.nboard import NBoardEngine, serve
    s = Served(serve, NBoardEngine(evaluator=SlowEvaluator(), seed=0))
    s.send("nboard 2")
    assert s.until("set myname")[-1] == "set myname ZeroBoard"
    s.send("set depth 60")
    s.send("set game (;GM[Othello]PC[NBoard]BO[8 ---------------------------O*------*O--------------------------- *];)")
    s.send("go")
    assert s.until("status ")[-1].startswith("status ZeroBoard is thinking")
    s.send("quit")
    sent = time.monotonic()
    s.thread.join(10)
    assert not s.thread.is_alive() and time.monotonic() - sent < 2.0
