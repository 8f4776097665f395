"""The side panel's exact readouts: a solved Connect Four or tic-tac-toe position says how many
moves the win is away ("Red wins in 5 moves"), othello's last empties its final disc margin, and
with hints on every legal othello move its exact margin (board and hint list), in English and
Chinese."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest

from test_gui_support import app, texts_drawn  # app: the fixture

from games import get_game
from gui.i18n import language, set_language, t
from gui.scenes.setup import side_name

#: Connect Four, Red (the person) to move: Red loses, Yellow winning with its fifth move from here
C4_LOST = "673352342122267253174551151713"
#: othello, Black (the person) to move, eight squares empty: Black ends 32 discs ahead
OTHELLO_END = ("c4e3f2c5d6e2f3g1d1g3e6c3b6e1b2a7g4f4h2f7d2h3b4c1g8e7f8a5a4b3c2d3h4d7c7e8f5a2b5d8c6h8g2g5h1"
               "b7h5a3c8g7a1f6")


@pytest.fixture
def english():
    before = language()
    set_language("en")
    yield
    set_language(before)


def load(app, game_id, text):
    app.start_play(game_id, "first", "beginner")
    c = app.scene.c
    c.analysis_on = False
    c.load(get_game(game_id).state_from_text(text))
    app.step()                     # asks for the readout
    c.readouts.wait()
    return c


def test_a_solved_connect4_position_says_who_wins_in_how_many_moves(app, monkeypatch, english):
    c = load(app, "connect4", C4_LOST)
    assert c.state.proven_distance() == (-1, 10)
    drawn = texts_drawn(app, monkeypatch)
    assert "Yellow wins in 5 moves with best play (proven)" in drawn
    set_language("zh")
    drawn = texts_drawn(app, monkeypatch)
    assert t("play.proven_win_in", side=side_name("connect4", 1), n=5) in drawn
    assert "黄方 5 步必胜" in t("play.proven_win_in", side="黄方", n=5)


def test_the_issue_tictactoe_position_reads_as_a_draw_and_a3_as_os_win_in_two(app, monkeypatch, english):
    load(app, "tictactoe", "b2 a1 a2 c2")
    assert "A draw with best play (proven)" in texts_drawn(app, monkeypatch)
    app.scene.c.load(get_game("tictactoe").state_from_text("b2 a1 a2 c2 a3"))
    app.scene.c.human = 1
    app.step()
    app.scene.c.readouts.wait()
    assert "O wins in 2 moves with best play (proven)" in texts_drawn(app, monkeypatch)


def test_a_win_with_the_next_move_is_said_so(app, monkeypatch, english):
    load(app, "connect4", "112233")
    assert "Red wins with the next move (proven)" in texts_drawn(app, monkeypatch)


def test_othellos_last_empties_show_the_final_disc_margin(app, monkeypatch, english):
    load(app, "othello", OTHELLO_END)
    assert "Black +32 discs with best play (proven)" in texts_drawn(app, monkeypatch)
    set_language("zh")
    assert "双方走最佳着法时黑棋终局多 32 子" in texts_drawn(app, monkeypatch)


def test_with_hints_every_legal_othello_move_shows_its_exact_margin(app, monkeypatch, english):
    c = load(app, "othello", OTHELLO_END)
    c.hints_on = True
    c.hint_for = c.state
    c.hint.top = [{"action": 1, "visits": 40, "q": 0.9, "prior": 0.5}, {"action": 5, "visits": 10, "q": 0.2, "prior": 0.2}]
    drawn = texts_drawn(app, monkeypatch)
    margins = c.readout.moves
    assert sorted(margins) == c.state.legal_actions()
    for m in set(margins.values()):
        assert f"+{m}" in drawn                               # a badge on every legal move
    assert "95%" not in drawn                                 # the board speaks one unit: the margin
    assert "Best moves: exact disc margin · win rate" in drawn
    assert any(s.startswith("1. b1") and "+32 · 95%" in s for s in drawn)   # the list: margin, then win rate
    c.hints_on = False
    assert not any(s == "+10" for s in texts_drawn(app, monkeypatch))


def test_no_readout_where_no_solver_reaches(app, monkeypatch, english):
    c = load(app, "othello", "f5d6c3")
    assert c.readout is None
    assert not any("discs" in s for s in texts_drawn(app, monkeypatch))


def test_games_no_solver_covers_start_no_work(app):
    from gui.readouts import ExactReadouts
    asked = []
    readouts = ExactReadouts(solve=lambda s: asked.append(s))
    assert readouts.get(get_game("gomoku").initial_state()) is None
    assert readouts.get(get_game("xiangqi").initial_state()) is None
    readouts.wait()
    assert asked == [] and readouts._thread is None
    assert readouts.get(get_game("tictactoe").initial_state()) is None   # being worked out
    readouts.wait()
    assert len(asked) == 1


def test_a_failing_solve_leaves_no_readout_and_no_crash(app):
    from gui.readouts import ExactReadouts

    def broken(state):
        raise ValueError("a damaged table")
    readouts = ExactReadouts(solve=broken)
    state = get_game("connect4").state_from_text(C4_LOST)
    readouts.get(state)
    readouts.wait()
    assert readouts.get(state) is None and readouts._thread is not None and not readouts._thread.is_alive()


def test_at_1024_by_640_the_caption_is_shortened_not_cut(tmp_path, monkeypatch, english):
    from test_gui_support import make_app
    small = make_app(tmp_path, monkeypatch, ai_enabled=False, size=(1024, 640))
    try:
        load(small, "connect4", C4_LOST)
        drawn = texts_drawn(small, monkeypatch)
        assert "Yellow wins in 5 moves (proven)" in drawn
        assert not any(s.startswith("Yellow wins") and s.endswith("…") for s in drawn)
    finally:
        small.shutdown()


def test_connect_fours_opening_reads_who_wins_from_the_book(app, monkeypatch, english):
    """After an edge first move the side panel says the second player wins, with no distance."""
    load(app, "connect4", "1")
    assert "Yellow wins with best play (proven)" in texts_drawn(app, monkeypatch)
    app.scene.c.load(get_game("connect4").state_from_text("3"))
    app.step()
    app.scene.c.readouts.wait()
    assert "A draw with best play (proven)" in texts_drawn(app, monkeypatch)


def test_with_hints_every_first_connect_four_move_shows_its_exact_result(app, monkeypatch, english):
    """On the empty board with hints on: a badge on every column, "win" on the centre only, "draw"
    beside it, "loss" on the rest, and the hint list says the result before the win rate."""
    c = load(app, "connect4", "")
    c.hints_on = True
    c.hint_for = c.state
    c.hint.top = [{"action": 3, "visits": 40, "q": 0.3, "prior": 0.5}, {"action": 2, "visits": 10, "q": 0.0, "prior": 0.2}]
    drawn = texts_drawn(app, monkeypatch)
    assert c.readout.results == {0: -1, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -1}
    assert drawn.count("win") == 1 and drawn.count("draw") == 2 and drawn.count("loss") == 4
    assert "Best moves: exact result · win rate" in drawn
    assert any(s.startswith("1. 4") and "win ·" in s for s in drawn)
    set_language("zh")
    drawn = texts_drawn(app, monkeypatch)
    assert drawn.count("胜") == 1 and drawn.count("和") == 2 and drawn.count("负") == 4
    c.hints_on = False
    set_language("en")
    assert "loss" not in texts_drawn(app, monkeypatch)


def test_the_bar_shows_a_proven_result_not_the_estimate_beside_it(monkeypatch):
    """Connect Four's opening at the max level read "Red wins with best play (proven)" above a bar
    of 94% for Red (under Xvfb, 2026-12-05): the caption's proof, the graph's 100% and the bar's
    estimate disagreed. Where the result is proven the bar shows it."""
    import pygame
    from engine.play.solver import Readout
    from gui.scenes import sidepanel
    from gui.theme import DEFAULT_PALETTE as pal
    assert sidepanel.proven_value0(None) is None
    assert sidepanel.proven_value0(-1.0) == -1.0 and sidepanel.proven_value0(0.0) == 0.0
    assert sidepanel.proven_value0(None, Readout(result=1), mover=0) == 1.0
    assert sidepanel.proven_value0(None, Readout(result=1), mover=1) == -1.0     # the second player wins
    assert sidepanel.proven_value0(None, Readout(result=0), mover=1) == 0.0
    assert sidepanel.proven_value0(None, Readout(margin=-6), mover=0) == -1.0    # othello: down six discs
    assert sidepanel.proven_value0(None, Readout(margin=0), mover=1) == 0.0
    assert sidepanel.proven_value0(None, Readout(), mover=0) is None             # nothing known exactly
    drawn = []
    monkeypatch.setattr(sidepanel, "winrate_bar", lambda surface, pal, rect, p0, *a, **k: drawn.append(p0))
    pygame.init()
    surface = pygame.Surface((300, 60))
    colors, labels = ((200, 0, 0), (230, 200, 0)), ("Red", "Yellow")
    sidepanel.evaluation(surface, pal, pygame.Rect(0, 0, 300, 44), 0.88, colors, labels)
    sidepanel.evaluation(surface, pal, pygame.Rect(0, 0, 300, 44), 0.88, colors, labels, readout=Readout(result=1))
    sidepanel.evaluation(surface, pal, pygame.Rect(0, 0, 300, 44), 0.4, colors, labels, proven0=0.0)
    assert drawn == [pytest.approx(0.94), 1.0, 0.5]
