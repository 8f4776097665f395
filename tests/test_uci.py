"""The UCI-style protocol: a real session over pipes, a fuzz of the line handler, and the
client that drives external UCI engines (our own server, and fairy-stockfish for xiangqi)."""
from __future__ import annotations

import importlib.util
import queue
import random
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.commands.specs import find_fairy_stockfish, parse_uci_spec, SpecError
from engine.core.evaluators import UniformEvaluator
from engine.protocols.common import cp_to_value, value_to_cp
from engine.protocols.uci import UCIEngine
from engine.protocols.uci_client import UCIEngineError, UCIEnginePlayer, shift_ranks
from games import get_game

ROOT = Path(__file__).resolve().parent.parent
HAS_XIANGQI = importlib.util.find_spec("games.xiangqi") is not None
STOCKFISH = find_fairy_stockfish()

#: every line the server may print
REPLY = re.compile(r"^(id (name|author) .+|option name .+|uciok|readyok|bestmove \S+|info string .+"
                   r"|info depth \d+ nodes \d+( nps \d+)? time \d+( score cp -?\d+)?( pv .+)?)$")


class Session:
    """``main.py uci`` in a subprocess, read with timeouts so that a hang fails instead of blocking."""

    def __init__(self, *args: str):
        self.proc = subprocess.Popen([sys.executable, str(ROOT / "main.py"), "uci", *args], cwd=ROOT,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                     text=True, bufsize=1)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [self.lines.put(l.rstrip("\n")) for l in self.proc.stdout],
                         daemon=True).start()

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def until(self, prefix: str, timeout: float = 30.0) -> list[str]:
        got = []
        deadline = time.monotonic() + timeout
        while True:
            line = self.lines.get(timeout=max(0.01, deadline - time.monotonic()))
            got.append(line)
            assert REPLY.match(line), f"unexpected reply {line!r}"
            if line.startswith(prefix):
                return got


@pytest.fixture(scope="module")
def tictactoe_model(tmp_path_factory):
    import torch
    from engine.core.checkpoint import save_checkpoint
    from engine.core.network import NetConfig, PolicyValueNet
    game = get_game("tictactoe")
    torch.manual_seed(0)
    path = tmp_path_factory.mktemp("model") / "tictactoe.pt"
    save_checkpoint(path, PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)), game)
    return path


def test_a_protocol_session_over_pipes(tictactoe_model):
    game = get_game("tictactoe")
    s = Session("--game", "tictactoe", "--model", str(tictactoe_model))
    try:
        s.send("uci")
        hello = s.until("uciok")
        assert hello[0].startswith("id name ZeroBoard") and any(l.startswith("id author") for l in hello)
        assert any(l.startswith("option name Level type combo") for l in hello)
        s.send("isready")
        assert s.until("readyok") == ["readyok"]
        s.send("ucinewgame")
        s.send("position startpos moves b2 a1")
        s.send("go nodes 60")
        out = s.until("bestmove")
        info = [l for l in out if l.startswith("info depth")][-1]
        assert " nodes 60 " in info and " score cp " in info
        state = game.state_from_text("b2 a1")
        assert state.parse_action(out[-1].split()[1]) in state.legal_actions()
        s.send("position startpos moves b2 b2")  # illegal: the position stays as it was
        assert s.until("info string error")[-1].startswith("info string error position")
        s.send("setoption name Level value beginner")
        s.send("go infinite")
        time.sleep(0.3)
        s.send("isready")
        s.send("stop")
        out = s.until("bestmove")
        assert "readyok" in out
        assert state.parse_action(out[-1].split()[1]) in state.legal_actions()
        s.send("quit")
        assert s.proc.wait(timeout=10) == 0
    finally:
        s.proc.kill()
        s.proc.wait()


def test_a_finished_game_answers_bestmove_none():
    engine = UCIEngine(get_game("tictactoe"), evaluator=UniformEvaluator())
    assert engine.handle_line("position startpos moves a1 b1 a2 b2 a3") == []
    out = engine.handle_line("go nodes 10")
    assert out[0].startswith("info string error") and out[-1] == "bestmove (none)"


def test_go_nodes_reuses_the_tree_and_reports_the_root_visits():
    engine = UCIEngine(get_game("connect4"), evaluator=UniformEvaluator())
    engine.handle_line("position startpos moves 4")
    assert " nodes 100 " in engine.handle_line("go nodes 100")[-2]
    engine.handle_line("position text 4 moves 4 4")
    out = engine.handle_line("go nodes 150")
    assert " nodes 150 " in out[-2] and out[-1].startswith("bestmove ")


def _fuzz_line(rng: random.Random, moves: list[str]) -> str:
    words = ["uci", "isready", "ucinewgame", "position", "go", "stop", "setoption", "d", "debug", "ponderhit",
             "startpos", "fen", "text", "moves", "nodes", "movetime", "infinite", "wtime", "btime", "winc", "binc",
             "movestogo", "depth", "searchmoves", "name", "value", "Level", "Model", "hard", "max", "beginner",
             "0", "1", "-5", "7", "40", "99999999999999999999", "1e3", "abc", "", "炮二平五", "\x00", "\t", "pass",
             "/dev/null", "position startpos moves", "go nodes"] + moves
    r = rng.random()
    if r < 0.1:
        return "".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(0, 30)))
    if r < 0.5:  # a plausible command, then perhaps one token mutated
        tokens = rng.choice([
            ["position", "startpos", "moves", *rng.sample(moves, rng.randrange(0, 5))],
            ["position", rng.choice(["text", "fen"]), *rng.sample(moves, rng.randrange(0, 3)), "moves",
             *rng.sample(moves, rng.randrange(0, 3))],
            ["go", *rng.choice([["nodes", str(rng.randrange(1, 80))], ["movetime", str(rng.randrange(1, 30))],
                                ["infinite"], ["wtime", "300", "btime", "300"], ["depth", "3"], []])],
            ["setoption", "name", "Level", "value", rng.choice(["beginner", "hard", "max", "strong", "nope"])],
        ])
        if rng.random() < 0.3:
            tokens[rng.randrange(len(tokens))] = rng.choice(words)
        return " ".join(tokens)
    head = rng.choice(["position", "go", "setoption", "uci", "isready", "ucinewgame", "stop", "d", "quit"]
                      + words[:10] + ["xyzzy"])
    return " ".join([head] + [rng.choice(words) for _ in range(rng.randrange(0, 8))])


def _damaged_moves(moves: list[str]) -> list[str]:
    """Moves with their coordinates bent: leading zeros, extra digits, doubled letters."""
    out = []
    for m in moves:
        digits = [i for i, c in enumerate(m) if c.isdigit()]
        if digits:
            i = digits[0]
            out += [m[:i] + "0" + m[i:], m[:i] + "9" * 6 + m[i:], m + "0"]
        out.append(m[:1] * 2 + m[1:])
    return out


@pytest.mark.parametrize("game_id,lines", [("tictactoe", 1200), ("connect2", 600), ("connect4", 1000),
                                           ("othello", 600), ("gomoku", 500), ("xiangqi", 600)])
def test_fuzzed_lines_never_crash_and_errors_are_reported(game_id, lines):
    if importlib.util.find_spec(f"games.{game_id}") is None:
        pytest.skip(f"{game_id} has not landed yet")
    game = get_game(game_id)
    engine = UCIEngine(game, evaluator=UniformEvaluator(), node_cap=60, seed=0)
    start = game.initial_state()
    moves = [start.action_to_text(a) for a in start.legal_actions()[:12]]
    moves += _damaged_moves(moves[:4])
    rng = random.Random(1)
    errors = 0
    for _ in range(lines):
        line = _fuzz_line(rng, moves)
        for reply in engine.handle_line(line):
            assert REPLY.match(reply), (line, reply)
            assert not reply.startswith("info string error internal"), (line, reply)
            errors += reply.startswith("info string error")
    assert errors > lines // 10
    assert engine.handle_line("isready") == ["readyok"]


@pytest.mark.parametrize("game_id", ["tictactoe", "connect2", "connect4", "othello", "gomoku", "xiangqi"])
def test_the_stdio_server_survives_garbage_and_still_answers_isready(game_id):
    """The server loop itself (searches in their own thread), fed random and damaged lines."""
    import io
    from engine.protocols.uci import serve
    game = get_game(game_id)
    start = game.initial_state()
    moves = [start.action_to_text(a) for a in start.legal_actions()[:8]]
    moves += _damaged_moves(moves[:3])
    rng = random.Random(game_id)
    lines = [_fuzz_line(rng, moves).replace("\n", " ").replace("\r", " ") for _ in range(150)]
    lines = [line for line in lines if line.split()[:1] != ["quit"] and "infinite" not in line]
    engine = UCIEngine(game, evaluator=UniformEvaluator(), node_cap=40, seed=0)
    out = io.StringIO()
    serve(engine, stdin=io.StringIO("\n".join(lines + ["stop", "isready"]) + "\n"), stdout=out)
    replies = out.getvalue().splitlines()
    assert replies[-1] == "readyok"
    for reply in replies:
        assert REPLY.match(reply), reply
        assert not reply.startswith("info string error internal"), reply


class _NotANumber:
    """An evaluator whose network has gone bad: every value is NaN."""

    def evaluate(self, states, legal):
        import numpy as np
        return [np.full(len(a), 1.0 / len(a)) for a in legal], np.full(len(states), np.nan)


def test_a_value_that_is_not_a_number_is_never_printed():
    import json
    from engine.protocols.common import json_text
    engine = UCIEngine(get_game("connect4"), evaluator=_NotANumber(), node_cap=60, seed=0)
    replies = engine.handle_line("go nodes 30")
    assert replies[-1].startswith("bestmove ")
    for reply in replies:
        assert REPLY.match(reply) and "nan" not in reply.lower(), reply
    with pytest.raises(ValueError):
        value_to_cp(float("nan"))
    text = json_text({"value": float("nan"), "top": [{"q": float("inf")}, {"q": 0.5}]})
    assert json.loads(text) == {"value": None, "top": [{"q": None}, {"q": 0.5}]}


def test_value_to_cp_is_the_documented_logistic_mapping():
    assert value_to_cp(0.0) == 0
    assert value_to_cp(0.5) == 191 and value_to_cp(-0.5) == -191
    assert value_to_cp(1.0) == 2000 and value_to_cp(-1.0) == -2000
    for v in (-0.9, -0.3, 0.2, 0.8):
        assert cp_to_value(value_to_cp(v)) == pytest.approx(v, abs=0.01)


def test_uci_specs_parse_command_movetime_and_options():
    assert parse_uci_spec("/usr/games/fairy-stockfish@250?UCI_LimitStrength=true&UCI_Elo=min") == (
        "/usr/games/fairy-stockfish", {"movetime": 250}, {"UCI_LimitStrength": "true", "UCI_Elo": "min"})
    assert parse_uci_spec("engine --flag") == ("engine --flag", {"movetime": 100}, {})
    assert parse_uci_spec("engine@depth3")[1] == {"depth": 3} and parse_uci_spec("engine@nodes500")[1] == {"nodes": 500}
    with pytest.raises(SpecError):
        parse_uci_spec("@100")
    with pytest.raises(SpecError):
        parse_uci_spec("engine?novalue")


def test_rank_shifting_maps_iccs_to_one_based_ranks():
    assert shift_ranks("h2e2", 1) == "h3e3" and shift_ranks("b9b10", -1) == "b8b9"
    assert shift_ranks("4", 1) == "4"


def test_the_client_drives_our_own_server_as_an_external_engine():
    game = get_game("tictactoe")
    # a generous timeout: the server imports torch, which is slow on a busy shared machine
    with UCIEnginePlayer(game, [sys.executable, str(ROOT / "main.py"), "uci", "--game", "tictactoe"], 50,
                         timeout=60) as p:
        assert p.engine_name.startswith("ZeroBoard") and p.rank_offset == 0
        state = game.state_from_text("a1 b2 a2")
        assert game.initial_state().action_to_text(p.choose(state).action) == "a3"  # the only block
        with pytest.raises(UCIEngineError):
            UCIEnginePlayer(game, [sys.executable, str(ROOT / "main.py"), "uci", "--game", "tictactoe"], 50,
                            {"No Such Option": "1"}, timeout=60)


def test_a_missing_engine_is_a_clear_error():
    with pytest.raises(UCIEngineError, match="cannot start"):
        UCIEnginePlayer(get_game("tictactoe"), "/nonexistent/engine-binary")


@pytest.mark.skipif(not HAS_XIANGQI or STOCKFISH is None, reason="needs xiangqi and fairy-stockfish "
                                                                  "(Debian package fairy-stockfish)")
def test_fairy_stockfish_plays_xiangqi_with_one_based_ranks():
    from engine.play.arena import play_game
    from engine.play.players import RandomPlayer
    game = get_game("xiangqi")
    with UCIEnginePlayer(game, STOCKFISH, 30, {"UCI_LimitStrength": "true", "UCI_Elo": "min"}) as sf:
        assert sf.rank_offset == 1  # fairy-stockfish writes ranks 1..10 where ICCS writes 0..9
        assert sf.options["uci_variant"]["vars"] and "xiangqi" in sf.options["uci_variant"]["vars"]
        final, actions = play_game(game, sf, RandomPlayer(game, seed=2), max_plies=24)
        assert len(actions) > 0  # every move was legal (play_game uses State.play)
        fen_state = game.state_from_text(game.state_from_text("startpos moves h2e2 h9g7").fen())
        assert sf.position_command(fen_state).startswith("position fen ")
        assert fen_state.apply(sf.choose(fen_state).action) is not None
    with pytest.raises(UCIEngineError, match="1350"):  # below the lowest Elo it accepts
        UCIEnginePlayer(game, STOCKFISH, 30, {"UCI_LimitStrength": "true", "UCI_Elo": "500"})


def test_hash_sets_each_games_node_cap_from_its_measured_bytes_per_node():
    caps = {}
    for game_id in ("connect4", "gomoku"):
        engine = UCIEngine(get_game(game_id), evaluator=UniformEvaluator(), seed=0)
        assert any(l.startswith("option name Hash type spin default 1024") for l in engine.handle_line("uci"))
        caps[game_id] = engine.node_cap
        assert engine.handle_line("setoption name Hash value 64") == []
        assert engine.node_cap == pytest.approx(caps[game_id] / 16, rel=0.01)
        for bad in ("0", "lots", "999999"):
            reply = engine.handle_line(f"setoption name Hash value {bad}")
            assert len(reply) == 1 and reply[0].startswith("info string error setoption: Hash")
        assert engine.hash_mb == 64
    # a gomoku node (a 225-point position and its wide fan-out) costs several times a connect4 node
    assert caps["connect4"] > 4 * caps["gomoku"] > 4 * 200_000


def test_go_infinite_stops_growing_the_tree_at_the_cap_and_waits_for_stop():
    engine = UCIEngine(get_game("tictactoe"), evaluator=UniformEvaluator(), node_cap=300, seed=0)
    lines: list[str] = []
    thread = engine.start_go("go infinite", lines.append)
    thread.join(timeout=0.5)
    assert thread.is_alive()  # infinite: no bestmove before stop, even with the cap reached
    engine.stop()
    thread.join(timeout=10)
    assert lines[-1].startswith("bestmove ")
    nodes = [int(l.split(" nodes ")[1].split()[0]) for l in lines if " nodes " in l]
    assert nodes and max(nodes) <= 300
