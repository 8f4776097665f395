"""Leaving and coming back: confirmation before a game in progress is thrown away, the
autosave and the home screen's offer to resume, a demo taken over, and a window that does
not redraw when nothing changes."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import app, button_named, click, click_target, make_app, press, run_until  # app: the fixture


def started_game(app, moves=((1, 1),)):
    app.start_play("tictactoe", "first", "strong")
    for m in moves:
        click_target(app, m)
    return app.scene.c


def test_n_with_a_game_in_progress_asks_and_cancel_keeps_the_game(app):
    c = started_game(app)
    before = c.state
    press(app, pygame.K_n)
    assert app.scene.confirm is not None
    press(app, pygame.K_ESCAPE)                      # Esc answers the question, it does not leave
    assert app.scene.confirm is None and c.state is before
    press(app, pygame.K_n)
    press(app, pygame.K_RETURN)
    assert len(c.history) == 1


def test_n_before_the_first_move_does_not_ask(app):
    app.start_play("tictactoe", "first", "strong")
    press(app, pygame.K_n)
    assert app.scene.confirm is None


def test_esc_with_a_game_in_progress_asks_before_going_home(app):
    from gui.scenes.home import HomeScene
    from gui.scenes.play import PlayScene
    started_game(app)
    press(app, pygame.K_ESCAPE)
    assert isinstance(app.scene, PlayScene) and app.scene.confirm is not None
    press(app, pygame.K_RETURN)
    assert isinstance(app.scene, HomeScene)


def test_a_game_left_is_offered_for_resuming_with_its_moves_side_and_level(app):
    from gui import autosave
    app.start_play("tictactoe", "second", "easy")
    c = app.scene.c
    c.load(c.state.apply(4))                           # the AI's first move, then the person's turn
    c.human = 1
    click_target(app, (0, 0))
    assert autosave.path("tictactoe").exists()
    app.go_home()
    home = app.scene
    assert home.resume is not None and home.resume["moves"] == 2
    app.step()
    click(app, button_named(app, "Resume").rect.center)
    c = app.scene.c
    assert c.state.moves == (4, 0) and c.human == 1 and c.level == "easy"
    assert len(c.history) == 3                         # the whole game, for review


def test_discarding_the_offer_deletes_the_autosave(app):
    from gui import autosave
    started_game(app)
    app.go_home()
    app.step()
    click(app, button_named(app, "Discard").rect.center)
    assert app.overlay is not None and autosave.path("tictactoe").exists()   # asked first
    press(app, pygame.K_RETURN)
    app.step()
    assert not autosave.path("tictactoe").exists() and app.scene.resume is None


def test_a_finished_game_is_not_offered(app):
    from gui import autosave
    c = started_game(app)
    assert autosave.path("tictactoe").exists()
    s = c.game.initial_state()
    for a in (0, 3, 1, 4):                              # X has two in the top row, to play the third
        s = s.apply(a)
    c.load(s)
    c.human = 0
    app.step()
    click_target(app, (0, 2))
    assert c.over
    app.step()
    assert not autosave.path("tictactoe").exists()


def test_a_damaged_autosave_is_ignored(app):
    from gui import autosave
    autosave.path("tictactoe").parent.mkdir(parents=True, exist_ok=True)
    autosave.path("tictactoe").write_text("{not json")
    assert autosave.load("tictactoe") is None and autosave.load_all() == []
    app.go_home()
    app.step()                                          # and the home screen still draws


def test_play_this_game_in_a_demo_takes_over_its_position(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    try:
        app.start_demo("connect4", ("beginner", "beginner"))
        c = app.scene.c
        c.set_speed(3)
        assert run_until(app, lambda: len(c.history) >= 4)
        c.toggle_pause()
        assert run_until(app, lambda: not c.ai_thinking, 5)
        demo_state = c.state
        app.scene.play_this()
        play = app.scene.c
        assert play.state.key() == demo_state.key()
        assert play.human == demo_state.current_player
        assert len(play.history) == len(c.history)
    finally:
        app.shutdown()


def test_an_idle_window_is_not_redrawn(app):
    """The interactive loop (draw=None) draws only when something changed."""
    app.step((), 0.0, draw=None)                        # the first frame
    assert not app.step((), 0.02, draw=None)            # nothing happened
    assert not app.step((), 0.02, draw=None)
    motion = pygame.event.Event(pygame.MOUSEMOTION, pos=(300, 300), rel=(0, 0), buttons=(0, 0, 0))
    assert app.step([motion], 0.02, draw=None)          # input: a new frame
    assert not app.step((), 0.02, draw=None)


def test_a_paused_game_asks_for_no_frames_but_a_moving_piece_does(app):
    c = started_game(app, moves=())
    app.scene.view.renderer.animations = True
    app.settings.set("animations", True)
    assert app.scene.frame_rate() == 0.0
    click_target(app, (1, 1))
    assert c.state.moves == (4,)
    assert app.scene.frame_rate() == 60.0               # the placed mark animates


def test_the_result_says_why_and_othello_gives_the_score(app):
    from games import get_game
    from gui.scenes.sidepanel import final_score, line_reason
    app.start_play("tictactoe", "first", "strong")
    c = app.scene.c
    s = c.game.initial_state()
    for a in (0, 3, 1, 4, 2):                           # X completes the top row
        s = s.apply(a)
    c.load(s)
    assert line_reason(c) == "three in a row" and final_score(c) == ""
    assert "three in a row" in app.scene.result_detail()
    g = get_game("othello", size=6)
    app.start_play("othello", "first", "strong", {"size": 6})
    c = app.scene.c
    import random
    rng = random.Random(1)
    s = g.initial_state()
    while not s.is_terminal():
        s = s.apply(rng.choice(s.legal_actions()))
    c.load(s)
    board = s.board_array()
    a, b = int((board > 0).sum()), int((board < 0).sum())
    assert final_score(c) == f"{max(a, b)}–{min(a, b)}"
    assert final_score(c) in app.scene.result_detail()
    full = a + b == 36                                  # why, from the rules: a full board, or no moves
    assert app.scene.result_detail().endswith("the board is full" if full else "neither side can move")
    for seed in range(2, 300):                          # the other kind of ending, too (seed 210 ends with a square left)
        rng = random.Random(seed)
        s = g.initial_state()
        while not s.is_terminal():
            s = s.apply(rng.choice(s.legal_actions()))
        if (int((s.board_array() != 0).sum()) == 36) != full:
            c.load(s)
            assert app.scene.result_detail().endswith("neither side can move" if full else "the board is full")
            break
    else:
        raise AssertionError("no random 6x6 game ended the other way")


def test_a_xiangqi_game_lost_by_perpetual_chase_ends_so_in_the_app_and_its_record(app, tmp_path):
    from games import get_game
    from gui.records import load_record
    from gui.scenes.sidepanel import reason_text
    g = get_game("xiangqi")
    # Red's chariot chases Black's unprotected horse between c7 and b9; the person (Red) makes the
    # move that repeats the position a third time
    before = g.state_from_text("4k4/4a4/2n6/9/9/9/R8/9/9/3K5 w moves a3c3 c7b9 c3b3 b9c7 b3c3 c7b9 c3b3 b9c7")
    app.start_play("xiangqi", "first", "strong")
    c = app.scene.c
    c.load(before)
    assert not c.over and c.play(before.parse_action("b3c3"))
    assert c.over and c.winner() == 1 and c.end_reason() == "perpetual chase"
    assert app.scene.result_detail() == reason_text("perpetual chase") == "perpetual chase loses"
    path = app.save_game(c, tmp_path)
    state, meta = load_record(path, g)
    assert meta["result"] == "second" and '[Result "0-1"]' in path.read_text(encoding="utf-8")
    assert state.winner() == 1 and state.end_reason() == "perpetual chase"


def test_the_position_goes_to_the_clipboard_and_comes_back(app):
    c = started_game(app, moves=((1, 1),))
    copied = c.state
    press(app, pygame.K_c, pygame.KMOD_CTRL)
    assert pygame.scrap.get_text() == copied.to_text()
    press(app, pygame.K_n)
    press(app, pygame.K_RETURN)
    assert len(c.history) == 1
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert c.state.key() == copied.key() and len(c.history) == 2
    pygame.scrap.put_text("not a position")
    press(app, pygame.K_v, pygame.KMOD_CTRL)
    assert c.state.key() == copied.key()                # nothing changed, and it says why
    assert any(error for _, error, _ in app.toasts)


def test_a_demo_can_be_looked_back_at_while_it_plays_on(tmp_path, monkeypatch):
    app = make_app(tmp_path, monkeypatch)
    try:
        app.start_demo("connect4", ("beginner", "beginner"))
        c = app.scene.c
        c.set_speed(3)
        assert run_until(app, lambda: len(c.history) >= 4)
        press(app, pygame.K_HOME)
        assert c.view_index == 0 and c.reviewing
        press(app, pygame.K_RIGHT)                       # looking back, → steps through the moves played
        assert c.view_index == 1
        n = len(c.history)
        assert run_until(app, lambda: len(c.history) > n)   # the demo goes on meanwhile
        assert c.view_index == 1
        app.scene.play_this()                            # takes over the position looked at
        assert app.scene.c.state.moves == c.history[1].moves
    finally:
        app.shutdown()


def test_check_is_announced_in_words(app):
    import random
    from games import get_game
    g = get_game("xiangqi")
    rng = random.Random(5)
    found = None
    while found is None:
        s = g.initial_state()
        for _ in range(60):
            if s.is_terminal():
                break
            s = s.apply(rng.choice(s.legal_actions()))
            if not s.is_terminal() and s.is_check():
                found = s
                break
    app.start_play("xiangqi", "first", "strong", state=found)
    texts = []
    import gui.theme as theme_module
    real = theme_module.text

    def spy(surface, s, *a, **kw):
        texts.append(s)
        return real(surface, s, *a, **kw)
    monkeypatch_text = pytest.MonkeyPatch()
    monkeypatch_text.setattr(theme_module, "text", spy)
    try:
        app.step()
    finally:
        monkeypatch_text.undo()
    assert any("Check!" in x for x in texts)
