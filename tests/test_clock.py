"""Game clocks: the time controls, the clocks that run under them, the AI's time plan
(`clock_budget`), and the control and clocks in records."""
from __future__ import annotations

import pytest

from engine.play.clock import (BUDGET_FLOOR, NO_CONTROL, GameClock, TimeControl, clock_budget, format_clock,
                               moves_to_go, parse_clock, parse_control)
from games import get_game
from games.records import read_record, write_record


# --- controls ---------------------------------------------------------------------------
@pytest.mark.parametrize("control,text,kind", [
    (TimeControl(300), "300", "sudden"),
    (TimeControl(600, 5), "600+5", "increment"),
    (TimeControl(600, 0, 3, 30), "600 3x30", "byoyomi"),
    (NO_CONTROL, "-", "none"),
])
def test_a_control_is_written_as_records_write_it_and_read_back(control, text, kind):
    assert control.text() == text and control.kind == kind
    assert parse_control(text) == control


@pytest.mark.parametrize("bad", ["ten minutes", "600+", "1e9", "600 0x30", "999999", None, 5])
def test_a_control_that_is_not_one_is_refused_not_guessed(bad):
    assert parse_control(bad) is None


def test_clock_texts_read_back():
    assert format_clock(83) == "0:01:23"
    assert parse_clock("0:01:23") == 83 and parse_clock("1:02:03.5") == 3723.5 and parse_clock("0:61:00") is None
    assert format_clock(65.4, tenths=True) == "1:05" and format_clock(9.46, tenths=True) == "9.4"


# --- the clock ----------------------------------------------------------------------------
def test_sudden_death_charges_the_mover_and_flags_the_one_that_runs_out():
    c = GameClock(TimeControl(10))
    c.start(0, now=0.0)
    assert c.press(0, now=3.0, next_player=1)
    assert c.left == [7.0, 10.0] and c.running == 1
    assert c.remaining(1, now=8.0) == pytest.approx(5.0)
    assert c.check_flag(now=12.9) is None
    assert c.check_flag(now=13.1) == 1 and c.remaining(1, now=14.0) == 0.0
    assert not c.press(1, now=14.0)   # too late


def test_an_increment_is_added_after_each_move():
    c = GameClock(TimeControl(10, 2))
    c.start(0, 0.0)
    c.press(0, 4.0, next_player=1)
    assert c.left[0] == pytest.approx(8.0)


def test_byo_yomi_keeps_a_period_used_in_time_and_loses_one_that_runs_out():
    c = GameClock(TimeControl(5, 0, 3, 10))
    c.start(0, 0.0)
    c.press(0, 12.0, next_player=1)   # 5 s of main time and 7 s of a period: all three are left
    assert c.left[0] == 0.0 and c.periods_left[0] == 3
    c.press(1, 12.0, next_player=0)
    assert c.display(0, 20.0) == (pytest.approx(2.0), 3)
    c.press(0, 27.0, next_player=1)   # 15 s: one period lost, the second kept
    assert c.periods_left[0] == 2
    c.press(1, 27.0, next_player=0)
    assert c.check_flag(46.9) is None and c.check_flag(47.1) == 0


def test_a_stopped_clock_does_not_run_and_a_snapshot_restores_it():
    c = GameClock(TimeControl(60, 1))
    c.start(0, 0.0)
    c.stop(10.0)
    assert c.remaining(0, 500.0) == 50.0
    snap = c.snapshot()
    c.start(0, 500.0)
    c.press(0, 530.0, 1)
    c.restore(snap)
    assert c.left == [50.0, 60.0] and c.running is None
    c.restore(("x", 1, 2))   # a malformed snapshot changes nothing
    assert c.left == [50.0, 60.0]


def test_no_control_never_runs():
    c = GameClock(NO_CONTROL)
    c.start(0, 0.0)
    assert c.running is None and c.check_flag(1e6) is None


# --- the AI's plan ------------------------------------------------------------------------
def test_the_budget_is_a_share_of_the_time_plus_most_of_the_increment():
    assert clock_budget(100, 0, 20, lag=0) == pytest.approx(5.0)
    assert clock_budget(100, 2, 20, lag=0) == pytest.approx(6.6)
    assert clock_budget(10, 0.1, 20, lag=0.25) == pytest.approx(0.33)


def test_the_budget_never_spends_more_than_a_third_of_what_is_left_after_the_reserve():
    for remaining in (0.0, 0.3, 0.6, 1.0, 2.0, 5.0):
        b = clock_budget(remaining, 0.1, 1)
        assert b <= max(BUDGET_FLOOR, (remaining - 0.5) / 3 + 0.05) + 1e-9
    assert clock_budget(0.0, 0.0, 20) == BUDGET_FLOOR


def test_in_byo_yomi_the_budget_is_most_of_a_period():
    assert clock_budget(0, 0, 20, period=10, periods=2) == pytest.approx(7.5)


@pytest.mark.parametrize("game_id,late", [("gomoku", 0.08), ("othello", 0.2), ("connect4", 0.3)])
def test_a_game_planned_by_the_budget_never_runs_out(game_id, late):
    """Each move takes its budget and then ``late`` seconds more (the answer's trip, a search step
    that overruns): 10 s + 0.1 s lasts a whole gomoku board when the overrun is below the increment,
    and a whole othello or Connect Four game when it is two or three times the increment."""
    game = get_game(game_id)
    left = 10.0
    for ply in range(0, min(game.max_game_length, 200), 2):
        spent = clock_budget(left, 0.1, moves_to_go(game, ply)) + late
        left = left - spent + 0.1
        assert left > 0, ply


def test_the_search_keeps_to_the_budget_below_its_own_cap():
    """An MCTSPlayer given a budget stops at it (its level's cap still applies)."""
    import time
    from engine.play.players import rollout_player
    game = get_game("connect4")
    p = rollout_player(game, 10 ** 6, seed=1, seconds=5.0)
    t0 = time.perf_counter()
    p.choose(game.initial_state(), budget=0.2)
    assert time.perf_counter() - t0 < 1.5
    p2 = rollout_player(game, 30, seed=1, seconds=5.0)   # the level's visits end it first
    t0 = time.perf_counter()
    p2.choose(game.initial_state(), budget=30.0)
    assert time.perf_counter() - t0 < 1.5


def test_the_worker_takes_the_time_since_the_request_was_sent_from_the_budget():
    from gui.ai_worker import clock_search_budget
    clock = {"remaining": 100.0, "increment": 0.0, "moves": 20, "sent": 10.0}
    full = clock_budget(100.0, 0.0, 20)
    assert clock_search_budget(clock, received=11.0, now=12.0) == pytest.approx(full - 2.0)
    clock["sent"] = "odd"   # a stamp that cannot be read: the time since it arrived
    assert clock_search_budget(clock, received=11.0, now=12.0) == pytest.approx(full - 1.0)
    assert clock_search_budget({"remaining": "x"}, 0.0, 0.0) is None and clock_search_budget(None, 0, 0) is None


# --- records ------------------------------------------------------------------------------
def _played(game_id, n):
    game = get_game(game_id)
    s = game.initial_state()
    for _ in range(n):
        s = s.apply(s.legal_actions()[0])
    return game, s


@pytest.mark.parametrize("game_id,control,clocks", [
    ("xiangqi", "600+5", "1 598;2 597;3 590;4 580"),
    ("gomoku", "300 3x30", "1 298.5;2 297.0;3 0.0 3;4 0.0 2"),
    ("othello", "300", "1 298.5;2 297.0;3 290.2;4 280.0"),
    ("connect4", "60+1", "1 58.5;2 57.0;3 55.2;4 51.0"),
])
def test_records_keep_the_control_the_clocks_and_a_loss_on_time(game_id, control, clocks):
    game, state = _played(game_id, 4)
    meta = {"time_control": control, "clocks": clocks, "result": "second (time)", "you": "first"}
    text = write_record(state, None, meta)
    back = read_record(text, game).meta
    assert back["time_control"] == control
    assert back["clocks"].replace(".0", "") == clocks.replace(".0", "")
    assert back["result"] == "second (time)"


def test_pgn_writes_the_time_control_tag_and_clk_comments():
    _, state = _played("xiangqi", 2)
    text = write_record(state, None, {"time_control": "600+5", "clocks": "1 83;2 600"})
    assert '[TimeControl "600+5"]' in text and "{[%clk 0:01:23]}" in text and "{[%clk 0:10:00]}" in text


def test_sgf_writes_tm_ot_and_the_movers_time_left():
    _, state = _played("gomoku", 2)
    text = write_record(state, None, {"time_control": "600 3x30", "clocks": "1 595.5;2 0 2"})
    assert "TM[600]" in text and "OT[3x30 byo-yomi]" in text and "BL[595.5]" in text and "WL[0.0]OW[2]" in text


def test_a_record_with_odd_clock_values_is_read_without_them():
    game, state = _played("gomoku", 2)
    text = write_record(state, None, {}).replace("B[", "BL[abc]B[", 1).replace("(;", "(;TM[soon]", 1)
    meta = read_record(text, game).meta
    assert "time_control" not in meta and "clocks" not in meta


def test_a_measured_lag_shortens_the_plan_and_an_odd_one_is_ignored():
    from gui.ai_worker import planned_budget
    a = planned_budget({"remaining": 100, "increment": 0.1, "moves": 20})
    b = planned_budget({"remaining": 100, "increment": 0.1, "moves": 20, "lag": 0.6})
    assert b == pytest.approx(a - 0.35)
    assert planned_budget({"remaining": 10, "lag": "x"}) == planned_budget({"remaining": 10})
    assert planned_budget({"remaining": 10, "lag": -3}) == planned_budget({"remaining": 10})
