"""The play and demo scenes driven like a person would: clicks and keys on a headless app."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import importlib.util
import random
import time

import pygame
import pytest

from test_gui_support import app_factory, button_named, click, click_target, press, run_until

HAVE_ENGINE = importlib.util.find_spec("engine.play.players") is not None


def test_a_tictactoe_game_against_the_ai_can_be_finished_by_clicks(app_factory, monkeypatch):
    app = app_factory()
    if HAVE_ENGINE:  # the real engine at its quickest level; the fake player otherwise
        app.ai.factory_spec = "engine.play.players:make_player"
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    rng = random.Random(3)
    for _ in range(9):
        assert run_until(app, lambda: c.human_to_move or c.over or c.error, 60), "the AI never answered"
        assert not c.error, c.error
        if c.over:
            break
        before = len(c.history)
        action = rng.choice(c.state.legal_actions())
        click_target(app, divmod(action, 3))
        assert len(c.history) == before + 1 and c.state.moves[-1] == action
    assert run_until(app, lambda: c.over, 60)
    assert c.state.is_terminal()
    assert app.scene.result_text()[0]  # the result is announced


def test_a_click_in_a_connect4_column_drops_a_disc_to_its_bottom(app_factory):
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "strong")
    r = app.scene.view.renderer
    app.step()
    x, _ = r.target_center(3)
    _, y = r.cell_center(1, 3)  # high up in the column: the disc still falls to the bottom
    click(app, (x, y))
    board = app.scene.c.state.board_array()
    assert board[5, 3] == 1 and (board != 0).sum() == 1
    assert app.scene.c.state.moves == (3,)


def test_an_illegal_othello_click_changes_nothing(app_factory):
    app = app_factory(ai_enabled=False)
    app.start_play("othello", "first", "strong")
    c = app.scene.c
    app.step()
    start = c.state
    click_target(app, (0, 0))  # a1: no disc to flip from the corner
    click(app, (3, 3))  # off the board
    assert c.state is start and len(c.history) == 1
    click_target(app, (2, 3))  # d3 is one of Black's four opening moves
    assert c.state.moves == (2 * 8 + 3,)


def test_a_xiangqi_move_takes_two_clicks(app_factory):
    app = app_factory(ai_enabled=False)
    app.start_play("xiangqi", "first", "strong")
    c = app.scene.c
    app.step()
    click_target(app, (7, 7))  # Red's cannon on h2 (row 7 from the top, file h)
    assert c.selection == (7, 7) and c.state.moves == ()
    click_target(app, (7, 4))  # to e2: the central cannon
    assert len(c.state.moves) == 1
    assert c.history[0].action_to_text(c.state.moves[0]) == "h2e2"
    assert c.selection is None


def test_xiangqi_turns_the_board_when_the_person_plays_black(app_factory):
    app = app_factory(ai_enabled=False)
    app.start_play("xiangqi", "second", "strong")
    app.step()
    r = app.scene.view.renderer
    assert r.flipped
    # Red's general (row 9) is drawn at the top when the board is turned
    assert r.target_center((9, 4))[1] < r.target_center((0, 4))[1]


def test_undo_goes_back_to_before_the_persons_last_move(app_factory):
    app = app_factory()
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    start = c.state
    click_target(app, (1, 1))
    assert run_until(app, lambda: c.human_to_move and len(c.history) == 3)
    after_two = c.state
    click_target(app, (0, 0) if after_two.board_array()[0, 0] == 0 else (2, 2))
    assert run_until(app, lambda: c.human_to_move and len(c.history) == 5)
    press(app, pygame.K_u)
    assert c.state is after_two
    press(app, pygame.K_z, pygame.KMOD_CTRL)
    assert c.state is start and c.human_to_move
    press(app, pygame.K_u)  # nothing left to undo: a message, no change
    assert c.state is start and app.toasts


def test_save_then_load_reproduces_the_game(app_factory, tmp_path):
    app = app_factory()
    app.start_play("connect4", "first", "beginner")
    c = app.scene.c
    for col in (3, 2):
        assert run_until(app, lambda: c.human_to_move)
        click_target(app, col)
    assert run_until(app, lambda: c.human_to_move and len(c.history) == 5)
    saved = c.state
    saved_moves = list(c.move_texts("en"))
    press(app, pygame.K_s, pygame.KMOD_CTRL)
    files = list((tmp_path / "home" / "data" / "games").glob("*.txt"))
    assert len(files) == 1 and files[0].name.startswith("connect4-")
    header = files[0].read_text(encoding="utf-8")
    assert "# moves: 4\n" in header and "# result: unfinished\n" in header and "# you: first\n" in header
    press(app, pygame.K_n)
    assert app.scene.confirm is not None          # a game in progress: N asks first
    press(app, pygame.K_RETURN)
    assert len(c.history) == 1
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    dialog = app.scene.dialog
    assert dialog is not None and len(dialog.records) == 1
    from gui.records import summary
    assert summary(dialog.records[0].meta) == "4 moves, unfinished"   # shown beside the game's name
    app.step()
    click(app, (dialog.list_rect.x + 30, dialog.list_rect.y + 20))
    assert app.scene.dialog is None
    c = app.scene.c
    assert c.state.key() == saved.key() and c.state.moves == saved.moves
    assert c.move_texts("en") == saved_moves


def test_a_bad_record_shows_an_error_and_changes_nothing(app_factory, tmp_path):
    app = app_factory(ai_enabled=False)
    app.start_play("tictactoe", "first", "strong")
    c = app.scene.c
    click_target(app, (1, 1))
    before = c.state
    folder = tmp_path / "home" / "data" / "games"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "tictactoe-broken.txt").write_text("# ZeroBoard game record\n# game: tictactoe\nb2 b2 zz\n")
    press(app, pygame.K_o, pygame.KMOD_CTRL)
    click(app, (app.scene.dialog.list_rect.x + 30, app.scene.dialog.list_rect.y + 20))
    assert app.scene.c is c and c.state is before
    assert any(error for _, error, _ in app.toasts)


def test_an_ai_error_is_shown_in_the_window(app_factory):
    app = app_factory(player="make_failing_player")
    app.start_play("tictactoe", "second", "beginner")
    c = app.scene.c
    assert run_until(app, lambda: c.error)
    assert "damaged" in c.error
    app.step()  # the panel draws the message and a retry button
    assert button_named(app, "Try again")


def test_a_dead_ai_process_is_reported_not_fatal(app_factory):
    app = app_factory(player="make_dying_player")
    app.start_play("connect4", "second", "beginner")
    c = app.scene.c
    assert run_until(app, lambda: c.error)
    assert "stopped unexpectedly" in c.error
    app.step()


def test_closing_while_the_ai_thinks_takes_under_a_second(app_factory):
    app = app_factory()
    app.start_play("gomoku", "second", "max")  # the fake "max" thinks until stopped
    c = app.scene.c
    assert run_until(app, lambda: c.thinking.fraction > 0 or c.thinking.sims > 0)
    process = app.ai._process
    start = time.monotonic()
    app.shutdown()
    assert time.monotonic() - start < 1.0
    assert not process.is_alive()


def test_othello_pass_is_offered_as_a_button_and_announced(app_factory):
    from games import get_game
    game = get_game("othello", size=6)
    rng = random.Random(0)
    state = None
    for _ in range(200):  # find a position in which the mover must pass
        s = game.initial_state()
        while not s.is_terminal() and s.legal_actions() != [game.pass_action]:
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            state = s
            break
    assert state is not None
    app = app_factory(ai_enabled=False)
    app.start_play("othello", "first", "strong", {"size": 6}, state=state)
    c = app.scene.c
    assert c.human_to_move
    app.step()
    b = next(b for b in app.scene.buttons if b.label.startswith("Pass"))
    click(app, b.rect.center)
    assert c.state.moves[-1] == game.pass_action
    assert any("passes" in text for text, _, _ in app.toasts)


def test_hints_show_the_ais_top_moves_with_their_shares(app_factory):
    app = app_factory()
    app.start_play("tictactoe", "first", "beginner")
    c = app.scene.c
    press(app, pygame.K_h)
    assert c.hints_on
    assert run_until(app, lambda: c.hint_moves())
    shares = [h["share"] for h in c.hint_moves()]
    assert 0.99 <= sum(shares) <= 1.01 or sum(shares) < 1
    assert shares == sorted(shares, reverse=True)
    press(app, pygame.K_h)
    assert not c.hint_moves()


def test_the_demo_plays_pauses_and_steps(app_factory):
    app = app_factory()
    app.start_demo("connect4", ("beginner", "beginner"))
    c = app.scene.c
    c.set_speed(3)
    assert run_until(app, lambda: len(c.history) >= 3)
    press(app, pygame.K_SPACE)
    assert c.paused
    run_until(app, lambda: not c.ai_thinking, 5)
    n = len(c.history)
    for _ in range(30):
        app.step()
    assert len(c.history) == n
    press(app, pygame.K_RIGHT)
    assert run_until(app, lambda: len(c.history) == n + 1)
    for _ in range(30):
        app.step()
    assert len(c.history) == n + 1


@pytest.mark.parametrize("meta, shown", [
    ({"moves": "9", "result": "first", "you": "first"}, "9 moves, you won"),
    ({"moves": "12", "result": "first (resigned)", "you": "second"}, "12 moves, you lost"),
    ({"moves": "1", "result": "unfinished"}, "1 move, unfinished"),
    ({"moves": "42", "result": "draw", "you": "second"}, "42 moves, drawn"),
    ({}, ""),                                              # a record saved before these headers
    ({"moves": "many", "result": "who knows", "you": "third"}, ""),   # edited by hand: left out
])
def test_a_saved_games_moves_and_result_are_shown_from_the_savers_side(meta, shown):
    from gui.records import result_text, summary
    assert summary(meta) == shown
    assert result_text(False, None) == "unfinished" and result_text(True, None) == "draw"
    assert result_text(True, 1) == "second" and result_text(True, 0, resigned=True) == "first (resigned)"


def test_a_proven_result_is_named_above_the_evaluation_bar(app_factory, monkeypatch):
    """When the AI's search proves the result, the side panel says who wins with best play
    instead of showing an estimate; an undo forgets the proof."""
    import gui.scenes.play as play_scene
    from gui.i18n import t
    shown = []
    real = play_scene.evaluation

    def spy(surface, pal, rect, value0, colors, labels, proven0=None, lesson=None, **readout):
        shown.append(proven0)
        real(surface, pal, rect, value0, colors, labels, proven0)
    monkeypatch.setattr(play_scene, "evaluation", spy)
    app = app_factory(player="make_proving_player")
    app.start_play("tictactoe", "second", "beginner")   # the AI (player 0) moves first
    c = app.scene.c
    assert run_until(app, lambda: c.human_to_move)
    assert c.proven0 == 1.0 and c.value0 == 1.0          # won for player 0, the AI
    app.step()
    assert shown[-1] == 1.0
    assert "{side}" not in t("play.proven_win", side="X") and "X" in t("play.proven_win", side="X")
    c.new_game(1)                                        # replies are read only when the app steps
    assert c.proven0 is None and c.value0 is None


def test_a_proof_reaches_the_controller_with_the_right_sign():
    from gui.controller import GameSession
    from games import get_game
    g = get_game("tictactoe")
    after_one = g.initial_state().apply(4)                    # player 1 to move
    e = GameSession._evaluation(after_one, -1.0, -1.0, None, "ai")
    assert e.value0 == 1.0 and e.proven0 == 1.0               # lost for player 1: won for player 0
    assert GameSession._evaluation(after_one, 0.3, 0.0, None, "ai").proven0 == 0.0   # a proven draw stays a draw
    e = GameSession._evaluation(after_one, 0.3, None, None, "ai")
    assert e.proven0 is None and e.value0 == -0.3
    assert GameSession._evaluation(after_one, 0.3, "garbage", None, "ai").proven0 is None   # a bad message is ignored
    assert GameSession._evaluation(after_one, "nan?", None, None, "ai") is None
