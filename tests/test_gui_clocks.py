"""Clocks in the app: a control chosen at the start, a side that runs out of time loses, the
clocks stop while the game is over, looked back at, the window is in the background or the app
asks the person something, and the control and the clocks go into saved games and the autosave
and come back."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import time

import pygame
import pytest

from engine.play.clock import TimeControl
from gui.i18n import t
from test_gui_support import app_factory, press, run_until  # noqa: F401 (a fixture)


def _clock_game(app, control="60+1", game="connect4", side="first", level="strong"):
    app.start_play(game, side, level, time_control=control)
    return app.scene.c


def _ai_moves(c, action):
    """The AI's move, made by the test (the AI is off in these tests)."""
    c.error = ""
    c._push(action, by_ai=True)


def _person_to_move_after_one_move_each(app):
    """A clock game in which the person and the AI have made a move each: the person's clock runs."""
    c = _clock_game(app)
    app.step()
    c.play(3)
    _ai_moves(c, 3)
    app.step()
    assert c.clock.running == 0
    return c


def test_a_game_started_with_a_control_has_two_full_clocks(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clock_game(app)
    assert c.clock is not None and c.clock.control == TimeControl(60, 1)
    app.step()
    assert c.clock.running == 0 and c.clock.left == [60.0, 60.0]
    app.start_play("othello", "first", "strong")
    assert app.scene.c.clock is None


def test_a_person_who_runs_out_of_time_loses_and_the_move_list_says_why(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clock_game(app, "1")
    app.step()
    c.clock.since -= 2.0   # two seconds went by on a one-second clock
    app.step()
    assert c.over and c.time_loss == 0 and c.winner() == 1 and not c.can_play_here
    assert "ran out of time" in app.scene.result_detail()
    assert c.clock.running is None


def test_the_clock_stops_while_an_earlier_position_is_looked_at_and_in_the_background(app_factory):
    app = app_factory(ai_enabled=False)
    c = _person_to_move_after_one_move_each(app)
    c.go_to(0)
    app.step()
    assert c.reviewing and c.clock.running is None
    c.go_end()
    app.step()
    assert c.clock.running is not None
    app.handle_event(pygame.event.Event(pygame.WINDOWFOCUSLOST, {}))
    app.step()
    assert c.clock.running is None and c.clock_paused
    app.settings.set("clock_pause", False)   # the person wants the clock to go on regardless
    app.step()
    assert c.clock.running is not None


def test_the_clocks_stop_while_the_app_asks_the_person_something(app_factory):
    app = app_factory(ai_enabled=False)
    c = _person_to_move_after_one_move_each(app)
    app.scene.back()   # a game in progress: "leave this game?"
    assert app.scene.confirm is not None
    app.step()
    assert c.clock.running is None and c.clock_paused
    app.scene.confirm = None   # answered "cancel"
    app.step()
    assert c.clock.running == 0 and not c.clock_paused
    app.settings.set("clock_pause", False)   # the person wants the clocks to go on regardless
    app.scene.back()
    app.step()
    assert c.clock.running == 0


def test_the_clocks_stop_while_the_board_editor_is_open(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clock_game(app)
    app.step()
    c.play(3)
    c.update()
    assert c.clock.running == 1                          # the AI's turn: its clock runs
    press(app, pygame.K_e)                               # the board editor: the AI's search is cancelled
    assert type(app.scene).__name__ == "EditorScene" and c.clock.running is None
    left = c.clock.remaining(1, time.monotonic())
    time.sleep(0.3)
    app.step()
    assert c.clock.remaining(1, time.monotonic()) == left   # nobody's time goes by in the editor
    app.scene.back()
    _ai_moves(c, 3)
    app.step()
    assert c.clock.running == 0                          # back in the game, the clocks run again


@pytest.mark.parametrize("opened_by", ["button", "f1"])
def test_the_clocks_stop_while_help_is_open(app_factory, opened_by):
    """Help covers the game as the board editor does: the clocks stop always, whatever the
    setting for questions and the window in the background says."""
    app = app_factory(ai_enabled=False)
    app.settings.set("clock_pause", False)
    c = _person_to_move_after_one_move_each(app)
    if opened_by == "button":
        app.scene.help()
    else:
        press(app, pygame.K_F1)
    assert app.overlay is not None
    app.step()
    assert c.clock.running is None
    left = c.clock.remaining(0, time.monotonic())
    time.sleep(0.3)
    app.step()
    assert c.clock.remaining(0, time.monotonic()) == left   # nobody's time goes by while reading
    press(app, pygame.K_ESCAPE)                            # help closed: the game goes on
    assert app.overlay is None
    app.step()
    assert c.clock.running == 0


def test_the_clocks_pause_for_a_question_the_app_asks_over_the_game(app_factory):
    """A question of the app's own over the game (open another game's record while one of
    that game is saved unfinished: resume it?) is asking the person something, as the play
    screen's own questions are: the clocks pause for it when the person wants that."""
    app = app_factory(ai_enabled=False)
    c = _person_to_move_after_one_move_each(app)
    app.ask("A question", "Yes or no?", [("Yes", lambda: None, "primary"), ("No", lambda: None, "normal")])
    app.step()
    assert c.clock.running is None and c.clock_paused
    press(app, pygame.K_ESCAPE)
    app.step()
    assert app.overlay is None and c.clock.running == 0


def test_a_take_back_gives_back_the_time(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clock_game(app, "60")
    app.step()
    c.clock.since -= 5.0
    c.play(3)
    _ai_moves(c, 4)
    assert c.clock.left[0] < 56
    c.undo()
    app.step()
    assert c.clock.left[0] == 60.0


def test_the_ai_is_asked_with_its_clock(app_factory):
    app = app_factory()
    sent = []
    real = app.ai.search

    def spy(*args, **kwargs):
        sent.append(kwargs.get("clock"))
        return real(*args, **kwargs)
    app.ai.search = spy
    c = _clock_game(app, "300+2", side="second", level="beginner")   # the fake AI answers at once
    assert run_until(app, lambda: c.human_to_move or c.error, 90), (app.ai.status, app.ai.message, c.thinking)
    clock = next(x for x in sent if x)
    assert clock["increment"] == 2 and 290 < clock["remaining"] <= 300 and clock["moves"] >= 6


def test_a_saved_game_keeps_its_control_and_clocks_and_they_come_back(app_factory, tmp_path):
    from gui.records import load_record
    app = app_factory(ai_enabled=False)
    c = _clock_game(app, "300 3x30", game="gomoku")
    app.step()
    c.clock.since -= 12.0
    c.play(112)
    _ai_moves(c, 113)
    path = app.save_game(c, folder=tmp_path)
    state, meta = load_record(path)
    first = meta["clocks"].split(";")[0].split()
    assert meta["time_control"] == "300 3x30" and first[0] == "1" and 286.5 < float(first[1]) <= 288 and first[2] == "3"
    app.go_home()
    from gui import autosave
    autosave.clear(c.game.key)   # else the app first asks whether to resume the game in progress
    app.play_record(state, meta)
    c2 = app.scene.c
    assert c2.clock.control == TimeControl(300, 0, 3, 30)
    assert 286.5 < c2.clock.left[0] <= 288 and c2.clock.left[1] == 300.0


def test_a_game_lost_on_time_is_saved_as_one(app_factory, tmp_path):
    from gui.records import load_record
    app = app_factory(ai_enabled=False)
    c = _clock_game(app, "1", game="othello")
    app.step()
    c.clock.since -= 2.0
    app.step()
    _, meta = load_record(app.save_game(c, folder=tmp_path))
    assert meta["result"] == "second (time)"


def test_the_autosave_keeps_the_clocks(app_factory):
    from gui import autosave
    app = app_factory(ai_enabled=False)
    c = _clock_game(app, "600+5")
    app.step()
    c.clock.since -= 30.0
    c.play(3)
    app.step()
    saved = autosave.load(c.game.key)
    assert saved["time_control"] == "600+5"
    app.go_home()
    app.resume_game(saved)
    assert 574 < app.scene.c.clock.left[0] < 576


def test_the_side_panel_shows_both_clocks_at_both_sizes_and_languages(app_factory, monkeypatch):
    from test_gui_support import texts_drawn
    from gui import i18n
    for size in ((1280, 800), (1024, 640)):
        for lang in ("en", "zh"):
            app = app_factory(ai_enabled=False, size=size)
            i18n.set_language(lang)
            _clock_game(app, "600+5", game="xiangqi")
            app.step()
            drawn = texts_drawn(app, monkeypatch)
            clocks = [x for x in drawn if x in ("10:00", "9:59")]   # the running one may have begun
            assert len(clocks) == 2 and "10:00" in clocks, (size, lang, drawn)
    i18n.set_language("en")


def test_the_setup_offers_the_controls_and_byo_yomi_for_gomoku(app_factory):
    from gui.scenes.setup import SetupScene, clock_choices
    app = app_factory(ai_enabled=False)
    assert "600 3x30" in clock_choices("gomoku") and "600 3x30" not in clock_choices("xiangqi")
    app.goto(SetupScene(app, "connect4"))
    app.scene._set_clock("180+2")
    app.scene.start()
    assert app.scene.c.clock.control == TimeControl(180, 2)
    assert app.settings["time_control"] == "180+2"


def test_the_ais_clock_waits_while_it_loads_its_model(app_factory):
    app = app_factory(ai_enabled=False)
    asked = []
    app.ai.prepare = lambda state, level, model, session, callback: asked.append(callback) or 7
    searched = []
    app.ai.search = lambda *a, **k: searched.append(a) or 8
    c = _clock_game(app, "60", side="second")   # the AI moves first
    app.step()
    assert asked and not searched and c.clock.running is None
    asked[0]({"type": "prepared", "id": 7})
    app.step()
    assert searched and c.clock.running == 1 - c.human == 0


def test_an_untimed_game_has_the_ai_load_while_it_opens_and_does_not_wait_for_it(app_factory):
    # a model's first use on a machine times its runtimes for seconds: asked when the game
    # opens, the person's first move hides it; without clocks nothing waits for the answer
    app = app_factory(ai_enabled=False)
    asked = []
    app.ai.prepare = lambda state, level, model, session, callback: asked.append((level, callback)) or 7
    searched = []
    app.ai.search = lambda *a, **k: searched.append(a) or 8
    c = _clock_game(app, None, side="first", level="hard")
    app.step()
    assert [level for level, _ in asked] == ["hard"] and not searched
    app.step()
    assert len(asked) == 1   # once per game and level
    c2 = _clock_game(app, None, side="second")   # a new game where the AI moves first
    app.step()
    assert len(asked) == 2 and searched   # the search is asked at once, queued behind the loading
    assert c2.clock is None


def test_the_ai_process_answers_a_prepare_request():
    from games import get_game
    from gui.ai_client import AIClient
    ai = AIClient("test_gui_support:make_player")
    replies = []
    try:
        ai.prepare(get_game("connect4").initial_state(), "strong", None, "s", replies.append)
        end = time.monotonic() + 60
        while not replies and time.monotonic() < end:
            ai.poll()
            time.sleep(0.02)
    finally:
        ai.close()
    assert replies and replies[0]["type"] == "prepared"


def test_the_panel_says_when_the_clocks_are_paused(app_factory, monkeypatch):
    from test_gui_support import texts_drawn
    app = app_factory(ai_enabled=False)
    _clock_game(app, "300")
    app.step()
    app.handle_event(pygame.event.Event(pygame.WINDOWFOCUSLOST, {}))
    assert "Clocks paused" in texts_drawn(app, monkeypatch)
    app.handle_event(pygame.event.Event(pygame.WINDOWFOCUSGAINED, {}))
    assert "Clocks paused" not in texts_drawn(app, monkeypatch)


def _line_played_and_taken_back(app):
    """connect4 under 60 s: 3 4 played (5 s and 2 s spent), then taken back."""
    c = _clock_game(app, "60")
    app.step()
    c.clock.since -= 5.0
    c.play(3)
    c.clock.since -= 2.0
    _ai_moves(c, 4)
    c.undo()
    app.step()
    return c


def _clocked_game_with_an_old_line(app):
    """connect4 under 60 s: 3 4 played (5 s and 2 s spent), taken back, 2 4 played (8 s):
    the line 3 4 stays as a variation."""
    c = _line_played_and_taken_back(app)
    c.clock.since -= 8.0
    c.play(2)
    _ai_moves(c, 4)
    return c


def test_a_variation_opened_stops_the_clock_and_playing_on_from_it_is_a_take_back_to_it(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clocked_game_with_an_old_line(app)
    app.step()
    assert c.clock.running == 0 and c.clock.left[0] == pytest.approx(52, abs=0.5)
    old = c.tree.find((3, 4))
    assert old is not None and c.tree.main_line()[1].action == 2
    c.go_to_node(old)                       # looking at the old line: the clocks stand still
    app.step()
    app.step()
    assert c.waiting and c.clock.running is None
    assert c.clock.left == [pytest.approx(55, abs=0.5), pytest.approx(58, abs=0.5)]   # as they were there
    assert c.clocks[-1] == old.data["clock"]
    c.play(5)                               # playing on in it: from the times recorded there
    assert c.clock.left[0] == pytest.approx(55, abs=0.5)
    assert c.tree.main_line()[1].action == 3   # the line played on is the main line
    meta = c.clock_meta(main_line=True)
    from games.records.base import unpack_clocks
    assert sorted(unpack_clocks(meta["clocks"])) == [1, 2, 3]


def test_going_back_to_the_line_the_game_was_in_keeps_its_clocks(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clocked_game_with_an_old_line(app)
    app.step()
    c.clock.since -= 3.0                    # the person thinks 3 s at the end of the game
    c.go_to_node(c.tree.find((3, 4)))
    app.step()
    c.go_to_node(c.tree.main_line()[-1])    # and comes back: the 3 s are still spent
    app.step()
    assert c.clock.left[0] == pytest.approx(49, abs=0.5)


def test_going_back_to_where_the_game_is_after_a_take_back_keeps_its_clocks(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clocked_game_with_an_old_line(app)
    c.play(5)
    _ai_moves(c, 6)
    c.undo()                                # the game is at 2 4 again, 5 6 taken back after it
    app.step()
    c.clock.since -= 3.0                    # the person thinks 3 s there
    game = c.line[-1]
    c.go_to_node(c.tree.find((3, 4)))       # looks at the old line
    app.step()
    c.go_to_node(game)                      # and clicks the game's last move: the game, where it is
    app.step()
    assert c.state is game.state and not c.waiting and c.clock.running == 0
    assert c.clock.left[0] == pytest.approx(49, abs=0.5)   # the 3 s are still spent


def test_back_to_the_game_from_a_variation_shows_the_game_where_it_is(app_factory):
    app = app_factory(ai_enabled=False)
    c = _clocked_game_with_an_old_line(app)
    app.step()
    c.go_to_node(c.tree.find((3,)))          # the old line, looked at in its middle
    app.step()
    assert c.reviewing and c.state.moves == (3, 4)
    app.scene.build(app.scene.size)
    button = next(b for b in app.scene.buttons if b.label == t("play.back_to_game"))
    button.action()                          # "Back to the game"
    assert c.state.moves == (2, 4) and not c.reviewing and not c.waiting
    c.go_to_node(c.tree.find((3,)))
    press(app, pygame.K_END)                 # End: the old line's end
    assert c.state.moves == (3, 4) and c.view_index == 2 and c.waiting
    press(app, pygame.K_END)                 # End at a line's end: back to the game
    assert c.state.moves == (2, 4) and not c.waiting
    app.step()
    assert c.clock.running == 0


def test_redo_brings_back_the_times_recorded_where_the_game_goes_on(app_factory):
    app = app_factory(ai_enabled=False)
    c = _line_played_and_taken_back(app)
    assert c.clock.left == [60.0, 60.0]
    assert c.redo()
    assert c.clock.left == [pytest.approx(55, abs=0.5), pytest.approx(58, abs=0.5)]
    assert len(c.clocks) == len(c.history) == 3


def test_a_line_played_on_after_play_from_here_is_saved_with_its_clocks(app_factory, tmp_path):
    """The line played on the clock from an earlier position ("Play from here") is the game's,
    the main line its record's times are written for; the line it left is a variation, whose
    moves records keep without times (they were taken back: their time was given back)."""
    from games.records.base import unpack_clocks
    from gui.records import load_record
    app = app_factory(ai_enabled=False)
    c = _clocked_game_with_an_old_line(app)            # the game 2 4, the old line 3 4
    c.go_to(0)
    app.scene.play_from_here()
    app.step()                                         # the person's clock runs again, from its full minute
    c.clock.since -= 6.0
    c.play(1)
    _ai_moves(c, 1)
    assert [n.action for n in c.tree.main_line()] == [None, 1, 1]
    state, meta = load_record(app.save_game(c, folder=tmp_path))
    assert state.moves == (1, 1)
    clocks = unpack_clocks(meta["clocks"])
    assert sorted(clocks) == [1, 2] and clocks[1][0] == pytest.approx(54, abs=0.5)
