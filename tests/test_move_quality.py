"""Move quality from the best information: a proven result outranks a network estimate, so a
move that keeps a proven draw or win is never a mistake, and a game gives the same marks
after it is saved and loaded again (the marks come from the analysis, never from whichever
search happened to see a position during play)."""
from __future__ import annotations

import functools
import zlib

import pytest

from games import get_game
from gui.controller import PlayController
from gui.review import Evaluation, move_loss, move_qualities
from test_gui_review import ScriptedAI


@functools.lru_cache(maxsize=None)
def solve(state) -> int:
    """The exact result for the side to move (+1, 0, -1), by plain minimax."""
    if state.is_terminal():
        w = state.winner()
        return 0 if w is None else (1 if w == state.current_player else -1)
    return max(-solve(state.apply(a)) for a in state.legal_actions())


def proof(state) -> Evaluation:
    """What a solver says of ``state``, as player 0's value."""
    v = solve(state) * (1 if state.current_player == 0 else -1)
    return Evaluation(float(v), float(v), None, 100, "analysis")


TTT = get_game("tictactoe")
#: the issue's game: X b2, O a1, X a2, O c2, and X to move
BEFORE = TTT.state_from_text("b2 a1 a2 c2")


def test_the_issues_position_is_a_draw_that_only_a3_loses():
    after = {m: solve(BEFORE.apply(BEFORE.parse_action(m))) for m in ("b3", "b1", "c1", "c3", "a3")}
    assert solve(BEFORE) == 0
    assert after == {"b3": 0, "b1": 0, "c1": 0, "c3": 0, "a3": 1}     # O to move after a3: O wins


@pytest.mark.parametrize("move,expected", [("b3", "good"), ("b1", "good"), ("c1", "good"), ("c3", "good"),
                                           ("a3", "blunder")])
def test_a_move_that_keeps_a_proven_draw_is_never_a_mistake_whatever_the_estimate_before(move, expected):
    after = BEFORE.apply(BEFORE.parse_action(move))
    estimate = Evaluation(0.26, None, BEFORE.parse_action("c3") if move != "c3" else None, 120, "analysis")
    assert estimate.winrate(0) == pytest.approx(0.63)                   # "X 63%" before
    loss = move_loss(estimate, proof(after), 0, after.moves[-1])
    assert (loss == 0.0) == (expected == "good")
    assert move_qualities([BEFORE, after], [estimate, proof(after)])[0]["quality"] == expected


def test_both_positions_proven_the_loss_is_exact():
    win, draw, loss = Evaluation(1.0, 1.0), Evaluation(0.0, 0.0), Evaluation(-1.0, -1.0)
    assert move_loss(win, draw, 0, 1) == pytest.approx(0.5)             # a won game drawn
    assert move_loss(draw, draw, 0, 1) == 0.0
    assert move_loss(draw, loss, 0, 1) == pytest.approx(0.5)
    # the estimate after a proven draw cannot be better than the draw
    assert move_loss(draw, Evaluation(0.8), 0, 1) == 0.0
    assert move_loss(draw, Evaluation(-0.4), 0, 1) == pytest.approx(0.2)


def test_in_the_app_the_drawing_move_is_not_counted_as_a_mistake():
    ai = ScriptedAI()
    c = PlayController(ai, TTT, human=0, level="strong")
    c.load(BEFORE)
    c.analysis_on = False
    c.set_evaluation(4, Evaluation(0.26, None, BEFORE.parse_action("c3"), 120, "hint"))
    c.set_evaluation(4, Evaluation(0.26, None, BEFORE.parse_action("c3"), 120, "analysis"))
    assert c.play(BEFORE.parse_action("b3"))
    c._record(c.state, {"value": 0.0, "proven": 0.0, "top": []}, "ai")   # the AI's search proves the draw
    assert c.qualities()[-1]["quality"] == "good"


# --- the same marks after save and reload --------------------------------------------------
C4 = get_game("connect4")
MOVES = "44533544273661"


def analysis_value(state) -> float:
    """A made-up but fixed analysis verdict for each position (what one level of search with
    a fresh tree says of it), for the side to move."""
    return (zlib.crc32(state.to_text().encode()) % 1000) / 1000 * 1.6 - 0.8


def answer_analysis(c, ai) -> None:
    """Let the controller analyse every position it wants to, answering with `analysis_value`."""
    for _ in range(200):
        c.update()
        todo = ai.open(c.ANALYSIS_LEVEL)
        if not ai.open():
            return
        for rid, (state, _, _) in todo:
            ai.answer(rid, value=analysis_value(state))
        for rid, (state, _, _) in ai.open():        # a hint holds the analysis back: answer it
            ai.answer(rid, value=-analysis_value(state))


def play_connect_four(level_values):
    """The game MOVES with the person as the first player: the AI answers its own moves with
    ``level_values`` (its deeper search), hints come and go, the analysis runs when it may."""
    ai = ScriptedAI()
    c = PlayController(ai, C4, human=0, level="strong")
    c.hints_on = True
    for k, ch in enumerate(MOVES):
        action = c.state.parse_action(ch)
        if c.state.current_player == 0:
            c.update()
            for rid, (state, level, _) in ai.open():
                if level == c.ANALYSIS_LEVEL:
                    ai.answer(rid, value=analysis_value(state))
                else:                                  # the hint: a deeper search's view
                    ai.answer(rid, value=level_values(state))
            assert c.play(action)
        else:
            c.update()
            [(rid, (state, _, _))] = [r for r in ai.open() if r[1][1] == "strong"]
            for other, _ in ai.open():
                if other != rid:
                    ai.answer(other, value=analysis_value(ai.requests[other][0]))
            ai.answer(rid, action=action, value=level_values(state))
            c.pending_move = (c.pending_move[0], 0.0)
            c.update()
    answer_analysis(c, ai)
    return c


def test_a_connect_four_game_gives_the_same_marks_after_save_and_reload(tmp_path, monkeypatch):
    from gui.records import load_record, save_record
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    played = play_connect_four(lambda s: -analysis_value(s) * 0.5)
    marks = [q["quality"] for q in played.qualities()]
    assert None not in marks and set(marks) - {"good"}                  # something to compare
    path = save_record(played.state, {"you": "first"}, tmp_path)
    state, _ = load_record(path)
    ai = ScriptedAI()
    again = PlayController(ai, C4, human=0, level="strong")
    again.load(state)
    answer_analysis(again, ai)
    assert [q["quality"] for q in again.qualities()] == marks
