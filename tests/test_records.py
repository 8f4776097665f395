"""Game records in each game's exchange formats (games/records): records other programs
write load, every format round-trips every game, and no input makes a reader raise anything
but RecordFormatError (property-based fuzz)."""
from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import get_game
from games.records import (FORMATS, RecordFormatError, formats_for, load_bytes, peek_record, read_record,
                           write_record)

DATA = Path(__file__).parent / "data" / "records"
GAMES = [("tictactoe", {}), ("connect2", {}), ("connect4", {}), ("othello", {}), ("othello", {"size": 6}),
         ("gomoku", {}), ("gomoku", {"size": 9}), ("xiangqi", {})]
META = {"you": "second", "level": "hard", "date": "2026-11-25 10:11:12", "app": "ZeroBoard 1.0"}


def random_game(game, rng, plies):
    s = game.initial_state()
    for _ in range(plies):
        if s.is_terminal():
            break
        s = s.apply(rng.choice(s.legal_actions()))
    return s


def load(name, game=None):
    return load_bytes((DATA / name).read_bytes(), game, name)


# --- records other programs write ----------------------------------------------------------
def test_an_xqbase_pgn_in_gbk_with_iccs_moves_loads():
    r = load("xqbase_iccs.pgn")
    assert r.format == "pgn" and r.state.game.id == "xiangqi"
    assert r.state.to_text().endswith("moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4 b7a7 b0c2 a9b9 a0b0 h7h3")
    assert r.meta["first_player"] == "甲" and r.meta["second_player"] == "乙"
    assert r.meta["event"] == "全国象棋个人赛" and r.meta["date"] == "1999-05-12"
    assert r.meta["result"] == "draw"        # agreed: the board is not finished


def test_a_wxf_pgn_from_a_fen_with_black_to_move_loads_to_the_mate():
    r = load("wxf_endgame.pgn")
    s = r.state
    assert s.to_text() == "4k4/9/9/9/9/9/9/9/9/3K1R3 b - - 0 1 moves e9e8 f0f1 e8e9 f1f8"
    assert s.is_terminal() and s.winner() == 0 and r.meta["result"] == "first"


def test_chinese_movetext_with_traditional_characters_comments_and_variations_loads():
    r = load("chinese_moves.pgn")
    assert r.state.to_text().endswith("moves h2e2 h9g7 h0g2 i9h9 i0h0 b9c7 c3c4")   # the variation is skipped
    assert r.meta["result"] == "unfinished"


def test_a_web_gomoku_sgf_loads_its_main_line_to_the_five():
    r = load("gomoku_webrenju.sgf")
    assert r.state.game.key == "gomoku" and r.state.to_text() == "h8 h9 i8 i9 j8 j9 k8 k9 l8"
    assert r.state.winner() == 0 and r.meta["result"] == "first"
    assert r.meta["first_player"] == "Alice" and r.meta["date"] == "2024-03-05"


@pytest.mark.parametrize("name", ["othello_edax.sgf", "othello_cassio.sgf"])
def test_othello_sgfs_from_edax_and_cassio_load_with_their_pass(name):
    r = load(name)
    s = r.state
    assert s.game.key == "othello" and s.is_terminal() and s.winner() == 0
    assert s.game.pass_action in s.moves and len(s.moves) == 61   # Cassio leaves the pass out; it is put back
    assert r.meta["result"] == "first"


def test_a_gomocup_psq_with_times_program_names_and_crlf_loads():
    r = load("gomocup.psq")
    s = r.state
    assert s.game.key == "gomoku-20" and len(s.moves) == 10
    assert s.moves[0] == 9 * 20 + 9 and s.moves[1] == 8 * 20 + 10       # x,y from 1 at the top-left
    assert "you" not in r.meta                                          # two computer players


def test_a_connect4_column_string_loads_as_connect_four():
    r = load("connect4_solver.txt")
    assert r.state.game.id == "connect4" and r.state.to_text() == "4453432"


def test_an_old_zeroboard_save_still_loads():
    r = load("zeroboard_old_connect2.txt")
    assert r.format == "zeroboard" and r.state.to_text() == "1 2"
    assert r.meta["you"] == "first" and r.meta["level"] == "beginner" and r.meta["date"] == "2026-11-21 14:03:55"


def test_a_utf8_bom_and_utf16_are_read():
    text = (DATA / "wxf_endgame.pgn").read_text(encoding="utf-8")
    for data in (b"\xef\xbb\xbf" + text.encode(), text.encode("utf-16")):
        assert load_bytes(data).state.is_terminal()


# --- round trips ---------------------------------------------------------------------------
@pytest.mark.parametrize("game_id,variant", GAMES)
def test_every_format_round_trips_every_game(game_id, variant):
    game = get_game(game_id, **variant)
    rng = random.Random(hash(game.key) & 0xFFFF)
    for plies in (0, 1, 7, 30, 400):
        s = random_game(game, rng, plies)
        for f in formats_for(game_id):
            options = [{"notation": n} for n in ("iccs", "wxf", "chinese")] if f.id == "pgn" else [{}]
            for opt in options:
                text = write_record(s, f.id, META, **opt)
                r = read_record(text, game if f.id == "moves" else None)
                assert r.state.game.key == game.key and r.state.moves == s.moves and r.state.key() == s.key(), text
                peeked_game, meta = peek_record(text, game if f.id == "moves" else None)
                assert peeked_game.key == game.key
                if f.id != "psq":
                    assert meta.get("moves", str(len(s.moves))) == str(len(s.moves))
                if f.id in ("pgn", "sgf", "zeroboard"):   # these keep who played and the AI's level
                    assert r.meta["you"] == "second" and r.meta["level"] == "hard"
                    assert r.meta["date"].startswith("2026-11-25")
                if f.id == "psq":
                    assert r.meta["you"] == "second"


def test_a_resignation_round_trips_as_a_result_the_board_does_not_show():
    for game_id in ("gomoku", "othello", "xiangqi"):
        s = get_game(game_id).initial_state()
        s = s.apply(s.legal_actions()[0])
        text = write_record(s, None, {"you": "first", "result": "second (resigned)"})
        assert read_record(text).meta["result"] == "second (resigned)"


def test_default_formats_are_the_games_exchange_formats():
    assert [formats_for(g)[0].id for g in ("xiangqi", "gomoku", "othello", "connect4")] == ["pgn", "sgf", "sgf",
                                                                                          "zeroboard"]
    assert write_record(get_game("connect4").state_from_text("4453")).rstrip().endswith("\n4453")


# --- errors name the place -----------------------------------------------------------------
@pytest.mark.parametrize("text,where", [
    ('[Game "Chinese Chess"]\n\n1. H2-E2 H9-G7\n2. Z9-Z8 *\n', "line 4, column 4"),
    ('[Game "Chinese Chess"]\n[FEN "nonsense w"]\n1. h2e2\n', "line 2"),
    ("(;GM[4]SZ[15]\n;B[hh];W[hh])", "line 2, column 8"),
    ("(;GM[4]SZ[15];B[hh]\n;W[ii", "line 2, column 3"),
    ("(;GM[1]SZ[19];B[dd])", "line 1"),
    ("Piskvorky 15x15, 0:0, 0\n8,8,0\n16,1,0\n", "line 3"),
    ("# ZeroBoard game record\n# game: chess\n1 2\n", "line 2"),
    ("# ZeroBoard game record\n# game: gomoku\n# variant: {\"size\": 99}\nh8\n", "line 3"),
])
def test_a_bad_record_names_the_line_of_the_fault(text, where):
    with pytest.raises(RecordFormatError) as e:
        read_record(text)
    assert where in str(e.value)


def test_a_header_with_a_superscript_digit_is_dropped_not_trusted():
    text = "# ZeroBoard game record\n# game: connect4\n# moves: ²\n# result: first\n4453\n"
    r = read_record(text)
    assert r.meta["moves"] == "4"
    game, meta = peek_record(text)
    assert "moves" not in meta


# --- fuzz: nothing but RecordFormatError ---------------------------------------------------
def _valid_records():
    rng = random.Random(5)
    out = []
    for game_id, variant in GAMES:
        game = get_game(game_id, **variant)
        s = random_game(game, rng, 12)
        for f in formats_for(game_id):
            out.append((write_record(s, f.id, META), game))
    for p in sorted(DATA.iterdir()):
        out.append((load_bytes(p.read_bytes(), None, p.name) and p.read_bytes().decode("utf-8", "replace"), None))
    return out


VALID = _valid_records()
SPECIALS = "()[];\\{}\"#:,.+-=*$!?\n\r\t 0123456789abhpAB炮马進２²\ufeff\x00"


@st.composite
def mutated(draw):
    text, game = draw(st.sampled_from(VALID))
    chars = list(text)
    for _ in range(draw(st.integers(1, 6))):
        op = draw(st.integers(0, 2))
        pos = draw(st.integers(0, len(chars)))
        if op == 0 and chars:
            del chars[min(pos, len(chars) - 1)]
        elif op == 1:
            chars.insert(pos, draw(st.sampled_from(SPECIALS)))
        else:
            chars = chars[:pos]
    return "".join(chars), game


def _only_record_errors(text, game, fmt=None):
    try:
        r = read_record(text, game, fmt=fmt)
    except RecordFormatError as e:
        assert str(e)
        return
    assert r.state.game is not None
    try:
        peek_record(text, game)
    except RecordFormatError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated())
def test_fuzz_mutated_records_raise_only_record_errors(case):
    text, game = case
    _only_record_errors(text, game)


@pytest.mark.parametrize("fmt", sorted(FORMATS))
@settings(max_examples=150, deadline=None)
@given(text=st.text(alphabet=st.sampled_from(SPECIALS), max_size=80))
def test_fuzz_each_reader_on_random_text(fmt, text):
    _only_record_errors(text, get_game("gomoku") if fmt == "moves" else None, fmt)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_fuzz_random_bytes_raise_only_record_errors(data):
    try:
        load_bytes(data)
    except RecordFormatError:
        pass


def test_deep_nesting_is_an_error_not_a_crash():
    for text in ("(;GM[4]" + "(;B[hh]" * 5000 + ")" * 5000 + ")", "(" * 100000,
                 "# ZeroBoard game record\n# game: gomoku\n# variant: " + "[" * 100000 + "\nh8\n",
                 '[Game "Chinese Chess"]\n1. h2e2 ' + "(" * 50000 + ")" * 50000 + " *"):
        try:
            read_record(text)
        except RecordFormatError:
            pass


@pytest.mark.parametrize("text", [
    "(;GM[4]SZ[" + "9" * 5000 + "];B[hh])", "(;GM[" + "9" * 5000 + "]SZ[19];B[pd])",
    '[Game "Chinese Chess"]\n[FEN "' + "9" * 5000 + ' w"]\n\n', "# game: gomoku\n" + "x" * 5000,
    "# game: xiangqi\nstartpos moves " + "h" * 5000,
], ids=["sgf-size", "sgf-game", "pgn-fen", "moves", "iccs"])
def test_a_record_fault_of_thousands_of_characters_is_named_in_a_short_message(text):
    """The readers once quoted the whole bad value (a size, a FEN, a move) in the error."""
    with pytest.raises(RecordFormatError) as info:
        read_record(text)
    assert len(str(info.value)) < 300


def test_a_collection_reads_its_first_game_and_says_more_follow():
    """A PGN or SGF file of several games reads the first and says so (``more_games``); one
    game, or text after it that is no game, says nothing."""
    from games.records import write_record
    xq = get_game("xiangqi")
    a = xq.initial_state()
    for m in ("h2e2", "h9g7"):
        a = a.apply(a.parse_action(m))
    b = a.apply(a.parse_action("h0g2"))
    pgn_a, pgn_b = write_record(a, "pgn"), write_record(b, "pgn")
    first = read_record(pgn_a + "\n" + pgn_b)
    assert first.more_games and first.state.key() == a.key()
    assert not read_record(pgn_a).more_games
    assert not read_record(pgn_a + "\n; a comment line\n").more_games
    go = get_game("gomoku")
    g = go.initial_state().apply(112).apply(113)
    sgf = write_record(g, "sgf")
    both = read_record(sgf + "\n" + write_record(g.apply(97), "sgf"))
    assert both.more_games and both.state.key() == g.key()
    assert not read_record(sgf).more_games and not read_record(sgf + "\n\n").more_games
