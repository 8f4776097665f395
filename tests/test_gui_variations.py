"""Variations in play: a different move in an earlier position (after looking back or undo)
keeps the old line; the move list shows and opens both; the board, the graph and the marks
follow the line shown; promote and delete; records and the autosave keep the tree."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from games import get_game
from gui.controller import PlayController
from gui.review import Evaluation
from test_gui_review import ScriptedAI, ai_move, play_game, ttt  # noqa: F401 (ttt: the fixture)
from test_gui_support import app, app_factory, click, click_target, press  # noqa: F401 (app, app_factory: fixtures)


def lines(c):
    """Every line of the tree, as move tuples from the start."""
    return sorted(n.state.moves for n in c.tree.nodes() if not n.children)


def with_an_old_line(c, ai):
    """Play 4 0 8 2, go back to the position after 4 0 and play 6 there: the game goes on in
    4 0 6 and 4 0 8 2 stays as a variation. Returns what play_from_view returned."""
    play_game(c, ai, [4, 0, 8, 2])
    c.go_to(2)
    return c.play_from_view(6)


def loaded(state, setup, tree):
    """A fresh tic-tac-toe controller with this game loaded."""
    d = PlayController(ScriptedAI(), get_game("tictactoe"), human=0, level="strong")
    d.load(state, setup, tree)
    return d


# --- the controller -----------------------------------------------------------------------

def test_a_different_move_in_an_earlier_position_keeps_the_old_line_as_a_variation(ttt):
    c, ai = ttt
    assert with_an_old_line(c, ai)
    assert c.state.moves == (4, 0, 6)                     # the game goes on in the new line
    assert lines(c) == [(4, 0, 6), (4, 0, 8, 2)]
    assert [n.action for n in c.tree.main_line()] == [None, 4, 0, 6]   # the line played is the main line
    assert c.variations_at("en")[3][0][0][1] == "c3"      # the old move, shown beside the new one


def test_a_different_move_after_undo_keeps_the_old_line(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.undo()
    [[(taken_back, text), _]] = c.variations_at("en")[len(c.history)]   # shown after the last move
    assert taken_back.state.moves == (4, 0, 8) and text == "c3"
    assert c.play(6)
    assert not c.redo()
    assert lines(c) == [(4, 0, 6), (4, 0, 8, 2)]


def test_opening_the_old_line_from_the_move_list_puts_it_on_the_board_with_its_evaluations(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.evals[4] = Evaluation(0.5, None, None, 100, "ai")   # what was known of the old line's end
    c.go_to(2)
    c.play_from_view(6)
    old = next(node for vs in c.variations_at("en").values() for v in vs for node, _ in v if node.action == 8)
    assert c.go_to_node(old)
    assert c.viewed.moves == (4, 0, 8) and c.state.moves == (4, 0, 8, 2)
    assert c.graph_values()[4] == pytest.approx(0.75)     # the graph follows the line shown
    assert [n.action for n in c.tree.main_line()] == [None, 4, 0, 6]   # looking is not playing
    c.switch_variation(-1)
    assert c.viewed.moves == (4, 0, 6)


def test_playing_on_in_an_old_line_makes_it_the_main_line(ttt):
    c, ai = ttt
    with_an_old_line(c, ai)
    ai_move(c, ai, 2)
    c.go_to_node(c.tree.find((4, 0, 8, 2)))
    assert c.play(6)
    assert [n.action for n in c.tree.main_line()] == [None, 4, 0, 8, 2, 6]


def test_promote_and_delete_change_the_tree_and_say_what_they_discard(ttt):
    c, ai = ttt
    with_an_old_line(c, ai)
    c.go_to_node(c.tree.find((4, 0, 8)))
    assert c.promote_view() and c.tree.main_line()[3].action == 8
    assert c.deletion_size() == 2
    assert c.delete_view() == 2
    assert lines(c) == [(4, 0, 6)] and c.viewed.moves == (4, 0)
    c.go_start()
    assert c.delete_view() == 0                           # the start stays


def test_the_same_move_again_after_undo_still_redoes(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.undo()
    c.undo()
    assert c.play(4)
    assert c.redo() and c.state.moves == (4, 0)
    assert lines(c) == [(4, 0, 8, 2)]


def test_looking_at_a_variation_after_undo_keeps_the_redo(ttt):
    """Looking is not playing: a variation opened from the move list (or with the arrow keys)
    after a take-back, then the game again, still redoes the moves taken back."""
    c, ai = ttt
    with_an_old_line(c, ai)                                # the game 4 0 6, the old line 4 0 8 2 beside it
    ai_move(c, ai, 2)
    play_game(c, ai, [1, 7])
    assert c.undo() and c.state.moves == (4, 0, 6, 2) and len(c.redo_stack) == 2
    assert c.go_to_node(c.tree.find((4, 0, 8)))            # the old line on the board
    assert c.in_variation and c.redo_stack == [] and not c.redo()   # nothing to redo in the line looked at
    assert c.back_to_game() and c.state.moves == (4, 0, 6, 2)
    c.go_to(2)
    assert c.switch_variation(1) and c.in_variation       # the arrow keys: the other move at the fork
    assert c.back_to_game() and len(c.redo_stack) == 2
    assert c.redo() and c.state.moves == (4, 0, 6, 2, 1, 7)


def test_deleting_moves_taken_back_leaves_nothing_of_them_to_redo(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    assert c.undo() and len(c.redo_stack) == 2
    c.go_to_node(c.tree.find((4, 0, 8, 2)))
    assert c.delete_view() == 1                            # the AI's move taken back, deleted
    assert c.back_to_game() and [s.moves for s, _, _ in c.redo_stack] == [(4, 0, 8)]
    c.go_to_node(c.tree.find((4, 0, 8)))
    assert c.delete_view() == 1
    assert c.back_to_game() is False and c.redo_stack == [] and not c.redo()
    assert c.state.moves == (4, 0)


def test_the_record_saved_holds_the_main_line_and_the_variations(ttt, tmp_path):
    from gui.records import load_game, save_record
    c, ai = ttt
    with_an_old_line(c, ai)
    c.go_to(1)
    c.set_comment("why not a corner?")
    state, tree = c.record_line()
    record = load_game(save_record(state, {"you": "first"}, tmp_path, tree=tree))
    assert record.state.moves == (4, 0, 6)
    assert sorted(n.state.moves for n in record.tree.nodes() if not n.children) == [(4, 0, 6), (4, 0, 8, 2)]
    assert record.tree.find((4,)).comment == "why not a corner?"
    d = loaded(record.state, 0, record.tree)
    assert lines(d) == lines(c) and d.comment_at(1) == "why not a corner?"


def test_the_autosave_keeps_the_tree(ttt, tmp_path, monkeypatch):
    from gui import autosave
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    c, ai = ttt
    with_an_old_line(c, ai)
    c.go_to_node(c.tree.find((4, 0, 8, 2)))              # the person last looked at the old line
    assert autosave.save(c)
    saved = autosave.load("tictactoe")
    d = loaded(saved["state"], saved["setup"], saved["tree"])
    assert lines(d) == lines(c) and d.state.moves == (4, 0, 6)   # the game resumes where it was played to
    assert [n.action for n in d.tree.main_line()] == [None, 4, 0, 6]


def lost_line_undone(c, ai):
    """The person plays b1 c1 a2 and the AI wins on the a1-c3 diagonal; the person takes back
    a2 and plays a3 instead: the game goes on, the lost line stays as a variation."""
    play_game(c, ai, [1, 0, 2, 4, 3, 8])
    assert c.over and c.winner() == 1
    c.undo()
    assert c.play(6)
    ai_move(c, ai, 5)
    return c.tree.find((1, 0, 2, 4, 3, 8))


def test_looking_at_a_finished_variation_leaves_the_game_in_progress(ttt):
    c, ai = ttt
    c.human = 0
    lost = lost_line_undone(c, ai)
    assert c.in_progress and not c.game_over
    c.go_to_node(lost)                                    # the AI's win in the old line, on the board
    assert c.over and c.state.moves == (1, 0, 2, 4, 3, 8)
    assert c.in_progress and not c.game_over              # the game itself is not over
    assert [n.state.moves for n in c.game_line()][-1] == (1, 0, 2, 4, 6, 5)


def test_in_the_window_a_finished_variation_looked_at_neither_ends_nor_forgets_the_game(app):
    from gui import autosave
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    ai = ScriptedAI()
    c.ai, c.analysis_on = ai, False
    lost = lost_line_undone(c, ai)
    app.step()
    c.go_to_node(lost)
    app.step()
    assert not c.rating_done                              # not counted as a finished game
    saved = autosave.load("tictactoe")
    assert saved is not None and saved["state"].moves == (1, 0, 2, 4, 6, 5)
    press(app, pygame.K_ESCAPE)                           # leaving asks first
    assert app.scene.confirm is not None and app.scene.c is c
    press(app, pygame.K_ESCAPE)
    press(app, pygame.K_n)                                # so does a new game
    assert app.scene.confirm is not None and c.tree.find((1, 0, 2, 4, 6, 5)) is not None
    press(app, pygame.K_ESCAPE)
    app.scene.close()                                     # the window closed: the game stays saved
    saved = autosave.load("tictactoe")
    assert saved is not None and saved["state"].moves == (1, 0, 2, 4, 6, 5)
    assert saved["tree"].find((1, 0, 2, 4, 3, 8)) is not None


def test_a_damaged_autosaved_tree_resumes_the_game_without_it(ttt, tmp_path, monkeypatch):
    import json

    from gui import autosave
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path))
    c, ai = ttt
    with_an_old_line(c, ai)
    autosave.save(c)
    p = autosave.path("tictactoe")
    data = json.loads(p.read_text())
    data["tree"] = "b2 a1 (((c3"
    p.write_text(json.dumps(data))
    saved = autosave.load("tictactoe")
    assert saved is not None and saved["tree"] is None and saved["state"].moves == (4, 0, 6)


# --- in the window ----------------------------------------------------------------------------

def test_in_the_window_a_new_move_after_stepping_back_shows_both_lines_and_saves_both(app, tmp_path):
    from gui.records import load_game
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    click_target(app, (1, 1))                             # b2
    c._push(0, by_ai=True)                                # the AI's a1
    click_target(app, (2, 2))                             # c3
    c._push(2, by_ai=True)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_LEFT)                             # back to the person's turn after a1
    click_target(app, (2, 0))                             # a different move (asks nothing)
    assert app.scene.confirm is None and c.state.moves == (4, 0, 6)
    app.step()
    shown = [item for _, item in app.scene.moves.items]
    assert 3 in shown                                     # the new move, on the line
    old = [item for item in shown if not isinstance(item, int)]
    assert [n.state.moves for n in old] == [(4, 0, 8), (4, 0, 8, 2)]   # the old line, beside it
    box = next(r for r, item in app.scene.moves.items if item is old[0])
    click(app, box.center)                                # opens it
    assert c.viewed.moves == (4, 0, 8)
    path = app.save_game(c, tmp_path)
    record = load_game(path)
    assert record.state.moves == (4, 0, 6)
    assert record.tree.find((4, 0, 8, 2)) is not None


def test_in_the_window_a_right_click_offers_to_promote_and_delete_asks_first(app):
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    click_target(app, (1, 1))
    c._push(0, by_ai=True)
    c.go_to(0)
    click_target(app, (2, 2))                             # c3 instead of b2: b2's line is a variation
    app.step()
    old = next(item for _, item in app.scene.moves.items if not isinstance(item, int))
    box = next(r for r, item in app.scene.moves.items if item is old)
    click(app, box.center, button=3)
    labels = [choice[0] for choice in app.scene.confirm.choices]
    assert labels == ["Main line", "Comment", "Delete", "Cancel"]
    before = c.tree.count
    app.scene.confirm.choices[2][1]()                    # delete: asks before discarding moves
    assert app.scene.confirm is not None and c.tree.count == before
    press(app, pygame.K_ESCAPE)
    assert c.tree.count == before


def test_opening_a_line_that_ends_on_the_ais_turn_does_not_make_the_ai_play_in_it(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8])                           # the old line ends with the AI to move
    c.update()
    [(rid, _)] = ai.open(c.level)
    c.undo()                                              # its search is cancelled
    assert c.play(6)
    ai_move(c, ai, 2)
    c.go_to_node(c.tree.find((4, 0, 8)))
    c.update()
    assert not ai.open(c.level) and c.reviewing           # looking is not playing
    assert [n.action for n in c.tree.main_line()] == [None, 4, 0, 6, 2]
    assert c.continue_from_view()                         # "Play from here": now the AI answers
    ai_move(c, ai, 2)
    assert c.state.moves == (4, 0, 8, 2)


def test_in_the_window_k_writes_a_comment_on_the_viewed_move_and_it_is_saved(app, tmp_path):
    from gui.records import load_game
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    click_target(app, (1, 1))
    c._push(0, by_ai=True)
    press(app, pygame.K_LEFT)
    press(app, pygame.K_k)
    app.step([pygame.event.Event(pygame.TEXTINPUT, text="k"),      # the key that opened the box
              pygame.event.Event(pygame.TEXTINPUT, text="centre!x")])
    press(app, pygame.K_BACKSPACE)
    press(app, pygame.K_RETURN)
    assert app.scene.confirm is None and c.comment_at(1) == "centre!"
    app.step()
    assert c.comment_at(c.view_index) == "centre!"
    record = load_game(app.save_game(c, tmp_path))
    assert record.tree.find((4,)).comment == "centre!"


@pytest.mark.parametrize("ending, result", [("resigned", "second (resigned)"), ("time", "second (time)")])
def test_a_game_saved_while_a_variation_is_shown_keeps_its_result(app, tmp_path, ending, result):
    from gui.records import load_record
    app.start_play("tictactoe", "first", "beginner", time_control="60+0")
    c = app.scene.c
    c.analysis_on = False
    for action, by_ai in ((4, False), (0, True), (8, False), (2, True)):
        c._push(action, by_ai)
    c.go_to(2)
    c.play_from_view(6)                                   # the game goes on in b2 a1 a3
    c._push(2, by_ai=True)
    if ending == "resigned":
        c.resign()
    else:
        c._lose_on_time(0)
    c.go_to_node(c.tree.find((4, 0, 8, 2)))               # the old line on the board
    _, meta = load_record(app.save_game(c, tmp_path))
    assert meta["result"] == result


def test_in_the_window_a_finished_variation_looked_at_says_so_and_offers_the_way_back(app):
    """Its banner is the variation's, not the game's end: it says the game goes on and its
    button brings the game back (no "New game" as if the game were over)."""
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    ai = ScriptedAI()
    c.ai, c.analysis_on = ai, False
    lost = lost_line_undone(c, ai)
    c.go_to_node(lost)
    app.step()
    scene = app.scene
    assert c.over and not c.game_over and scene.result_shown()
    assert scene.result_text()[0] == "The AI wins"                    # what happened in that line
    assert any("variation" in line for line in scene.summary_lines(scene.overlay_rect().width))
    ob = scene.overlay_rect()
    [button] = [b for b in scene.buttons if ob.contains(b.rect)]
    assert button.label == "Back to the game" and button.kind == "primary"
    click(app, button.rect.center)
    assert c.state.moves == (1, 0, 2, 4, 6, 5) and not c.over and not c.waiting
    assert not scene.result_shown()
    c.go_to_node(lost)
    app.step()
    click(app, scene.board_rect.center)                   # the variation's banner clicked away
    assert not scene.result_shown() and c.waiting
    c.resign()                                            # the game's end has its own banner
    app.step()
    assert scene.result_shown() and scene.result_text()[0] == "You resigned"
    ob = scene.overlay_rect()
    assert [b.label for b in scene.buttons if ob.contains(b.rect)] == ["New game"]


def test_resigning_while_a_variation_is_on_the_board_resigns_the_game(ttt):
    c, ai = ttt
    with_an_old_line(c, ai)                               # the game: b2 a1 a3; the old line b2 a1 c3 c1
    c.go_to_node(c.tree.find((4, 0, 8, 2)))
    assert c.waiting and not c.game_over
    assert c.resign()
    assert c.game_over and c.over and c.resigned_by == c.human
    assert c.state.moves == (4, 0, 6) and not c.waiting   # the game is on the board, resigned
    assert c.tree.find((4, 0, 8, 2)).data.get("resigned_by") is None   # the variation is no game
    assert not c.in_progress


def test_resigning_while_a_finished_variation_is_on_the_board_resigns_the_game(app):
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    ai = ScriptedAI()
    c.ai, c.analysis_on = ai, False
    c.go_to_node(lost_line_undone(c, ai))
    app.step()
    resign = next(b for b in app.scene.buttons if b.label == "Resign")
    assert resign.enabled                                 # the game itself goes on
    click(app, resign.rect.center)
    app.scene.confirm.choices[0][1]()
    app.step()
    assert c.game_over and c.resigned_by == c.human and c.state.moves == (1, 0, 2, 4, 6, 5)
    assert app.scene.result_text()[0] == "You resigned"
    c.go_to_node(c.tree.find((1, 0, 2, 4, 3, 8)))        # the finished variation again
    assert not c.resign() and c.resigned_by is None        # nothing more to resign
    assert c.game_over and app.scene.result_text()[0] == "The AI wins"


# --- where the game is, while a variation is shown ------------------------------------------

def game_and_old_line_in_the_window(app):
    """In the window: b2 a1 c3 c1 played, then a3 instead of c3 (the game: b2 a1 a3), and the
    old line's c3 opened from the move list. Returns the controller."""
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    for action, by_ai in ((4, False), (0, True), (8, False), (2, True)):
        c._push(action, by_ai)
    c.go_to(2)
    c.play_from_view(6)
    app.step()
    c.go_to_node(c.tree.find((4, 0, 8)))
    app.step()
    assert c.in_variation and c.viewed.moves == (4, 0, 8)
    return c


def test_the_game_branch_is_the_games_first_move_off_the_line_shown(ttt):
    c, ai = ttt
    with_an_old_line(c, ai)
    assert c.game_branch() is None                        # the game's line is on the board
    c.go_to_node(c.tree.find((4, 0, 8, 2)))
    assert c.game_branch() is c.tree.find((4, 0, 6))
    c.back_to_game()
    assert c.game_branch() is None and not c.in_variation


def test_the_games_line_in_the_move_list_follows_the_games_moves_not_the_main_line(ttt):
    """Made another line the main line (Ctrl+↑) in the game's branch: its row still shows the
    game's own moves, the moves that lead to where the game is."""
    c, ai = ttt
    with_an_old_line(c, ai)
    ai_move(c, ai, 2)                                     # the game: b2 a1 a3 c1
    branch = c.tree.find((4, 0, 6))
    other = c.tree.add(branch, 1)                         # b1 there, made the main line
    c.tree.promote(other)
    c.go_to_node(c.tree.find((4, 0, 8, 2)))
    [game_row] = c.variations_at("en")[3]
    assert [n.state.moves for n, _ in game_row] == [(4, 0, 6), (4, 0, 6, 2)]


def test_in_the_window_a_variation_shown_says_where_the_game_is_and_marks_its_line(app, monkeypatch):
    """Before: the game's own line was one more line in parentheses, nothing said that the moves
    shown were not the game's."""
    from test_gui_support import texts_drawn
    c = game_and_old_line_in_the_window(app)
    drawn = texts_drawn(app, monkeypatch)
    assert "A variation · the game is at move 3" in drawn
    assert "game" in drawn                                # the label of the game's row
    assert app.scene.game_caption_rect is not None
    c.back_to_game()
    drawn = texts_drawn(app, monkeypatch)
    assert not any("the game is at" in s for s in drawn) and "game" not in drawn
    assert app.scene.game_caption_rect is None


def test_in_the_window_a_click_on_the_caption_or_on_the_games_row_brings_the_game_back(app):
    c = game_and_old_line_in_the_window(app)
    click(app, app.scene.game_caption_rect.center)
    assert c.state.moves == (4, 0, 6) and not c.in_variation and not c.waiting
    c.go_to_node(c.tree.find((4, 0, 8)))
    app.step()
    game_move = c.tree.find((4, 0, 6))
    box = next(r for r, item in app.scene.moves.items if item is game_move)
    click(app, box.center)                                # the game's move in its labelled row
    assert c.state.moves == (4, 0, 6) and not c.in_variation


@pytest.mark.parametrize("size, lang", [((800, 560), "en"), ((800, 560), "zh"), ((1024, 640), "zh"),
                                        ((1280, 800), "zh")])
def test_the_games_caption_and_row_fit_the_panel(app_factory, monkeypatch, size, lang):
    """Whole (not cut), inside the panel, and clear of every other text."""
    from test_gui_layout import drawn_texts
    from gui.i18n import t
    a = app_factory(ai_enabled=False, size=size)
    a.set_language(lang)
    game_and_old_line_in_the_window(a)
    texts = [(s, r) for s, r in drawn_texts(a, monkeypatch) if s.strip() and r.width and r.height]
    caption = [t("play.variation_caption", n=3), t("play.variation_caption_short", n=3)]
    mine = [(s, r) for s, r in texts if s in caption or s == t("play.game_line")]
    assert len(mine) == 2, [s for s, _ in texts]
    panel = a.scene.panel_rect
    for s, r in mine:
        assert panel.contains(r), (s, r, panel)
        for s2, r2 in texts:
            if r2 is not r:
                inner = r.clip(r2)
                assert inner.width < 3 or inner.height <= 4, (s, r, s2, r2)


def test_in_the_window_a_variation_clicked_after_undo_leaves_the_redo(app):
    """Before: a click on a variation in the move list after a take-back emptied redo, so the
    moves taken back were gone from Redo once the game was back on the board."""
    from gui.i18n import t
    from test_gui_support import button_named
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    for action, by_ai in ((4, False), (0, True), (8, False), (2, True)):
        c._push(action, by_ai)
    c.go_to(2)
    c.play_from_view(6)                                   # the game b2 a1 a3, the old line b2 a1 c3 c1
    c._push(1, True)
    c._push(7, False)
    c._push(3, True)
    press(app, pygame.K_u)                                # back to the person's turn: b2 a1 a3 a2
    assert c.state.moves == (4, 0, 6, 1) and button_named(app, t("play.redo")).enabled
    old = c.tree.find((4, 0, 8))
    box = next(r for r, item in app.scene.moves.items if item is old)
    click(app, box.center)                                # the old line's c3, from the move list
    assert c.in_variation and not button_named(app, t("play.redo")).enabled
    press(app, pygame.K_END)                              # the end of the line looked at,
    press(app, pygame.K_END)                              # then back to the game
    assert not c.in_variation and button_named(app, t("play.redo")).enabled
    press(app, pygame.K_y)
    assert c.state.moves == (4, 0, 6, 1, 7, 3)
