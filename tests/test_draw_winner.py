"""'Armageddon' draws in self-play (`[selfplay] draw_winner`): a game drawn on the board counts
as a win for one player in the self-play search and in the value targets."""
from __future__ import annotations

import numpy as np
import pytest

from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.mcts import MCTS, SearchConfig, Tree
from engine.core.selfplay import SamplesBatch, _outcome, play_games
from games import get_game

QUICK = dict(sims=24, parallel_games=4, leaf_batch=1, resign_threshold=0, dirichlet_eps=0.0,
             temperature_moves=2)
# tic-tac-toe, X (player 0) to move with one empty square left, whose filling draws:
# X O X / X O O / O X .  -> X takes the last square (8): no line
LAST_MOVE_DRAWS = [0, 1, 2, 4, 3, 5, 7, 6]


def position(moves):
    state = get_game("tictactoe").initial_state()
    for a in moves:
        state = state.play(a)
    return state


def root_value(draw_winner: int) -> float:
    state = position(LAST_MOVE_DRAWS)
    assert state.current_player == 0 and list(state.legal_actions()) == [8]
    assert state.apply(8).is_terminal() and state.apply(8).winner() is None
    tree = Tree(state)
    MCTS(UniformEvaluator(), SearchConfig(draw_winner=draw_winner)).search([tree], 16)
    return tree.root_value()


def test_the_search_scores_a_finished_draw_as_a_win_for_draw_winner():
    assert root_value(-1) == pytest.approx(0.0, abs=1e-6)   # a draw stays a draw
    assert root_value(0) == pytest.approx(1.0, abs=1e-6)    # X to move, draws count for X
    assert root_value(1) == pytest.approx(-1.0, abs=1e-6)   # ... for O: X's only move loses


def test_a_reused_subtree_keeps_the_rule():
    state = position(LAST_MOVE_DRAWS[:-1])                 # O to move, two squares left
    tree = Tree(state)
    MCTS(UniformEvaluator(), SearchConfig(draw_winner=1)).search([tree], 40)
    child = tree.child_tree(int(tree.stats(limit=1)[0].action))
    assert child is not None and child.draw_winner == 1


def test_drawn_self_play_games_are_won_by_draw_winner_in_targets_and_counted_as_draws():
    game = get_game("tictactoe")
    plain, plain_stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**QUICK), 24, seed=3)
    arm, arm_stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**QUICK, draw_winner=1), 24, seed=3)
    assert plain_stats.draws > 0 and not any(r.drawn for r in plain)
    drawn = [r for r in arm if r.drawn]
    assert len(drawn) == arm_stats.draws > 0
    for r in arm:
        final = position(r.moves)
        assert final.is_terminal()
        if r.drawn:
            assert final.winner() is None and r.winner == 1
            assert _outcome(r, 1) == 1.0 and _outcome(r, 0) == -1.0
        else:
            assert r.winner == final.winner()
    batch = SamplesBatch.from_records(drawn, (3, 3, 3))
    players = np.array([p for r in drawn for p in r.players])
    assert np.all(batch.z[players == 1] == 1.0) and np.all(batch.z[players == 0] == -1.0)
    assert arm_stats.wins[0] + arm_stats.wins[1] + arm_stats.draws == arm_stats.games


def test_a_game_stopped_at_the_ply_cap_is_not_a_board_draw():
    recs, stats = play_games(get_game("tictactoe"), UniformEvaluator(),
                             SelfPlaySettings(**QUICK, draw_winner=0, max_plies=3), 4, seed=1)
    assert stats.games == 4 and all(r.winner is None and not r.drawn for r in recs)


def test_draw_winner_is_checked(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[selfplay]\ndraw_winner = 2\n")
    with pytest.raises(ValueError, match="draw_winner"):
        load_config(get_game("gomoku"), bad)
    ok = tmp_path / "ok.toml"
    ok.write_text("[selfplay]\ndraw_winner = 1\n")
    assert load_config(get_game("gomoku"), ok).selfplay.draw_winner == 1
