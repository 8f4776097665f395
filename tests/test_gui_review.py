"""Review: looking at earlier positions, undo and redo, playing on from an earlier position,
the win-rate graph's data and each move's quality. The controller is driven with a scripted
AI that answers when the test says, so every step is deterministic."""
from __future__ import annotations

import pytest

from games import get_game
from gui.controller import PlayController
from gui.review import Evaluation, move_loss, move_qualities, quality, summary_counts


class ScriptedAI:
    """AIClient's interface; requests wait until the test answers them."""

    def __init__(self):
        self.status = "ready"
        self.message = ""
        self.requests = {}  # rid -> (state, level, callback)
        self.cancelled = []
        self._next = 0

    def search(self, state, level, model_path, session, callback, extras=False):
        self._next += 1
        self.requests[self._next] = (state, level, callback)
        return self._next

    def prepare(self, state, level, model_path, session, callback):
        return None   # nothing to load: ready at once

    def cancel(self, rid):
        if rid in self.requests:
            self.cancelled.append(rid)
            del self.requests[rid]

    def open(self, level=None):
        return [(rid, r) for rid, r in self.requests.items() if level is None or r[1] == level]

    def answer(self, rid, action=None, value=0.0, top=None, proven=None):
        state, level, cb = self.requests.pop(rid)
        action = state.legal_actions()[0] if action is None else action
        top = top if top is not None else [{"action": action, "visits": 100, "q": value, "prior": 0.5}]
        cb({"type": "result", "id": rid, "action": action, "value": value, "proven": proven, "top": top})


def ai_move(c, ai, action, value=0.0):
    """Let the controller ask for the AI's move and answer it with ``action``."""
    c.update()
    [(rid, _)] = ai.open(c.level)
    ai.answer(rid, action, value)
    c.pending_move = (c.pending_move[0], 0.0)
    c.update()


@pytest.fixture
def ttt():
    ai = ScriptedAI()
    c = PlayController(ai, get_game("tictactoe"), human=0, level="strong")
    c.analysis_on = False
    return c, ai


def play_game(c, ai, moves):
    """Alternate the person's and the AI's moves (the person plays first)."""
    for i, a in enumerate(moves):
        if i % 2 == 0:
            assert c.play(a)
        else:
            ai_move(c, ai, a)


# --- navigation ----------------------------------------------------------------------

def test_looking_back_during_a_game_leaves_the_game_alone(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8])          # the AI is now to move after the person's third move... (3 moves)
    newest = c.state
    assert c.go_to(1)
    assert c.viewed is c.history[1] and c.reviewing
    assert c.state is newest               # the game goes on from its newest position
    c.update()                             # and the AI is asked to move there, not in the viewed one
    [(rid, (asked, _, _))] = ai.open("strong")
    assert asked is newest


def test_arrows_home_and_end_step_through_the_moves(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    assert c.view_index == 4 and not c.reviewing
    assert c.step_back() and c.view_index == 3
    assert c.go_start() and c.view_index == 0
    assert not c.step_back() and c.view_index == 0      # nothing before the start
    assert c.step_forward() and c.view_index == 1
    assert c.go_end() and not c.reviewing and c.view_index == 4
    assert not c.step_forward()


def test_the_view_follows_new_moves_only_when_it_is_at_the_newest_position(ttt):
    c, ai = ttt
    play_game(c, ai, [4])
    ai_move(c, ai, 0)
    assert c.view_index == 2                # following: the AI's move is shown
    c.go_to(1)
    c.go_end()
    assert c.play(8)
    c.go_to(0)
    ai_move(c, ai, 2)
    assert c.view_index == 0                # looking back: stays where the person looks


def test_the_person_cannot_play_in_the_newest_position_while_looking_back(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0])
    c.go_to(0)
    assert not c.play(8)
    assert len(c.history) == 3


def test_playing_on_from_an_earlier_position_replaces_the_later_moves(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.go_to(2)                               # after X e... and O's reply: the person's turn
    assert c.moves_after_view() == 2
    assert c.play_from_view(6)
    assert [s.moves[-1] for s in c.history[1:]] == [4, 0, 6]
    assert not c.reviewing and c.state.moves == (4, 0, 6)


def test_playing_on_is_refused_where_it_is_not_the_persons_turn(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.go_to(1)                               # the AI's turn in that position
    assert not c.play_from_view(6)
    assert len(c.history) == 5


# --- undo and redo ---------------------------------------------------------------------

def test_undo_takes_back_the_persons_move_and_the_ais_reply_and_redo_replays_them(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    full = c.state
    assert c.undo() and c.state.moves == (4, 0)
    assert c.undo() and c.state.moves == ()
    assert not c.undo()
    assert c.redo() and c.state.moves == (4, 0)
    assert c.redo() and c.state is full
    assert not c.redo()


def test_a_different_move_after_undo_forgets_the_redo(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.undo()
    assert c.play(6)
    assert not c.redo()


def test_the_same_move_after_undo_keeps_the_rest_of_the_redo(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.undo()
    c.undo()
    assert c.play(4)                          # the move that was taken back, played again
    assert c.redo_stack and c.redo_stack[0][0].moves == (4, 0)


def test_undo_while_looking_back_undoes_the_game_not_the_view(ttt):
    c, ai = ttt
    play_game(c, ai, [4, 0, 8, 2])
    c.go_to(1)
    assert c.undo()
    assert c.state.moves == (4, 0) and not c.reviewing


# --- evaluations, the graph and move quality ----------------------------------------------

def test_the_bar_shows_the_viewed_position_not_the_ais_value_before_its_own_move(ttt):
    """Defect 1: the AI believed in a draw, then (a beginner) blundered; the bar must not keep
    the draw beside the person's win."""
    c, ai = ttt
    c.play(0)
    c.update()
    [(rid, _)] = ai.open()
    ai.answer(rid, action=1, value=0.0, proven=0.0,
              top=[{"action": 4, "visits": 90, "q": 0.0, "prior": 0.5}])   # its best was 4; it played 1
    c.pending_move = (1, 0.0)
    c.update()
    assert c.state.moves == (0, 1)
    assert c.proven0 is None and c.value0 is None        # unknown, not the stale proven draw
    assert c.play(3)
    ai_move(c, ai, 2)
    assert c.play(6)                                       # X wins on the a-file
    assert c.over and c.value0 == 1.0 and c.proven0 == 1.0


def test_the_ais_value_carries_over_to_the_position_after_its_best_move(ttt):
    c, ai = ttt
    c.play(4)
    ai_move(c, ai, 0, value=0.2)                           # O's value +0.2 for O: X -0.2
    assert c.evals[1].value0 == pytest.approx(-0.2)
    assert c.value0 == pytest.approx(-0.2)                 # position 2 takes it: 0 was the AI's best


def test_graph_values_are_player_0s_win_rate_with_gaps_where_unknown(ttt):
    c, ai = ttt
    c.play(4)
    ai_move(c, ai, 0, value=0.5)
    vals = c.graph_values()
    assert len(vals) == 3
    assert vals[0] is None
    assert vals[1] == pytest.approx(0.25) and vals[2] == pytest.approx(0.25)


def test_analysis_fills_in_the_positions_no_search_has_seen(ttt):
    c, ai = ttt
    c.analysis_on = True
    c.play(4)
    ai_move(c, ai, 0)
    c.update()                                             # the person's turn: the AI is free
    todo = ai.open(c.ANALYSIS_LEVEL)
    assert len(todo) == 1
    rid, (state, _, _) = todo[0]
    assert state is c.state                                # the newest position first
    ai.answer(rid, value=0.1)
    assert c.evals[2] is not None and c.evals[2].source == "analysis"
    for position in (1, 0):                                # the AI's own search does not grade moves
        c.update()
        rid, (state, _, _) = ai.open(c.ANALYSIS_LEVEL)[0]
        assert state is c.history[position]
        ai.answer(rid, value=0.05)
    done, total = c.analysis_progress()
    assert (done, total) == (3, 3)
    c.update()
    assert not ai.open(c.ANALYSIS_LEVEL)                   # nothing left to analyse


def test_the_ais_move_request_cancels_the_analysis(ttt):
    c, ai = ttt
    c.analysis_on = True
    c.update()
    [(rid, _)] = ai.open(c.ANALYSIS_LEVEL)
    c.play(4)
    assert rid in ai.cancelled and not c.analysing


def test_a_move_that_gives_away_20_percent_is_a_blunder():
    before = Evaluation(0.6, best=3)                     # player 0: 80%
    after = Evaluation(0.1)                              # player 0: 55%
    assert move_loss(before, after, 0, 5) == pytest.approx(0.25)
    assert quality(0.25) == "blunder" and quality(0.12) == "mistake"
    assert quality(0.06) == "inaccuracy" and quality(0.01) == "good" and quality(None) is None
    assert move_loss(before, after, 0, 3) == 0.0          # the search's best move loses nothing
    assert move_loss(before, Evaluation(0.9), 0, 5) == 0.0  # a move better than the search thought
    assert move_loss(None, after, 0, 5) is None
    assert move_loss(Evaluation(-0.6, best=1), Evaluation(-0.1), 1, 5) == pytest.approx(0.25)


def test_the_summary_counts_each_sides_mistakes_and_blunders():
    g = get_game("tictactoe")
    states = [g.initial_state()]
    for a in (4, 0, 8, 2):
        states.append(states[-1].apply(a))
    evals = [Evaluation(0.0, best=4), Evaluation(0.0, best=1), Evaluation(0.5, best=2),
             Evaluation(0.5, best=7), Evaluation(1.0)]
    qs = move_qualities(states, evals)
    assert [q["quality"] for q in qs] == ["good", "blunder", "good", "blunder"]
    assert summary_counts(qs, player=1) == {"inaccuracy": 0, "mistake": 0, "blunder": 2}
    assert summary_counts(qs, player=0)["blunder"] == 0


# --- hints that teach ---------------------------------------------------------------------

def test_a_hint_brings_each_moves_line_and_the_networks_policy(ttt):
    c, ai = ttt
    c.hints_on = True
    c.update()
    [(rid, (state, _, cb))] = ai.open("strong")
    del ai.requests[rid]
    cb({"type": "result", "id": rid, "action": 4, "value": 0.1, "proven": None,
        "top": [{"action": 4, "visits": 80, "q": 0.2, "prior": 0.5}, {"action": 0, "visits": 20, "q": -0.1, "prior": 0.2}],
        "pv": {"4": [0, 8, 99]}, "policy": [[4, 0.5], [0, 0.2], [8, 0.1]]})
    hints = c.hint_moves()
    assert [h["action"] for h in hints] == [4, 0]
    assert hints[0]["winrate"] == pytest.approx(0.6) and hints[0]["share"] == pytest.approx(0.8)
    line = c.principal_variation(4)
    assert [a for _, a in line] == [4, 0, 8]          # an illegal step (99) ends the line
    assert line[1][0].moves == (4,)                   # each step with the position it is played in
    assert c.policy_map() == []                       # the heatmap only when asked for
    c.show_policy = True
    assert c.policy_map() == [(4, 0.5), (0, 0.2), (8, 0.1)]
    c.play(4)
    assert c.principal_variation(4) == [] and c.policy_map() == []   # the hint belonged to the old position


def test_the_ai_process_reads_the_lines_and_the_policy_off_the_search_tree():
    pytest.importorskip("engine.play.players")
    from engine.play.players import make_player
    from gui.ai_worker import _top_list, _tree_extras
    g = get_game("connect4")
    player = make_player(g, level="medium")
    state = g.initial_state().apply(3)
    top = _top_list(player.choose(state))
    extras = _tree_extras(player, top)
    assert {a for a, _ in extras["policy"]} == set(state.legal_actions())
    assert sum(p for _, p in extras["policy"]) == pytest.approx(1.0, abs=0.01)
    first = top[0]["action"]
    line = extras["pv"][str(first)]
    s = state.apply(first)
    for a in line:                                     # a line of legal moves from the hinted one
        assert a in s.legal_actions()
        s = s.apply(a)
    assert _tree_extras(object(), top) == {}           # a player without a tree: no extras


def test_a_hint_searches_at_least_as_deeply_as_the_analysis(ttt):
    """A beginner AI's dozen visits made every hint a guess (found under Xvfb: 2 visits a move)."""
    c, ai = ttt
    c.level = "beginner"
    c.hints_on = True
    c.update()
    [(_, (_, level, _))] = ai.open()
    assert level == c.ANALYSIS_LEVEL
    for below in ("easy", "medium", "hard"):           # gomoku's medium and hard search 1 and 10 visits
        c.level = below
        assert c.hint_level == c.ANALYSIS_LEVEL
    c.level = "max"
    assert c.hint_level == "max"                       # a stronger level is kept
    c.level = "strong"
    assert c.hint_level == "strong"


def test_the_study_judge_searches_the_same_visits_in_every_game_whatever_its_levels():
    """Gomoku's medium level searches one visit (its ratings' choice): the background analysis
    that searched as medium marked the strong AI's own replies as blunders (found under Xvfb)."""
    pytest.importorskip("engine.play.players")
    from engine.play.players import ANALYSIS, LEVELS, level_visits, make_player
    from gui.controller import ANALYSE_LEVELS, HINT_OWN_LEVELS, LEVELS as GUI_LEVELS
    from gui.session import GameSession
    assert GameSession.ANALYSIS_LEVEL == ANALYSIS.name == ANALYSE_LEVELS[0]
    assert ANALYSIS.name not in LEVELS and ANALYSIS.name not in GUI_LEVELS   # not a level to play
    for key in ("tictactoe", "connect4", "othello", "gomoku", "xiangqi"):
        g = get_game(key)
        assert level_visits(g, ANALYSIS.name) == ANALYSIS.sims == 400
        assert all(level_visits(g, lv) >= ANALYSIS.sims for lv in HINT_OWN_LEVELS)
    assert level_visits(get_game("gomoku"), "medium") < ANALYSIS.sims
    player = make_player(get_game("tictactoe"), level=ANALYSIS.name)
    assert player.sims == ANALYSIS.sims and player.seconds == ANALYSIS.seconds


def test_a_hinted_move_the_search_never_visited_has_no_win_rate(ttt):
    """It read "50%" beside 0 visits, a number nothing had measured."""
    c, ai = ttt
    c.hints_on = True
    c.update()
    [(rid, (_, _, cb))] = ai.open()
    del ai.requests[rid]
    cb({"type": "result", "id": rid, "action": 4, "value": 0.1, "proven": None,
        "top": [{"action": 4, "visits": 11, "q": 1.0, "prior": 0.5}, {"action": 0, "visits": 0, "q": 0.0, "prior": 0.2}]})
    hints = c.hint_moves()
    assert hints[0]["winrate"] == pytest.approx(1.0)
    assert hints[1]["winrate"] is None and hints[1]["share"] == 0.0


def test_a_proven_result_is_not_replaced_by_a_smaller_search_that_did_not_prove_it(ttt):
    """Under Xvfb the bar went from "X wins with best play (proven)" to "92%" when a hint's
    shallower search of the same position came back."""
    c, ai = ttt
    c.play(4)
    c.update()
    [(rid, _)] = ai.open()
    ai.answer(rid, action=1, value=0.0, top=[{"action": 0, "visits": 100, "q": 0.0, "prior": 0.5}])
    c.pending_move = (1, 0.0)
    c.update()
    c.analysis_on = True
    c.update()
    [(rid, _)] = ai.open(c.ANALYSIS_LEVEL)
    ai.answer(rid, value=1.0, proven=1.0)                    # X to move: X wins (proven)
    assert c.proven0 == 1.0
    c.hints_on = True
    c.update()
    [(rid, (_, _, cb))] = [r for r in ai.open() if r[1][0] is c.state]
    del ai.requests[rid]
    cb({"type": "result", "id": rid, "action": 0, "value": 0.84, "proven": None,
        "top": [{"action": 0, "visits": 12, "q": 0.84, "prior": 0.5}]})
    assert c.proven0 == 1.0 and c.value0 == 1.0              # still the proof
