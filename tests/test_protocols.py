"""The engine protocols other programs speak (UCCI for xiangqi, Gomocup for gomoku, NBoard
for othello) and their clients: complete games over pipes between our clients and our
engines (both colours), our UCCI client against fairy-stockfish, python-chess's UCI layer
driving ``main.py uci``, handshakes answered before torch is imported, and malformed lines
answered with an error while the engine keeps going. Engines run with ``--model rollout``
and a few visits per move, so that each game takes seconds."""
from __future__ import annotations

import os
import re
import json
import textwrap
import subprocess
import sys
import time
from pathlib import Path

import pytest

from engine.commands.specs import SpecError, find_fairy_stockfish, parse_engine_spec, player_from_spec
from engine.core.evaluators import UniformEvaluator
from engine.play.arena import play_game
from engine.play.players import RandomPlayer
from engine.protocols.gomocup import GomocupBrain
from engine.protocols.gomocup_client import GomocupBrainPlayer
from engine.protocols.nboard import GGFError, NBoardEngine, parse_ggf
from engine.protocols.nboard_client import NBoardEnginePlayer, ggf_record
from engine.protocols.process import EngineError
from engine.protocols.ucci import UCCIEngine
from engine.protocols.ucci_client import UCCIEnginePlayer
from games import get_game

ROOT = Path(__file__).resolve().parent.parent
MAIN = [sys.executable, str(ROOT / "main.py")]
STOCKFISH = find_fairy_stockfish()


def lines_of(engine, line: str) -> list[str]:
    """The reply lines to one command (the UCI-family engines return them; the others emit them)."""
    if isinstance(engine, UCCIEngine):
        return engine.handle_line(line)
    out: list[str] = []
    engine.handle_line(line, out.append)
    return out


TRANSCRIPTS = ROOT / "tests" / "transcripts"


def check_transcript(transcript: list[str], reply_re: re.Pattern, name: str | None = None) -> None:
    """Every line the engine printed fits the protocol's grammar. With ZEROBOARD_KEEP_TRANSCRIPTS=1
    the session is written to tests/transcripts/NAME.txt (the committed examples come from there)."""
    for line in transcript:
        if line.startswith("< "):
            assert reply_re.match(line[2:]), f"unexpected reply {line!r}"
    if name and os.environ.get("ZEROBOARD_KEEP_TRANSCRIPTS"):
        TRANSCRIPTS.mkdir(exist_ok=True)
        (TRANSCRIPTS / f"{name}.txt").write_text("\n".join(transcript) + "\n", encoding="utf-8")


# --- UCCI (xiangqi) ----------------------------------------------------------------------
UCCI_REPLY = re.compile(r"^(id (name|copyright|author|user) .+|option \S+ type .+|ucciok|readyok|bye|nobestmove"
                        r"|bestmove [a-i]\d[a-i]\d|info depth \d+ score -?\d+( pv .+)?|info nodes \d+ time \d+"
                        r"|info string .+)$")


def test_ucci_client_and_engine_play_a_game_over_pipes_both_ways():
    game = get_game("xiangqi")
    ours = [*MAIN, "ucci", "--model", "rollout"]
    with UCCIEnginePlayer(game, ours, {"nodes": 8}, keep_transcript=True) as red, \
            UCCIEnginePlayer(game, ours, {"nodes": 8}, keep_transcript=True) as black:
        assert red.engine_name.startswith("ZeroBoard") and red.millisec
        final, actions = play_game(game, red, black, max_plies=30)
        assert len(actions) == 30 or final.is_terminal()
        for p, seat in ((red, "red"), (black, "black")):
            check_transcript(p.process.transcript, UCCI_REPLY, f"ucci-ours-vs-ours-{seat}")
            assert "> setoption usemillisec true" in p.process.transcript
            assert any(l.startswith("> go nodes 8") for l in p.process.transcript)


def test_ucci_engine_finishes_a_game_it_can_win_and_then_has_no_move():
    game = get_game("xiangqi")
    start = game.state_from_text("3k5/9/4R4/9/9/9/9/9/9/4K4 w")  # rook and general against a lone general
    with UCCIEnginePlayer(game, [*MAIN, "ucci", "--model", "rollout"], {"nodes": 200}) as red:
        final, actions = play_game(game, red, RandomPlayer(game, seed=0), start=start, max_plies=40)
    assert final.is_terminal() and final.winner() == 0
    engine = UCCIEngine(game, evaluator=UniformEvaluator(), seed=0)
    lines_of(engine, "position fen " + final.to_text())
    assert lines_of(engine, "go nodes 10") == ["nobestmove"]


@pytest.mark.skipif(STOCKFISH is None, reason="needs fairy-stockfish (apt-get install fairy-stockfish)")
def test_our_ucci_engine_plays_a_complete_game_against_fairy_stockfish_in_ucci_mode():
    game = get_game("xiangqi")
    with UCCIEnginePlayer(game, [*MAIN, "ucci", "--model", "rollout"], {"nodes": 16}, keep_transcript=True) as ours, \
            UCCIEnginePlayer(game, [STOCKFISH], {"depth": 1}, keep_transcript=True) as sf:
        assert sf.engine_name.startswith("Fairy-Stockfish")
        final, actions = play_game(game, ours, sf)
        assert final.is_terminal(), "a complete game, every move legal (play_game uses State.play)"
        assert any(l.startswith("> go depth 1") for l in sf.process.transcript)
        check_transcript(ours.process.transcript, UCCI_REPLY, "ucci-ours-vs-fairy-stockfish")
        check_transcript(sf.process.transcript, re.compile(".*"), "ucci-fairy-stockfish-vs-ours")


def test_ucci_engine_answers_bad_lines_with_an_error_and_keeps_going():
    engine = UCCIEngine(get_game("xiangqi"), evaluator=UniformEvaluator(), seed=0)
    for bad in ["bogus", "position", "position fen 9/9 w", "position startpos moves z9z9", "go nodes x",
                "go depth 3 movestogo 2", "go wibble 4", "banmoves a0a9", "setoption usemillisec maybe",
                "setoption nosuch 1", "setoption"]:
        out = lines_of(engine, bad)
        assert len(out) == 1 and out[0].startswith("info string error"), (bad, out)
    lines_of(engine, "position startpos moves h2e2")
    lines_of(engine, "banmoves h9g7 b9c7")
    out = lines_of(engine, "go nodes 30")
    assert out[-1].startswith("bestmove ") and out[-1].split()[1] not in ("h9g7", "b9c7")
    assert lines_of(engine, "quit") == ["bye"]


def test_ucci_probe_answers_pophash_with_what_the_last_search_knows():
    """UCCI 3.0: ``probe POSITION`` -> ``pophash [bestmove M]`` (never an ``info`` line)."""
    engine = UCCIEngine(get_game("xiangqi"), evaluator=UniformEvaluator(), seed=0)
    assert lines_of(engine, "probe startpos") == ["pophash"]          # nothing searched yet
    lines_of(engine, "position startpos")
    best = lines_of(engine, "go nodes 200")[-1].split()[1]
    assert lines_of(engine, "probe startpos") == [f"pophash bestmove {best}"]
    assert lines_of(engine, "probe") == [f"pophash bestmove {best}"]  # the current position
    # one move from the searched root: the child's own most visited move
    child = lines_of(engine, f"probe startpos moves {best}")
    assert len(child) == 1 and child[0].startswith("pophash")
    if child[0] != "pophash":
        reply = child[0].split()[2]
        state = get_game("xiangqi").initial_state()
        state = state.play(state.parse_action(best))
        assert state.parse_action(reply) in state.legal_actions()
    assert lines_of(engine, "probe startpos moves h2e2 h9g7 b0c2") == ["pophash"]   # not in the tree
    bad = lines_of(engine, "probe startpos moves z9z9")
    assert len(bad) == 1 and bad[0].startswith("info string error probe")


def test_ucci_probe_during_a_search_answers_at_once_and_leaves_it_running():
    import io
    import threading
    from engine.protocols.ucci import ucci_serve
    engine = UCCIEngine(get_game("xiangqi"), evaluator=UniformEvaluator(), seed=0)
    r, w = os.pipe()
    out = io.StringIO()
    reader = os.fdopen(r)
    thread = threading.Thread(target=ucci_serve, args=(engine, reader, out), daemon=True)
    thread.start()
    with os.fdopen(w, "w") as feed:
        for line in ("position startpos", "go infinite", "probe startpos"):
            feed.write(line + "\n")
            feed.flush()
            time.sleep(0.3)
        assert "pophash" in out.getvalue().split("\n") and "bestmove" not in out.getvalue()
        feed.write("stop\nquit\n")
    thread.join(30)
    lines = out.getvalue().split("\n")
    assert any(l.startswith("bestmove ") for l in lines) and "bye" in lines


def test_ucci_go_time_follows_usemillisec():
    engine = UCCIEngine(get_game("xiangqi"), evaluator=UniformEvaluator(), seed=0)
    sims, seconds, _ = engine._parse_go("go time 30 increment 0".split(), print)
    assert seconds == pytest.approx(1.0)   # 30 s over 30 moves
    lines_of(engine, "setoption usemillisec true")
    sims, seconds, _ = engine._parse_go("go time 3000 movestogo 3".split(), print)
    # 3000 ms over 3 moves: the app's plan (`engine.play.clock.clock_budget`) gives an even share,
    # but never more than a third of what is left after its half-second reserve
    assert seconds == pytest.approx((3.0 - 0.5) / 3)
    assert engine._parse_go("go nodes 77".split(), print)[:2] == (77, None)


# --- Gomocup (gomoku) ----------------------------------------------------------------------
GOMOCUP_REPLY = re.compile(r'^(OK|\d+,\d+|DEBUG .+|MESSAGE .+|name="[^"]*", version="[^"]*", author="[^"]*")$')


def test_gomocup_client_and_brain_play_a_complete_game_over_pipes_both_ways():
    game = get_game("gomoku", size=9)
    brain = [*MAIN, "pbrain", "--model", "rollout"]
    with GomocupBrainPlayer(game, brain, {"nodes": 24}, keep_transcript=True) as black, \
            GomocupBrainPlayer(game, brain, {"nodes": 24}, keep_transcript=True) as white:
        assert black.engine_name == "ZeroBoard"
        final, actions = play_game(game, black, white)
        assert final.is_terminal()
        for p, seat in ((black, "black"), (white, "white")):
            t = p.process.transcript
            check_transcript(t, GOMOCUP_REPLY, f"gomocup-brain-vs-brain-{seat}")
            assert "> START 9" in t and "> INFO max_node 24" in t
        assert "> BEGIN" in black.process.transcript
        assert any(l.startswith("> TURN ") for l in white.process.transcript)


def test_gomocup_client_sends_board_when_the_brain_does_not_know_the_position():
    game = get_game("gomoku", size=9)
    with GomocupBrainPlayer(game, [*MAIN, "pbrain", "--model", "rollout"], {"nodes": 10}, keep_transcript=True) as p:
        state = game.state_from_text("e5 d4 e4")
        action = p.choose(state).action
        assert action in state.legal_actions()
        t = p.process.transcript
        assert t[t.index("> BOARD") + 1:t.index("> DONE")] == ["> 4,4,2", "> 3,5,1", "> 4,5,2"]


def test_gomocup_brain_plays_the_rule_info_rule_names():
    brain = GomocupBrain(model_path="rollout", seed=0)
    assert lines_of(brain, "START 15") == ["OK"]
    assert brain.game.key == "gomoku"
    for number, key in (("4", "gomoku-renju"), ("1", "gomoku-standard"), ("5", "gomoku-renju"), ("0", "gomoku")):
        assert lines_of(brain, f"INFO rule {number}") == [] and brain.game.key == key
    lines_of(brain, "INFO rule 4")
    lines_of(brain, "INFO max_node 30")
    # the brain is black (as many own stones as the opponent's) and 5,5 is a double three for it:
    # its own stones 5,3 5,4 (a column) and 3,5 4,5 (a row) meet there
    board = ["5,3,1", "0,14,2", "5,4,1", "2,14,2", "3,5,1", "4,14,2", "4,5,1", "6,14,2"]
    for line in ["BOARD", *board]:
        assert lines_of(brain, line) == []
    before = brain.game.initial_state()
    for a in (3 * 15 + 5, 14 * 15, 4 * 15 + 5, 14 * 15 + 2, 5 * 15 + 3, 14 * 15 + 4, 5 * 15 + 4, 14 * 15 + 6):
        before = before.apply(a)
    assert before.forbidden_actions() == [5 * 15 + 5]
    move = lines_of(brain, "DONE")[-1]
    assert re.fullmatch(r"\d+,\d+", move) and move != "5,5"
    # an opponent playing black that plays a forbidden point is refused
    brain2 = GomocupBrain(model_path="rollout", seed=0)
    lines_of(brain2, "START 15")
    lines_of(brain2, "INFO rule 4")
    lines_of(brain2, "INFO max_node 5")
    for line in ("PLAY 5,3", "PLAY 0,14", "PLAY 5,4", "PLAY 2,14", "PLAY 3,5", "PLAY 4,14", "PLAY 4,5", "PLAY 6,14"):
        lines_of(brain2, line)
    assert lines_of(brain2, "TURN 5,5")[0] == "ERROR TURN 5,5: that point is forbidden for black under renju"


def test_a_brain_playing_a_forbidden_point_loses_that_game_and_the_match_goes_on(tmp_path):
    """Renju's own penalty: black's forbidden point loses the game. A brain that plays one (Rapfi
    did, once in 300 games at 1000 nodes) loses that game; the match is not stopped."""
    from engine.play.arena import Forfeit, play_match
    from engine.protocols.gomocup_client import ForbiddenPoint
    script = tmp_path / "brain.py"
    script.write_text(textwrap.dedent("""
        import sys
        taken, in_board = set(), False
        def answer():
            free = [(5, 5)] + [(x, y) for y in range(15) for x in range(15)]
            x, y = next(p for p in free if p not in taken)
            taken.add((x, y))
            print(f"{x},{y}", flush=True)
        for line in sys.stdin:
            words = line.replace(",", " ").split()
            if in_board:
                if words and words[0].upper() == "DONE":
                    in_board = False
                    answer()
                elif len(words) == 3:
                    taken.add((int(words[0]), int(words[1])))
                continue
            word = words[0].upper() if words else ""
            if word == "START":
                taken.clear()
                print("OK", flush=True)
            elif word == "BOARD":
                taken.clear()
                in_board = True
            elif word == "TURN":
                taken.add((int(words[1]), int(words[2])))
                answer()
            elif word == "BEGIN":
                answer()
            elif word == "ABOUT":
                print('name="fixed", version="1", author="test"', flush=True)
            elif word == "END":
                break
    """))
    game = get_game("gomoku", rule="renju")
    # black's 5,3 5,4 (a column) and 3,5 4,5 (a row) meet at 5,5: a double three, black to move
    start = game.initial_state()
    for a in (3 * 15 + 5, 14 * 15, 4 * 15 + 5, 14 * 15 + 2, 5 * 15 + 3, 14 * 15 + 4, 5 * 15 + 4, 14 * 15 + 6):
        start = start.apply(a)
    assert 5 * 15 + 5 in start.forbidden_actions()
    with GomocupBrainPlayer(game, [sys.executable, str(script)], {"nodes": 10}) as brain:
        with pytest.raises(ForbiddenPoint):
            brain.choose(start)
        final, actions = play_game(game, brain, brain, start)
        assert isinstance(final, Forfeit) and actions == [] and final.winner() == 1
        assert "forbidden" in final.end_reason() and "f10" in final.end_reason()
        records = []
        result = play_match(game, brain, RandomPlayer(game, seed=0), 2, openings=[start],
                            on_record=lambda *r: records.append(r))
        # A (the brain) is black in the first game and loses it at once; the second game is played out
        assert result.games == 2 and records[0][5] == "loss" and isinstance(records[0][3], Forfeit)
        assert not isinstance(records[1][3], Forfeit) and records[1][3].is_terminal()
        json.dumps(records[0][3].end_reason())


def test_gomocup_client_sends_the_games_rule():
    game = get_game("gomoku", size=9, rule="renju")
    with GomocupBrainPlayer(game, [*MAIN, "pbrain", "--model", "rollout"], {"nodes": 10}, keep_transcript=True) as p:
        state = game.state_from_text("e5 d4 e4")
        assert p.choose(state).action in state.legal_actions()
        assert "> INFO rule 4" in p.process.transcript


def test_gomocup_brain_refuses_what_it_cannot_play_and_keeps_going():
    brain = GomocupBrain(model_path="rollout", seed=0)
    assert lines_of(brain, "TURN 1,1")[0].startswith("ERROR")            # no START yet
    assert lines_of(brain, "START 40")[0].startswith("ERROR")
    assert lines_of(brain, "RECTSTART 9,11")[0].startswith("ERROR")
    assert lines_of(brain, "START 9") == ["OK"]
    assert lines_of(brain, "INFO rule 8")[0].startswith("ERROR")        # caro
    assert lines_of(brain, "INFO rule 0") == [] and lines_of(brain, "INFO rule 2") == []
    assert lines_of(brain, "INFO timeout_turn soon")[0].startswith("ERROR")
    assert lines_of(brain, "INFO evaluate 3,3") == []                    # for the manager: ignored
    assert lines_of(brain, "FROB")[0].startswith("UNKNOWN")
    assert lines_of(brain, "INFO max_node 20") == []
    assert lines_of(brain, "TURN 9,9")[0].startswith("ERROR")
    for line in ("BOARD", "4,4,3"):
        assert lines_of(brain, line) == []
    assert lines_of(brain, "DONE")[0].startswith("ERROR")                # continuous-game fields
    for line in ("BOARD", "4,4,2", "0,0,1", "8,8,2"):
        lines_of(brain, line)
    out = lines_of(brain, "DONE")
    assert re.fullmatch(r"\d,\d", out[-1])
    x, y = map(int, out[-1].split(","))
    assert lines_of(brain, f"TAKEBACK {x},{y}") == ["OK"]
    assert lines_of(brain, "PLAY 7,7") == ["7,7"]
    assert lines_of(brain, "RESTART") == ["OK"]
    assert re.fullmatch(r"\d,\d", lines_of(brain, "BEGIN")[-1])


def test_a_board_block_longer_than_the_board_is_dropped_not_kept_without_end():
    """``BOARD`` lines were kept until ``DONE`` however many came; the line after as many as the
    board has points ends the block with an error (what follows is no position), and the brain
    goes on."""
    brain = GomocupBrain(model_path="rollout", seed=0)
    assert lines_of(brain, "START 9") == ["OK"]
    assert lines_of(brain, "BOARD") == []
    replies = [lines_of(brain, f"{i % 9},{i // 9 % 9},1") for i in range(200)]
    assert replies[:81] == [[]] * 81 and replies[81][0].startswith("ERROR BOARD has more lines")
    assert brain.board_lines is None and all(r[0].startswith("UNKNOWN") for r in replies[82:])
    assert lines_of(brain, "DONE")[0].startswith("UNKNOWN")
    assert lines_of(brain, "PLAY 4,4") == ["4,4"]


def test_gomocup_brain_sizes_follow_its_model():
    shipped = GomocupBrain()
    assert shipped.playable(15) is None and shipped.playable(9) is not None
    assert GomocupBrain(model_path="some.pt", model_size=9).playable(9) is None
    assert GomocupBrain(model_path="rollout").playable(20) is None


def test_gomocup_budget_from_info():
    brain = GomocupBrain(evaluator=UniformEvaluator(), seed=0)
    lines_of(brain, "START 15")
    lines_of(brain, "INFO max_node 300")
    assert brain.budget() == (300, None)
    lines_of(brain, "INFO timeout_turn 2000")
    sims, seconds = brain.budget()
    assert sims == 300 and seconds == pytest.approx(2.0 * 0.8 - 0.15)
    lines_of(brain, "INFO max_memory 500000")  # half of it for the tree: about 120 nodes of 15x15
    assert 100 <= brain.budget()[0] < 300


# --- NBoard (othello) -----------------------------------------------------------------------
NBOARD_REPLY = re.compile(r"^(set myname .+|pong \d+|status.*|nodestats \d+ [\d.]+|=== ([A-H][1-8]|PA)/-?[\d.]+/[\d.]+"
                          r"|search \S+ -?[\d.]+ 0 \d+.*|learned|analysis \d+ -?[\d.]+)$")


def test_nboard_client_and_engine_play_complete_games_over_pipes_both_ways():
    game = get_game("othello")
    engine = [*MAIN, "nboard", "--model", "rollout"]
    with NBoardEnginePlayer(game, engine, {"depth": 1}, keep_transcript=True) as black, \
            NBoardEnginePlayer(game, engine, {"depth": 2}, keep_transcript=True) as white:
        final, actions = play_game(game, black, white)
        assert final.is_terminal()
        for p, seat in ((black, "black"), (white, "white")):
            check_transcript(p.process.transcript, NBOARD_REPLY, f"nboard-engine-vs-engine-{seat}")
            assert p.engine_name == "ZeroBoard"
        assert "> set depth 1" in black.process.transcript and "> set depth 2" in white.process.transcript


def test_ggf_records_round_trip_and_the_gui_example_parses():
    from games.othello import Othello
    game = get_game("othello")
    example = ("(;GM[Othello]PC[NBoard]DT[2014-02-21 20:52:27 GMT]PB[./mEdax]PW[chris]RE[?]TI[15:00]TY[8]"
               "BO[8 ---------------------------O*------*O--------------------------- *]"
               "B[F5]W[F6]B[D3]W[C5]B[E6]W[F7]B[E7]W[F4];)")
    state = parse_ggf(Othello, example)
    assert state.to_text() == "f5f6d3c5e6f7e7f4"
    assert parse_ggf(Othello, ggf_record(state)).key() == state.key()
    custom = parse_ggf(Othello, "(;GM[Othello]BO[8 " + "-" * 27 + "O*------**--------------------------- O];)")
    assert custom.current_player == 1 and custom.discs() == (3, 1)
    for bad in ["(;GM[Othello];)", "(;BO[8 xx];)", "(;BO[8 " + "-" * 64 + " *]B[a1];)",
                "(;BO[7 " + "-" * 49 + " *];)"]:
        with pytest.raises(GGFError):
            parse_ggf(Othello, bad)


def test_nboard_engine_answers_hint_analyze_ping_and_survives_bad_lines():
    engine = NBoardEngine(evaluator=UniformEvaluator(), seed=0)
    assert lines_of(engine, "nboard 2") == ["set myname ZeroBoard"]
    lines_of(engine, "set depth 1")
    lines_of(engine, "set game (;GM[Othello]BO[8 ---------------------------O*------*O--------------------------- *]"
                     "B[F5]W[F6];)")
    hint = lines_of(engine, "hint 3")
    assert hint[0].startswith("status") and hint[-1] == "status"
    assert 1 <= sum(l.startswith("search ") for l in hint) <= 3
    assert all(NBOARD_REPLY.match(l) for l in hint)
    go = lines_of(engine, "go")
    assert go[-2].startswith("=== ") and engine.state.to_text() == "f5f6"   # go does not move
    assert lines_of(engine, "ping 7") == ["pong 7"] and lines_of(engine, "learn") == ["learned"]
    analysis = lines_of(engine, "analyze")
    assert [l.split()[1] for l in analysis if l.startswith("analysis")] == ["2", "1", "0"]
    for bad in ["move z9", "move a1", "set depth -1", "set game (;nonsense;)"]:
        out = lines_of(engine, bad)
        assert len(out) == 1 and out[0].startswith("status error:"), (bad, out)
    assert lines_of(engine, "frobnicate") == []                       # unknown lines: ignored, as NBoard asks
    lines_of(engine, "move d3")
    assert engine.state.to_text() == "f5f6d3"


# --- specs, handshakes, python-chess ------------------------------------------------------------
def test_engine_specs_name_their_work_per_move():
    assert parse_engine_spec("ucci", "/usr/games/fairy-stockfish@depth1") == ("/usr/games/fairy-stockfish", {"depth": 1}, {})
    assert parse_engine_spec("gomocup", "pbrain-x@nodes500")[1] == {"nodes": 500}
    assert parse_engine_spec("gomocup", "pbrain-x@250")[1] == {"movetime": 250}
    assert parse_engine_spec("nboard", "edax")[1] == {"depth": 8}
    with pytest.raises(SpecError):
        parse_engine_spec("nboard", "edax?x=1")
    with pytest.raises(SpecError):
        parse_engine_spec("ucci", "@depth0")
    with pytest.raises(SpecError):
        player_from_spec(get_game("othello"), "nboard:engine@200")   # NBoard has only depth
    with pytest.raises(SpecError):
        player_from_spec(get_game("gomoku"), "gomocup:/nonexistent/pbrain-none@nodes10")


def test_clients_refuse_games_their_protocol_does_not_play():
    with pytest.raises(EngineError):
        UCCIEnginePlayer(get_game("othello"), "true")
    with pytest.raises(EngineError):
        GomocupBrainPlayer(get_game("xiangqi"), "true")
    with pytest.raises(EngineError):
        NBoardEnginePlayer(get_game("gomoku"), "true")


HANDSHAKE_PROBE = """
import sys
from engine.protocols.uci import UCIEngine
from engine.protocols.ucci import UCCIEngine
from engine.protocols.gomocup import GomocupBrain
from engine.protocols.nboard import NBoardEngine
from games import get_game
out = []
def reply(line):  # torch must not be loaded yet when the handshake's answer goes out
    out.append((line, "torch" in sys.modules))
for line in UCIEngine(get_game("tictactoe")).handle_line("uci") + UCCIEngine(get_game("xiangqi")).handle_line("ucci"):
    reply(line)
GomocupBrain().handle_line("START 15", reply)
NBoardEngine().handle_line("nboard 2", reply)
print(sorted(set(line for line, torch in out if torch)), [line for line, _ in out if line in ("uciok", "ucciok", "OK", "set myname ZeroBoard")])
# the engines' models are still loading on their background threads: leave without waiting
# for them (an interpreter shutting down under a thread that is importing torch or ONNX
# Runtime can abort, which says nothing about the handshakes measured here)
sys.stdout.flush()
import os
os._exit(0)
"""


def test_handshakes_are_answered_without_importing_torch():
    """The model loads after the handshake (on a thread the servers start afterwards), so a
    GUI's first wait does not include torch's import (seconds)."""
    out = subprocess.run([sys.executable, "-c", HANDSHAKE_PROBE], cwd=ROOT, capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[] ['uciok', 'ucciok', 'OK', 'set myname ZeroBoard']"


def test_python_chess_uci_layer_drives_main_py_uci():
    """python-chess's engine layer (a UCI client nobody here wrote): handshake, options, isready.
    It cannot play a game: its board is chess, and ZeroBoard plays no chess."""
    chess_engine = pytest.importorskip("chess.engine")
    start = time.monotonic()
    engine = chess_engine.SimpleEngine.popen_uci([*MAIN, "uci", "--game", "xiangqi", "--model", "rollout"],
                                                 timeout=10.0)
    try:
        assert engine.id["name"].startswith("ZeroBoard")
        assert {"Level", "Model", "Hash"} <= set(engine.options)
        assert "beginner" in engine.options["Level"].var
        engine.configure({"Level": "beginner", "Hash": 64})
        engine.ping()
    finally:
        engine.quit()
    assert time.monotonic() - start < 10.0  # python-chess's own handshake limit


def test_the_pbrain_launcher_speaks_the_gomocup_protocol():
    """pbrain_zeroboard.py is the packaged pbrain-zeroboard executable's entry script."""
    out = subprocess.run([sys.executable, str(ROOT / "pbrain_zeroboard.py"), "--model", "rollout"], cwd=ROOT,
                         input="START 9\nINFO max_node 5\nBEGIN\nEND\n", capture_output=True, text=True, timeout=60)
    replies = [l for l in out.stdout.splitlines() if not l.startswith("DEBUG")]
    assert out.returncode == 0 and replies[0] == "OK" and re.fullmatch(r"\d,\d", replies[1]), out


def test_a_model_that_cannot_be_loaded_is_reported_and_the_engine_plays_on(tmp_path):
    broken = tmp_path / "broken.pt"
    broken.write_bytes(b"not a checkpoint")
    engine = UCCIEngine(get_game("xiangqi"), str(broken), "beginner", seed=0)
    assert engine.handle_line("ucci")[-1] == "ucciok"
    ready = engine.handle_line("isready")
    assert ready[0].startswith("info string error cannot load model") and ready[-1] == "readyok"
    assert engine.handle_line("go nodes 5")[-1].startswith("bestmove ")


def test_engine_commands_refuse_a_missing_model_file_before_speaking():
    for command in (["ucci"], ["pbrain"], ["nboard"], ["uci", "--game", "othello"]):
        out = subprocess.run([*MAIN, *command, "--model", "/nonexistent/model.pt"], cwd=ROOT, input="",
                             capture_output=True, text=True, timeout=60)
        assert out.returncode == 2 and "no such file" in out.stderr and out.stdout == "", (command, out)


def test_engines_told_to_quit_during_their_model_load_exit_cleanly():
    """A GUI may quit an engine right after the handshake, while the engine's loader thread is
    still importing torch; the engine must still end with status 0, not abort at exit."""
    sessions = ((["uci", "--game", "connect4"], "uci\nquit\n", "uciok"),
                (["ucci"], "ucci\nquit\n", "ucciok"),
                (["pbrain"], "START 15\nEND\n", "OK"),
                (["nboard"], "nboard 2\nquit\n", None))
    for command, lines, answer in sessions:
        out = subprocess.run([*MAIN, *command], cwd=ROOT, input=lines, capture_output=True, text=True,
                             timeout=120)
        assert out.returncode == 0 and "terminate called" not in out.stderr, (command, out)
        assert answer is None or answer in out.stdout.splitlines(), (command, out)


LEFT_OPEN_PROBE = """
import sys
from engine.protocols.process import EngineProcess, ProcessPlayer
ECHO = "import sys\\nfor l in sys.stdin:\\n    print(l.strip(), flush=True)\\n    if l.strip() == QUIT: break"
class Player(ProcessPlayer):
    def __init__(self, quit_word):
        self.process = EngineProcess([sys.executable, "-c", ECHO.replace("QUIT", repr(quit_word))])
players = [Player("quit"), Player("never")]   # the second ignores quit and is killed
for p in players:
    p.process.send("hello")
    print(p.process.read_line(10))
"""


def test_a_program_that_leaves_engines_open_still_exits_cleanly():
    """A script that never closes its engine players: at exit the engines are ended while
    the program's threads still run (closing their pipes during the interpreter's shutdown,
    under the reader threads, aborted it: 'Fatal Python error: _enter_buffered_busy')."""
    out = subprocess.run([sys.executable, "-c", LEFT_OPEN_PROBE], cwd=ROOT, capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0 and "Fatal" not in out.stderr, out
    assert out.stdout.split() == ["hello", "hello"]


FLAKY_BRAIN = r"""
import sys
size, requests, board = 15, 0, set()
fail_from, fail_once = int(sys.argv[1]), sys.argv[2] == "once"
def answer():
    global requests
    requests += 1
    if requests == fail_from or (requests > fail_from and not fail_once):
        print("ERROR Unknown command: 15", flush=True)
        return
    x, y = next((x, y) for y in range(size) for x in range(size) if (x, y) not in board)
    board.add((x, y))
    print(f"{x},{y}", flush=True)
lines = iter(sys.stdin)
for line in lines:
    word, _, rest = line.strip().partition(" ")
    if word == "START":
        size, board = int(rest), set()
        print("OK", flush=True)
    elif word == "ABOUT":
        print('name="Flaky"', flush=True)
    elif word == "BEGIN":
        answer()
    elif word == "TURN":
        board.add(tuple(map(int, rest.split(","))))
        answer()
    elif word == "BOARD":
        board = set()
        for row in lines:
            if row.strip() == "DONE":
                break
            x, y, _ = row.strip().split(",")
            board.add((int(x), int(y)))
        answer()
    elif word == "END":
        break
"""


def flaky_brain(tmp_path, fail_from: int, once: bool) -> str:
    script = tmp_path / "flaky_brain.py"
    script.write_text(FLAKY_BRAIN)
    return f"{sys.executable} {script} {fail_from} {'once' if once else 'always'}"


def test_a_gomocup_brain_that_loses_track_once_is_started_afresh(tmp_path):
    game = get_game("gomoku", size=9)
    brain = GomocupBrainPlayer(game, flaky_brain(tmp_path, 3, once=True), {"nodes": 10})
    try:
        state = game.initial_state()
        for _ in range(8):   # the brain's third answer is an ERROR: it is re-sent the whole board
            state = state.play(brain.choose(state).action if state.current_player == 0 else
                               next(a for a in state.legal_actions()[::-1]))
        assert len(state.moves) == 8
    finally:
        brain.close()


def test_an_arena_stopped_by_a_failing_engine_still_reports_its_finished_games(tmp_path):
    out = subprocess.run([*MAIN, "arena", "--game", "gomoku", "--size", "9", "--a", "random",
                          "--b", "gomocup:" + flaky_brain(tmp_path, 15, once=False), "--games", "6", "--quiet"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1 and "arena stopped after" in out.stderr, out
    report = json.loads(out.stdout)
    assert report["games"] >= 1 and report["wins"] + report["draws"] + report["losses"] == report["games"]
    assert report["stopped"].startswith(f"after {report['games']} of 6 games")


@pytest.mark.parametrize("protocol", ["uci", "pbrain", "nboard"])
def test_bytes_that_are_not_utf8_on_stdin_are_an_unknown_line_not_a_crash_or_a_hang(protocol):
    """A UTF-8 locale's stdin is strict: bad bytes once killed uci with a traceback and left
    pbrain and nboard waiting forever on a reader thread that had died."""
    import io
    import threading
    from engine.protocols import gomocup, nboard, uci
    if protocol == "uci":
        engine, serve = uci.UCIEngine(get_game("tictactoe"), evaluator=UniformEvaluator()), uci.serve
        script, answer = b"\xff\xfe bad\nisready\n", "readyok"
    elif protocol == "pbrain":
        engine, serve = GomocupBrain(evaluator=UniformEvaluator()), gomocup.serve
        script, answer = b"\xff\xfe bad\nABOUT\n", 'name="ZeroBoard"'
    else:
        engine, serve = NBoardEngine(evaluator=UniformEvaluator()), nboard.serve
        script, answer = b"\xff\xfe bad\nping 3\n", "pong 3"
    stdin = io.TextIOWrapper(io.BytesIO(script), encoding="utf-8")   # errors="strict", as a UTF-8 locale's
    out = io.StringIO()
    server = threading.Thread(target=serve, args=(engine, stdin, out), daemon=True)
    server.start()
    server.join(30)
    assert not server.is_alive(), "the engine hung"
    assert out.getvalue().splitlines()[-1].startswith(answer), out.getvalue()


def test_digits_int_cannot_read_are_a_malformed_number_not_an_internal_error():
    """'²' is a digit to str.isdigit() but not to int(): it once came out as 'internal: ValueError'."""
    brain = GomocupBrain(evaluator=UniformEvaluator())
    assert lines_of(brain, "START ²") == ["ERROR START needs a board size, not '²'"]
    assert lines_of(brain, "START 15") == ["OK"]
    assert lines_of(brain, "INFO max_node ²")[0].startswith("ERROR INFO max_node needs a whole number")
    engine = NBoardEngine(evaluator=UniformEvaluator())
    out = lines_of(engine, "set depth ²")
    assert len(out) == 1 and out[0].startswith("status error:") and "internal" not in out[0]
    game = get_game("tictactoe")
    for spec in ("rollout:²", "model:x@²"):
        with pytest.raises(SpecError):
            player_from_spec(game, spec)


def test_numbers_of_thousands_of_digits_are_malformed_lines_not_internal_errors():
    """int() refuses more than 4,300 digits: such a coordinate or board size once came out as
    'internal: ValueError: Exceeds the limit'."""
    brain = GomocupBrain(evaluator=UniformEvaluator())
    huge = "9" * 5000
    assert lines_of(brain, f"RECTSTART {huge},{huge}")[0].startswith("ERROR RECTSTART needs width,height")
    assert lines_of(brain, "START 15") == ["OK"]
    assert lines_of(brain, f"TURN {huge},1")[0].startswith("ERROR TURN needs x,y")
    engine = NBoardEngine(evaluator=UniformEvaluator())
    out = lines_of(engine, f"set game (;GM[Othello]BO[{huge} *]B[F5];)")
    assert len(out) == 1 and out[0].startswith("status error:") and "internal" not in out[0], out


def test_an_outside_engine_that_writes_numbers_int_cannot_read_is_still_played(tmp_path):
    """A UCI engine declaring a spin bound that is no number, and scores of thousands of digits:
    the client once died with a ValueError traceback."""
    from engine.protocols.uci_client import UCIEnginePlayer, UCIEngineError
    script = tmp_path / "engine.py"
    script.write_text(textwrap.dedent("""
        import sys
        for line in sys.stdin:
            words = line.split()
            if words[:1] == ["uci"]:
                print("id name odd\\noption name Foo type spin default 1 min abc max ²\\nuciok", flush=True)
            elif words[:1] == ["isready"]:
                print("readyok", flush=True)
            elif words[:1] == ["go"]:
                print("info depth 1 score cp " + "9" * 5000 + "\\nbestmove b2", flush=True)
            elif words[:1] == ["quit"]:
                break
        """), encoding="utf-8")
    game = get_game("tictactoe")
    with UCIEnginePlayer(game, [sys.executable, str(script)], 50, {"Foo": "3"}) as player:
        result = player.choose(game.initial_state())
        assert game.initial_state().action_to_text(result.action) == "b2" and result.value == 0.0
    with pytest.raises(UCIEngineError, match="takes a whole number"):
        UCIEnginePlayer(game, [sys.executable, str(script)], 50, {"Foo": "²"})
