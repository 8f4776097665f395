""""Analyse game": every position analysed at a chosen level with progress and a Stop, the
graph and the marks filled, and the analysis saved in the record so that a reloaded game
shows the same marks without searching again."""
from __future__ import annotations

import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pygame
import pytest

from test_gui_support import app_factory, press, run_until


def loaded_game(app, game_id, moves):
    from games import get_game
    app.start_play(game_id, "first", "beginner")
    c = app.scene.c
    c.load(get_game(game_id).state_from_text(moves))
    return c


def test_analyse_game_fills_every_position_at_the_chosen_level(app_factory):
    from gui.scenes.help import SHORTCUTS
    assert ("E  ·  A", "keys.study") in SHORTCUTS
    app = app_factory()
    c = loaded_game(app, "tictactoe", "b2 a1 a2 c2")
    press(app, pygame.K_a)
    assert app.scene.confirm is not None          # the level is asked first
    press(app, pygame.K_RETURN)                   # the first choice: the quick judge
    assert c.full_analysis is not None and c.full_analysis["level"] == c.ANALYSIS_LEVEL == "analysis"
    assert c.full_progress()[:2] == (0, 5)
    assert run_until(app, lambda: c.full_analysis is None)
    assert all(g is not None and g.source == "analysis" for g in c.grades)
    assert c.analysis_level == "analysis"
    assert all(v is not None for v in c.graph_values())


def test_a_second_press_stops_the_analysis_and_keeps_what_it_found(app_factory):
    app = app_factory()
    c = loaded_game(app, "connect4", "4444")
    c.analyse_game("medium")
    assert run_until(app, lambda: c.full_progress()[0] >= 1)
    done = c.full_progress()[0]
    press(app, pygame.K_a)
    assert c.full_analysis is None and c.full_progress() == (0, 0, 0.0)
    assert any("stopped" in toast[0] for toast in app.toasts)
    assert sum(g is not None for g in c.grades) >= done
    assert c.grades[0] is not None and c.grades[0].source == "analysis"


def test_the_analysis_is_saved_and_loaded_back_without_searching(app_factory, tmp_path):
    from gui.records import load_record
    app = app_factory()
    c = loaded_game(app, "tictactoe", "b2 a1 a2 c2")
    c.analyse_game("medium")
    assert run_until(app, lambda: c.full_analysis is None)
    marks = c.qualities()
    path = app.save_game(c, tmp_path)
    state, meta = load_record(path)
    assert meta["analysis_level"] == "medium" and len(meta["analysis"].split(";")) == 5
    from gui import autosave
    autosave.clear("tictactoe")                      # the first app's game in progress: not asked about
    other = app_factory(ai_enabled=False)            # no AI at all: nothing can be searched
    other.start_play("tictactoe", "first", "beginner")
    other.play_record(state, meta, other.scene)
    d = other.scene.c
    assert [g.value0 for g in d.grades] == [g.value0 for g in c.grades]
    assert d.qualities() == marks
    assert d.analysis_progress() == (5, 5)


@pytest.mark.parametrize("game_id, moves, fmt", [("gomoku", "h8 i9 h9 i10", "sgf"), ("othello", "f5d6c3", "sgf"),
                                                ("xiangqi", "startpos moves h2e2 h9g7", "pgn"),
                                                ("connect4", "4453", "zeroboard")])
def test_each_format_keeps_the_analysis(app_factory, tmp_path, game_id, moves, fmt):
    from gui.records import load_record
    from gui.review import Evaluation
    app = app_factory(ai_enabled=False)
    c = loaded_game(app, game_id, moves)
    for i, s in enumerate(c.history):
        c.grades[i] = Evaluation(0.1 + 0.01 * i, None, s.legal_actions()[-1], 100 + i, "analysis")
    c.grades[1] = Evaluation(1 / 3, 1.0, None, 7, "analysis")
    c.analysis_level = "strong"
    path = app.save_game(c, tmp_path, fmt)
    state, meta = load_record(path)
    app.play_record(state, meta, app.scene)
    d = app.scene.c
    assert [(g.value0, g.proven0, g.best, g.sims) for g in d.grades] == \
        [(g.value0, g.proven0, g.best, g.sims) for g in c.grades]
    assert d.analysis_level == "strong"


def test_malformed_analysis_fields_are_dropped():
    from games.records.base import read_analysis_comment, unpack_analysis
    assert read_analysis_comment("ZeroBoard analysis v=2.5 n=10") == {}          # a value outside -1..1
    assert read_analysis_comment("ZeroBoard analysis v=0.5 n=x best=c3") == {"v": "0.5", "best": "c3"}
    assert read_analysis_comment("a person's comment") == {}
    assert unpack_analysis("0 v=0.1;x v=0.2;3 n=4;5 v=-0.5") == {0: {"v": "0.1"}, 5: {"v": "-0.5"}}


def test_looking_at_a_variation_meanwhile_neither_stops_nor_misplaces_the_analysis():
    from games import get_game
    from gui.controller import PlayController
    from test_gui_review import ScriptedAI, ai_move
    ai = ScriptedAI()
    c = PlayController(ai, get_game("tictactoe"), human=0, level="strong")
    c.load(get_game("tictactoe").state_from_text("b2 a1 a2 c2"))
    c.go_to(2)
    c.play_from_view(6)                                  # b2 a1 a3: b2 a1 a2 c2 is a variation now
    c.go_to_node(c.tree.find((4, 0, 3, 5)))              # look at it
    c.analyse_game("medium")                             # analyse the line shown
    c.update()
    [(rid, (state, _, _))] = ai.open("medium")
    assert state.moves == ()
    ai.answer(rid, 4, 0.25)
    c.go_to_node(c.tree.find((4, 0, 6)))                 # back to the game's line while it runs
    assert c.full_analysis is not None and c.full_progress()[:2] == (1, 5)
    ai_move(c, ai, 2)                                    # the game goes on meanwhile
    for _ in range(4):
        c.update()
        [(rid, (state, _, _))] = ai.open("medium")
        ai.answer(rid, state.legal_actions()[0], 0.5)
    c.update()
    assert c.full_analysis is None                       # done: every position of the line analysed
    c._sync()                                            # the line on the board keeps its grades in its nodes
    graded = {n.state.moves: n.data.get("grade") for n in c.tree.nodes()}
    assert all(graded[m] is not None and graded[m].source == "analysis"
               for m in [(), (4,), (4, 0), (4, 0, 3), (4, 0, 3, 5)])
    assert graded[(4, 0, 3)].value0 == -0.5               # the variation's own position, not the game's
    assert graded[(4, 0, 6)] is None or graded[(4, 0, 6)].value0 != -0.5
    c.go_to_node(c.tree.find((4, 0, 3, 5)))
    assert all(g is not None and g.source == "analysis" for g in c.grades)
