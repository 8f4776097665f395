"""Draw offers: on their move, from move 10 on, the person may offer the AI a draw; the AI agrees
when it expects no more than a 55% share from playing on (its own judgement of the position),
declines otherwise and says why, and the agreed draw ends the game as a draw in the banner, the
rating, the autosave and the saved record. Resign asks first, and offers the draw beside it."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from gui.controller import DRAW_ACCEPT_VALUE, DRAW_OFFER_PLIES
from gui.review import Evaluation
from test_gui_support import app_factory  # noqa: F401 (a fixture)


def _quiet(state) -> int:
    """A legal move of ``state`` that ends nothing."""
    return next(a for a in state.legal_actions() if not state.play(a).is_terminal())


def _play_plies(app, plies: int):
    """The game on the board from where it is, the person first: up to ``plies`` moves that end nothing."""
    c = app.scene.c
    app.step()
    while len(c.history) - 1 < plies:
        if c.state.current_player == c.human:
            assert c.play(_quiet(c.state))
        else:
            c._push(_quiet(c.state), by_ai=True)
    return c


def _connect4_at(app_factory, plies: int = DRAW_OFFER_PLIES):
    """(app, controller): Connect Four against the medium level, the person first, ``plies`` played."""
    app = app_factory(ai_enabled=False)
    app.start_play("connect4", "first", "medium")
    return app, _play_plies(app, plies)


def _unjudged(c) -> None:
    """The AI knows nothing yet of the position on the board."""
    c.evals[-1] = None
    c.grades[-1] = None


def _judge(c, ai_value: float):
    """What the AI knows of the position on the board: it expects ``ai_value`` (-1..1)."""
    v0 = -ai_value if c.human == 0 else ai_value
    c.set_evaluation(len(c.history) - 1, Evaluation(v0, None, None, 100, "analysis"))


def _toasts(app, monkeypatch) -> list[str]:
    said: list[str] = []
    real = app.toast
    monkeypatch.setattr(app, "toast", lambda text, *a, **k: said.append(text) or real(text, *a, **k))
    return said


def test_the_ai_agrees_when_it_expects_no_more_from_playing_on(app_factory, monkeypatch):
    app, c = _connect4_at(app_factory)
    said = _toasts(app, monkeypatch)
    _judge(c, DRAW_ACCEPT_VALUE - 0.02)
    assert c.offer_draw() == ""
    app.step()
    assert c.agreed_draw and c.over and c.game_over and c.winner() is None
    assert c.end_reason() == "agreement" and not c.can_play_here
    assert app.scene.result_text()[0] == "Draw" and "drawn by agreement" in app.scene.result_detail()
    assert any("accepts" in s for s in said)
    from gui import autosave
    assert autosave.load(c.game.key) is None   # a finished game leaves no game to resume


def test_the_ai_declines_when_it_expects_more_and_says_its_share(app_factory, monkeypatch):
    app, c = _connect4_at(app_factory)
    said = _toasts(app, monkeypatch)
    _judge(c, 0.6)
    assert c.offer_draw() == ""
    app.step()
    assert not c.agreed_draw and not c.over and any("80%" in s for s in said)
    assert c.offer_draw() == "draw.declined_here"   # the same position: the person moves first
    assert c.play(_quiet(c.state))


def test_too_early_or_not_on_the_persons_move_no_draw(app_factory, monkeypatch):
    app, c = _connect4_at(app_factory, 2)
    said = _toasts(app, monkeypatch)
    _judge(c, -0.9)   # even an AI that is losing keeps to the etiquette
    assert c.offer_draw() == ""
    app.step()
    assert not c.agreed_draw and any("from move 10" in s for s in said)
    c.play(c.state.legal_actions()[0])   # now the AI's move
    assert c.offer_draw() == "draw.your_turn"


def test_an_offer_waits_for_the_ais_judgement_and_lapses_when_the_person_moves(app_factory):
    app, c = _connect4_at(app_factory)
    _unjudged(c)
    assert c.offer_draw() == "" and c.offer_draw() == "draw.pending"
    app.step()
    assert not c.agreed_draw and c.draw_offer is c.state   # nothing judged yet: the offer stands
    _judge(c, 0.0)
    app.step()
    assert c.agreed_draw


def test_a_moved_on_offer_lapses(app_factory):
    app, c = _connect4_at(app_factory)
    _unjudged(c)
    assert c.offer_draw() == ""
    assert c.play(_quiet(c.state))
    app.step()
    assert c.draw_offer is None and not c.agreed_draw


def test_an_agreed_draw_counts_half_for_the_rating_and_is_saved_as_a_draw(app_factory, monkeypatch, tmp_path):
    from gui import ratings
    from games.records import read_record
    levels = {k: {"rating": v, "low": v - 80, "high": v + 80, "rd": 40.8, "games": 40, "reference": "test"}
              for k, v in {"easy": 1000.0, "medium": 1200.0, "hard": 1400.0}.items()}
    monkeypatch.setattr(ratings, "_levels_cache", {"connect4": levels})
    monkeypatch.setattr(ratings, "_advantage_cache", {"connect4": 0.0})
    app, c = _connect4_at(app_factory)
    _judge(c, 0.0)
    c.offer_draw()
    app.step()
    r = app.ratings.get("connect4")
    assert r is not None and r.games == 1 and r.rating == pytest.approx(1200.0, abs=1.0)   # a draw with the median
    path = app.save_game(c, folder=tmp_path)
    record = read_record(path.read_text(encoding="utf-8"), path.name)
    assert record.meta["result"] == "draw" and not record.state.is_terminal()


def test_resign_asks_and_offers_the_draw_beside_it_where_the_game_allows(app_factory):
    app, c = _connect4_at(app_factory)
    app.scene.resign()
    labels = [label for label, _, _ in app.scene.confirm.choices]
    assert labels == ["Resign", "Offer a draw", "Cancel"] and not c.over   # asked, nothing done yet
    app.scene.confirm.choices[-1][1]()
    assert app.scene.confirm is None and not c.over
    app.scene.resign()
    app.scene.confirm.choices[0][1]()
    assert c.over and c.resigned_by == c.human
    app.go_home()
    app.start_play("tictactoe", "first", "medium")
    app.step()
    app.scene.c.play(0)
    app.scene.resign()
    assert [label for label, _, _ in app.scene.confirm.choices] == ["Resign", "Cancel"]
    assert app.scene.c.offer_draw() == "draw.not_in_game"


def test_the_d_key_offers_a_draw(app_factory):
    app, c = _connect4_at(app_factory)
    _judge(c, -0.3)
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d")])
    app.step()
    assert c.agreed_draw


def test_playing_on_from_an_earlier_position_takes_the_agreement_back(app_factory):
    """As with a resignation: the game goes on from there, and counts as taken back."""
    app, c = _connect4_at(app_factory)
    _judge(c, 0.0)
    c.offer_draw()
    app.step()
    assert c.agreed_draw
    c.go_to(DRAW_OFFER_PLIES - 2)
    assert c.play_from_view(_quiet(c.viewed))
    assert not c.agreed_draw and not c.over and c.took_back


def test_a_draw_offered_while_a_variation_is_on_the_board_is_offered_in_the_game(app_factory):
    """The offer is the game's: the game comes back on the board and the AI judges its position,
    not the end of a line opened from the move list."""
    app, c = _connect4_at(app_factory, DRAW_OFFER_PLIES + 2)
    old = c.line[-1]                                     # this line's end, the person to move
    c.go_to(DRAW_OFFER_PLIES)
    taken = c.history[DRAW_OFFER_PLIES + 1].moves[-1]
    assert c.play_from_view(next(a for a in c.viewed.legal_actions()
                                 if a != taken and not c.viewed.play(a).is_terminal()))
    c._push(_quiet(c.state), by_ai=True)
    game_end = c.state
    _judge(c, 0.0)                                       # the game's position: the AI would agree
    c.go_to_node(old)
    _judge(c, 0.6)                                       # the variation's: it would not
    assert c.waiting and c.human_to_move
    assert c.offer_draw() == ""
    app.step()
    assert c.agreed_draw and c.game_over and c.state is game_end and not c.waiting
    assert not old.data.get("agreed_draw")


def test_d_while_a_variation_is_on_the_board_and_the_ai_to_move_in_the_game_changes_nothing(app_factory):
    app, c = _connect4_at(app_factory, DRAW_OFFER_PLIES + 2)
    old = c.line[-1]
    c.go_to(DRAW_OFFER_PLIES)
    taken = c.history[DRAW_OFFER_PLIES + 1].moves[-1]
    assert c.play_from_view(next(a for a in c.viewed.legal_actions()
                                 if a != taken and not c.viewed.play(a).is_terminal()))
    c.go_to_node(old)                                    # the game waits for the AI's move meanwhile
    _judge(c, 0.0)
    assert c.offer_draw() == "draw.your_turn"
    app.step()
    assert not c.agreed_draw and c.line[-1] is old and not old.data.get("agreed_draw")


def test_a_draw_offered_while_looking_back_is_offered_in_the_games_newest_position(app_factory):
    app, c = _connect4_at(app_factory)
    _judge(c, 0.0)
    c.go_to(5)
    assert c.reviewing
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_d, mod=0, unicode="d")])
    app.step()
    assert c.agreed_draw and not c.reviewing and len(c.history) == DRAW_OFFER_PLIES + 1
