"""A review that teaches: a move that gave something away shows the better move on the board,
with the win rate each keeps and the difference ("Played a3 0% · better b1 50%: −50%"), and
the win-rate graph has its scale and a readout under the mouse."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from games import get_game
from gui.review import Evaluation, better_move
from test_gui_support import app, make_app  # app: the fixture

TTT = get_game("tictactoe")


def issue_game(last="a3"):
    """X b2, O a1, X a2, O c2, then X's ``last``: a3 loses, b1 (among others) draws."""
    states = [TTT.initial_state()]
    for m in ("b2", "a1", "a2", "c2", last):
        states.append(states[-1].apply(states[-1].parse_action(m)))
    b1 = states[4].parse_action("b1")
    grades = [Evaluation(0.0, None, None, 100, "analysis") for _ in states]
    grades[4] = Evaluation(0.0, 0.0, b1, 100, "analysis")              # X to move: a proven draw, b1 keeps it
    grades[5] = Evaluation(-1.0, -1.0, None, 100, "analysis") if last == "a3" else Evaluation(0.0, 0.0)
    return states, grades


def test_the_better_move_comes_with_both_win_rates_and_the_loss():
    states, grades = issue_game("a3")
    lesson = better_move(states, grades, 5)
    assert lesson["best"] == states[4].parse_action("b1") and lesson["played"] == states[5].moves[-1]
    assert (lesson["best_win"], lesson["played_win"], lesson["loss"]) == (0.5, 0.0, 0.5)
    assert lesson["quality"] == "blunder"
    states, grades = issue_game("b3")
    assert better_move(states, grades, 5) is None                        # a drawing move teaches nothing


def texts(app, monkeypatch, mouse=(-1, -1)):
    from gui import theme
    drawn = []
    real = theme.text
    monkeypatch.setattr(theme, "text", lambda s, text, *a, **k: drawn.append(text) or real(s, text, *a, **k))
    app._mouse = mouse
    app.step()
    monkeypatch.setattr(theme, "text", real)
    return drawn


def reviewing(app, game_id, side, states, grades, index):
    """A game of ``states`` with their ``grades`` loaded against the AI, viewed at move ``index``."""
    app.start_play(game_id, side, "strong")
    c = app.scene.c
    c.load(states[-1])
    c.analysis_on = False
    c.grades = grades
    c.go_to(index)
    return c


def test_reviewing_a_blunder_shows_the_better_move_on_the_board_and_in_the_panel(app, monkeypatch):
    states, grades = issue_game("a3")
    reviewing(app, "tictactoe", "second", states, grades, 5)
    drawn = texts(app, monkeypatch)
    assert "Played a3 0% · better b1 50%: −50%" in drawn
    assert "50%" in drawn                                                  # the ring on b1 with its win rate


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_better_move_line_keeps_its_loss_in_a_1024_window(tmp_path, monkeypatch, lang):
    """At 1024×640 a xiangqi lesson ("走了 炮二平五 47% · 更好的是 兵七进一 60%：−13%") was cut
    with an ellipsis before the loss; a narrow panel gets the short form, whole."""
    from gui import theme
    small = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        small.set_language(lang)
        game = get_game("xiangqi")
        states = [game.initial_state()]
        for m in ("h2e2", "h9g7", "i0i1"):
            states.append(states[-1].apply(states[-1].parse_action(m)))
        grades = [Evaluation(0.0, None, None, 100, "analysis") for _ in states]
        grades[2] = Evaluation(0.0, None, states[2].parse_action("g3g4"), 100, "analysis")
        grades[3] = Evaluation(-0.3, None, None, 100, "analysis")          # red gave away 15%
        reviewing(small, "xiangqi", "first", states, grades, 3)
        lesson = small.scene.lesson()
        said = small.scene.lesson_text(lesson, small.scene.panel_rect.width - 36)
        drawn = texts(small, monkeypatch)
        assert said in drawn and said.endswith("−15%")
        assert theme.FONTS.size(said, 13, True)[0] <= small.scene.panel_rect.width - 36
    finally:
        small.shutdown()


def test_the_graph_has_its_scale_and_a_readout_under_the_mouse(app, monkeypatch):
    states, grades = issue_game("b3")
    app.start_play("tictactoe", "second", "strong")
    c = app.scene.c
    c.load(states[-1])
    c.analysis_on = False
    for i, e in enumerate(grades):
        c.set_evaluation(i, Evaluation(0.2 * (i % 3) - 0.2, None, None, 100, "analysis"))
    app.step()
    g = app.scene.graph_rect
    drawn = texts(app, monkeypatch)
    assert "50%" in drawn and "0" in drawn and "5" in drawn               # the 50% line, the first and last move
    x = g.x + g.width * 3 / 5
    drawn = texts(app, monkeypatch, mouse=(int(x), g.centery))
    assert "Move 3 · X 40% · O 60%" in drawn                              # after move 3: -0.2 for X
