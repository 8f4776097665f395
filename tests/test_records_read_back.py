"""Every record the app writes reads back as the same game, moves and result: through the
file list (`gui.records.list_records`) and `load_record` with no game given, and through
the clipboard (`read_record` with the game on the board as the only hint), whatever game is
on the board. A record that cannot be replayed to its end is listed as unreadable, with the
reason, before anyone opens it."""
from __future__ import annotations

import random

import pytest

from games import GAME_IDS, get_game
from games.records import RecordFormatError, formats_for, read_record, write_record
from test_records import random_game


def games_to_write(game_id):
    """A finished game and two unfinished ones (a short and a long one) of ``game_id``."""
    game = get_game(game_id)
    rng = random.Random(game_id)
    out = [random_game(game, rng, 1), random_game(game, rng, 12), random_game(game, rng, 1000)]
    assert out[-1].is_terminal()
    return out


def result_of(state):
    if not state.is_terminal():
        return "unfinished"
    w = state.winner()
    return "draw" if w is None else ("first" if w == 0 else "second")


@pytest.fixture
def home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    return tmp_path


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_format_offered_reads_back_through_the_file_list_without_a_game_hint(game_id, home):
    from gui.records import list_records, load_record, result_text, save_record
    folder = home / "records"
    folder.mkdir()
    written = {}
    for state in games_to_write(game_id):
        for f in formats_for(game_id):
            meta = {"you": "first", "level": "strong", "moves": len(state.moves),
                    "result": result_text(state.is_terminal(), state.winner() if state.is_terminal() else None)}
            written[save_record(state, meta, folder, f.id).name] = (state, f.id)
    infos = list_records(folder)
    assert len(infos) == len(written)
    for info in infos:
        state, fmt = written[info.path.name]
        assert info.error == "" and info.game_id == game_id, (fmt, info.error)
        assert info.meta["moves"] == str(len(state.moves))
        loaded, meta = load_record(info.path)                 # no game given
        assert loaded.game.key == state.game.key and loaded.moves == state.moves, fmt
        assert meta["result"] == result_of(state), fmt


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_format_offered_pastes_back_whatever_game_is_on_the_board(game_id):
    """Only a bare move list that the board's own game also reads to its end goes to the
    board's game (pasting "c4" during a gomoku game means gomoku's c4): othello's one-move
    transcript is the one such record here, and it is checked on every other board."""
    for state in games_to_write(game_id):
        for f in formats_for(game_id):
            text = write_record(state, f.id, {"you": "first"})
            for board in GAME_IDS:
                if f.id == "moves" and board != game_id and _reads_as(board, text):
                    assert (game_id, board, len(state.moves)) == ("othello", "gomoku", 1)
                    continue
                record = read_record(text, get_game(board))
                assert record.state.game.key == state.game.key, (f.id, board, text)
                assert record.state.moves == state.moves and record.meta["result"] == result_of(state)


def _reads_as(game_id, text) -> bool:
    try:
        get_game(game_id).state_from_text(text.strip())
        return True
    except Exception:
        return False


def test_a_column_string_is_connect_four_on_any_board_and_a_move_list_is_the_boards_game_when_it_reads():
    for board in GAME_IDS:
        expected = "connect2" if board == "connect2" else "connect4"
        assert read_record("4453", get_game(board)).state.game.id in (expected, "connect4")
    assert read_record("4453", get_game("tictactoe")).state.game.id == "connect4"
    assert read_record("4453", get_game("gomoku")).state.game.id == "connect4"
    assert read_record("b2 a1 c3", get_game("gomoku")).state.game.id == "gomoku"
    assert read_record("b2 a1 c3").state.game.id == "tictactoe"
    assert read_record("f5d6c3").state.game.id == "othello"
    assert read_record("h8 i9 h10").state.game.id == "gomoku"


def test_text_that_is_no_games_moves_says_so():
    with pytest.raises(RecordFormatError, match="no game's moves"):
        read_record("hello there")
    with pytest.raises(RecordFormatError, match="Othello: move 4"):
        read_record("f5d6c3zz")


TRUNCATED_PGN = """[Game "Chinese Chess"]
[Red "Human"]
[Black "ZeroBoard strong"]
[Result "*"]
[Format "ICCS"]

1. H2-E2 H9-G7 2. H0-G2 I9-H9 3. I0-H0 C6-C"""


def test_a_truncated_record_is_listed_as_unreadable_with_the_reason(home):
    from gui.records import list_records
    folder = home / "records"
    folder.mkdir()
    (folder / "cut.pgn").write_text(TRUNCATED_PGN, encoding="utf-8")
    (folder / "cut.txt").write_text("# ZeroBoard game record\n# game: connect4\n44538\n", encoding="utf-8")
    infos = {i.path.name: i for i in list_records(folder)}
    assert infos["cut.pgn"].game_id == "" and "C6-C" in infos["cut.pgn"].error
    assert infos["cut.txt"].game_id == "" and "8" in infos["cut.txt"].error


def test_a_record_fixed_after_listing_is_listed_again_as_readable(home):
    import os
    from gui.records import list_records
    folder = home / "records"
    folder.mkdir()
    p = folder / "cut.pgn"
    p.write_text(TRUNCATED_PGN, encoding="utf-8")
    assert list_records(folder)[0].error
    p.write_text(TRUNCATED_PGN[:-5] + " *\n", encoding="utf-8")
    os.utime(p, ns=(1, 10**18))
    info = list_records(folder)[0]
    assert info.error == "" and info.meta["moves"] == "5"


def test_in_the_chinese_interface_a_records_fault_is_said_in_chinese(home):
    from gui import i18n
    from gui.records import list_records
    folder = home / "records"
    folder.mkdir()
    (folder / "cut.pgn").write_text(TRUNCATED_PGN, encoding="utf-8")
    (folder / "hello.txt").write_text("hello there", encoding="utf-8")
    i18n.set_language("zh")
    try:
        infos = {i.path.name: i.error for i in list_records(folder)}
    finally:
        i18n.set_language("en")
    assert infos["cut.pgn"].startswith("第 7 行") and "第 6 步" in infos["cut.pgn"]
    assert "无法读出这步棋" in infos["cut.pgn"]
    assert infos["hello.txt"] == "第 1 行：无法读成对局：不是任何一种棋的着法"


def test_the_file_dialog_lists_headers_first_and_replays_each_row_it_shows(home, tmp_path, monkeypatch):
    import os
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    from test_gui_support import make_app
    from gui.records import games_dir
    app = make_app(tmp_path, monkeypatch, ai_enabled=False)
    try:
        (games_dir() / "cut.pgn").write_text(TRUNCATED_PGN, encoding="utf-8")
        app.start_play("tictactoe", "first", "strong")
        app.scene.load()
        dialog = app.scene.dialog
        assert dialog.records[0].game_id == "xiangqi" and not dialog.records[0].checked   # the header says xiangqi
        app.step()                                                                       # the row is drawn
        assert dialog.records[0].game_id == "" and "C6-C" in dialog.records[0].error
    finally:
        app.shutdown()


def setup_game(game_id):
    """A game played on from a position set up by hand (the board editor's): a few random
    moves of the game become the setup, with the other side to move where the rules allow."""
    game = get_game(game_id)
    rng = random.Random("setup " + game_id)
    base = random_game(game, rng, 4 if game_id != "connect2" else 1)
    to_move = base.current_player if game_id not in ("othello", "xiangqi") else 1 - base.current_player
    board = base.board_array()
    if game_id == "xiangqi":   # Red's horse off the board, Black to move: no game reached it move by move
        board = game.initial_state().board_array()
        board[9][1] = 0
    if game.validate_position(board, to_move):
        to_move = base.current_player
    start = game.from_setup(board, to_move)
    return start, _play_on(start, rng, 3)


def _play_on(state, rng, plies):
    for _ in range(plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    return state


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_game_from_a_setup_reads_back_in_every_format_offered(game_id, home):
    """The setup's start (xiangqi's FEN tag, othello's AB/AW and PL or its ``setup`` text) or
    the count of plies that only place the setup's stones (gomoku's AB/AW, the text record's
    ``setup`` header) comes back with the moves."""
    from gui.records import list_records, load_record, save_record
    folder = home / "setups"
    folder.mkdir()
    start, state = setup_game(game_id)
    setup = len(start.moves)
    written = {}
    for f in formats_for(game_id):
        meta = {"moves": len(state.moves), "setup": str(setup)} if setup else {"moves": len(state.moves)}
        written[save_record(state, meta, folder, f.id).name] = f.id
    for info in list_records(folder):
        fmt = written[info.path.name]
        assert info.error == "", (fmt, info.error)
        loaded, meta = load_record(info.path)
        assert loaded == state and loaded.moves == state.moves, fmt
        if setup and fmt in ("sgf", "zeroboard"):
            assert meta.get("setup") == str(setup), fmt
