"""Saving, loading and pasting game records in the app: the exchange formats, the file
dialog that browses folders, and a games folder with hostile entries (a dangling link, a
FIFO, a header that once crashed the dialog) that must neither hide the other games nor
stop the app."""
from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import app, click, click_target, press  # app: the fixture

DATA = Path(__file__).parent / "data" / "records"


def games_folder(tmp_path) -> Path:
    folder = tmp_path / "home" / "data" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def row_center(dialog, i):
    lr = dialog.list_rect
    return (lr.x + 40, lr.y + 4 + i * dialog.ROW + dialog.ROW // 2)


def hostile_folder(folder: Path) -> None:
    (folder / "connect4-good.txt").write_text("# ZeroBoard game record\n# game: connect4\n4453\n", encoding="utf-8")
    os.symlink(folder / "gone.txt", folder / "dangling.txt")
    os.mkfifo(folder / "pipe.txt")
    (folder / "superscript.txt").write_text("# ZeroBoard game record\n# game: tictactoe\n# moves: ²\nb2\n",
                                            encoding="utf-8")
    (folder / "huge.sgf").write_bytes(b"(;GM[4]" + b" " * 1_100_000 + b")")
    (folder / "binary.pgn").write_bytes(bytes(range(256)) * 4)
    (folder / "folder.txt").mkdir()


# --- the games folder, read defensively -----------------------------------------------------
def test_hostile_entries_neither_hide_the_saved_games_nor_block_the_listing(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    from gui.records import list_folder
    folder = games_folder(tmp_path)
    hostile_folder(folder)
    start = time.monotonic()
    dirs, records = list_folder(folder)
    assert time.monotonic() - start < 5                      # the FIFO is never opened for reading
    by_name = {r.path.name: r for r in records}
    assert by_name["connect4-good.txt"].game_id == "connect4"
    assert by_name["superscript.txt"].game_id == "tictactoe"  # a bad header is dropped, the record stays
    assert by_name["superscript.txt"].meta["moves"] == "1"     # counted from the moves, not the bad header
    for bad, why in (("dangling.txt", "no longer exists"), ("pipe.txt", "not a regular file"),
                     ("huge.sgf", "larger than"), ("binary.pgn", "")):
        assert by_name[bad].game_id == "" and why in by_name[bad].error and by_name[bad].error
    assert [d.name for d in dirs] == ["folder.txt"]


def test_a_fifo_is_refused_without_waiting(tmp_path):
    from gui.records import RecordError, load_record
    os.mkfifo(tmp_path / "game.pgn")
    start = time.monotonic()
    with pytest.raises(RecordError, match="not a regular file"):
        load_record(tmp_path / "game.pgn")
    assert time.monotonic() - start < 2


def test_the_load_dialog_opens_on_a_hostile_folder_and_still_loads_the_good_game(app, tmp_path):
    folder = games_folder(tmp_path)
    hostile_folder(folder)
    app.start_play("tictactoe", "first", "strong")
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    dialog = app.scene.dialog
    assert dialog is not None
    app.step()                                                     # draws every row without raising
    names = [e.name if isinstance(e, Path) else e.path.name for e in dialog.entries]
    good = names.index("connect4-good.txt")
    click(app, row_center(dialog, good))
    assert app.scene.dialog is None and app.scene.c.game.id == "connect4"
    assert app.scene.c.state.to_text() == "4453"


def test_clicking_an_unreadable_entry_says_why_and_keeps_the_game(app, tmp_path):
    folder = games_folder(tmp_path)
    os.mkfifo(folder / "pipe.txt")
    app.start_play("tictactoe", "first", "strong")
    click_target(app, (1, 1))
    c = app.scene.c
    before = c.state
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    click(app, row_center(app.scene.dialog, 0))
    assert app.scene.c is c and c.state is before
    assert any(error and "pipe.txt" in text for text, error, _ in app.toasts)


# --- saving in the exchange formats -------------------------------------------------------
@pytest.mark.parametrize("game_id,move,ext,head", [("gomoku", (7, 7), ".sgf", "(;GM[4]"),
                                                   ("othello", (3, 2), ".sgf", "(;GM[2]"),
                                                   ("xiangqi", None, ".pgn", '[Game "Chinese Chess"]')])
def test_save_writes_the_games_exchange_format_and_load_reads_it_back(app, tmp_path, game_id, move, ext, head):
    app.start_play(game_id, "first", "hard")
    c = app.scene.c
    if move is None:
        c.play(c.state.parse_action("h2e2"))
    else:
        click_target(app, move)
    assert len(c.state.moves) == 1
    saved = c.state
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    files = [p for p in games_folder(tmp_path).iterdir() if p.suffix == ext]
    assert len(files) == 1 and files[0].read_text(encoding="utf-8").startswith(head)
    assert "ZeroBoard hard" in files[0].read_text(encoding="utf-8")       # the AI's side, and so yours
    press(app, pygame.K_n)
    press(app, pygame.K_RETURN)
    assert len(c.history) == 1
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    dialog = app.scene.dialog
    assert dialog.records[0].game_id == game_id and dialog.records[0].meta["level"] == "hard"
    app.step()
    click(app, row_center(dialog, 0))
    c = app.scene.c
    assert c.state.key() == saved.key() and c.state.moves == saved.moves and c.level == "hard"


# --- browsing folders ------------------------------------------------------------------------
def test_the_dialog_browses_into_a_folder_and_loads_another_programs_record(app, tmp_path):
    sub = games_folder(tmp_path) / "downloads"
    sub.mkdir()
    shutil.copy(DATA / "xqbase_iccs.pgn", sub)
    shutil.copy(DATA / "gomocup.psq", sub)
    app.start_play("tictactoe", "first", "strong")
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    dialog = app.scene.dialog
    assert dialog.entries[0] == sub
    click(app, row_center(dialog, 0))                    # into the folder
    assert app.scene.dialog is dialog and dialog.folder == sub
    assert sorted(r.game_id for r in dialog.records) == ["gomoku", "xiangqi"]
    app.step()
    press(app, pygame.K_BACKSPACE)                       # and back up
    assert dialog.folder == sub.parent
    click(app, row_center(dialog, 0))
    i = next(k for k, e in enumerate(dialog.entries) if not isinstance(e, Path) and e.game_id == "xiangqi")
    press(app, pygame.K_DOWN)
    for _ in range(i):
        press(app, pygame.K_DOWN)
    press(app, pygame.K_RETURN)
    assert app.scene.dialog is None and app.scene.c.game.id == "xiangqi"
    assert len(app.scene.c.state.moves) == 12


def test_the_dialog_draws_in_chinese_too(app, tmp_path):
    shutil.copy(DATA / "othello_edax.sgf", games_folder(tmp_path))
    app.set_language("zh")
    try:
        app.start_play("othello", "first", "strong")
        press(app, pygame.K_o, pygame.KMOD_CTRL)
        app.step()
        assert app.scene.dialog.records[0].game_id == "othello"
    finally:
        app.set_language("en")


# --- paste ---------------------------------------------------------------------------------
def test_paste_takes_a_whole_record_of_another_game(app):
    app.start_play("tictactoe", "first", "strong")
    pygame.scrap.put_text((DATA / "gomoku_webrenju.sgf").read_text(encoding="utf-8"))
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    c = app.scene.c
    assert c.game.id == "gomoku" and c.state.to_text() == "h8 h9 i8 i9 j8 j9 k8 k9 l8"
    pygame.scrap.put_text((DATA / "wxf_endgame.pgn").read_text(encoding="utf-8"))
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.c.game.id == "xiangqi" and app.scene.c.state.is_terminal()


def test_paste_of_this_games_record_and_of_a_broken_one(app):
    app.start_play("othello", "first", "strong")
    c = app.scene.c
    pygame.scrap.put_text("(;GM[2]SZ[8];B[f5];W[d6])")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.c is c and c.state.to_text() == "f5d6"
    pygame.scrap.put_text("(;GM[2]SZ[8];B[f5];W[f5])")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.c is c and c.state.to_text() == "f5d6"
    assert any(error and "line 1" in text for text, error, _ in app.toasts)
    # a record with clocks brings them, as opening its file does (a paste left them behind)
    pygame.scrap.put_text("(;GM[2]SZ[8]TM[300];B[f5]BL[290];W[d6]WL[280])")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert app.scene.confirm is not None                 # over a game in progress: asked first
    press(app, pygame.K_RETURN)
    assert app.scene.c is c and c.clock is not None and c.clock.control.main == 300


def test_save_as_writes_the_chosen_format_into_the_chosen_folder(app, tmp_path):
    sub = games_folder(tmp_path) / "for piskvork"
    sub.mkdir()
    app.start_play("gomoku", "first", "easy")
    c = app.scene.c
    c.play(c.state.parse_action("h8"))
    assert len(c.state.moves) == 1
    press(app, pygame.K_s, pygame.KMOD_CTRL | pygame.KMOD_SHIFT)
    dialog = app.scene.dialog
    assert dialog is not None and dialog.on_save is not None and dialog.format == "sgf"
    app.step()
    click(app, row_center(dialog, 0))                   # into the folder
    assert dialog.folder == sub
    app.step()
    psq = next(b for b in dialog.format_buttons if b.label == "PSQ")
    click(app, psq.rect.center)
    assert dialog.format == "psq"
    press(app, pygame.K_RETURN)
    assert app.scene.dialog is None
    files = list(sub.iterdir())
    assert len(files) == 1 and files[0].suffix == ".psq"
    assert files[0].read_text().splitlines() == ["Piskvorky 15x15, 0:4, 0", "8,8,0"]   # you (0) played first


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.sampled_from(["moves", "result", "you", "level", "date"]),
                       st.text(alphabet=st.sampled_from("0123456789²٣ first second draw (resigned)\x00"), max_size=12)))
def test_the_summary_of_any_header_values_is_a_string(meta):
    from gui.records import summary
    assert isinstance(summary(meta), str)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.sampled_from("# :gamevriant{}\"size9moves²resultfirst\nh8b2tictactoe4"),
                        max_size=30), max_size=6))
def test_reading_the_header_of_any_file_gives_info_or_a_reason(tmp_path_factory, lines):
    from gui.records import RecordError, read_info
    path = tmp_path_factory.mktemp("h") / "x.txt"
    path.write_text("\n".join(lines), encoding="utf-8")
    try:
        info = read_info(path)
    except RecordError as e:
        assert str(e)
    else:
        assert info.game_id
