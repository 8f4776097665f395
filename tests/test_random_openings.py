"""Self-play from random openings (`[selfplay] random_opening_plies` and `random_opening_share`)."""
from __future__ import annotations

import numpy as np
import pytest

from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.selfplay import play_games, random_opening
from games import get_game

QUICK = dict(sims=8, parallel_games=4, leaf_batch=1, resign_threshold=0, dirichlet_eps=0.0)


def replay(game, moves):
    state = game.initial_state()
    for a in moves:
        state = state.play(a)     # raises on an illegal move
    return state


def test_a_random_opening_is_that_many_legal_moves_and_leaves_the_game_open():
    game = get_game("connect4")
    seen = set()
    for seed in range(20):
        state, moves = random_opening(game, 5, np.random.default_rng(seed))
        assert len(moves) == 5 and not state.is_terminal()
        assert replay(game, moves).key() == state.key()
        seen.add(tuple(moves))
    assert len(seen) >= 15                               # uniformly random, not one line
    a = random_opening(game, 5, np.random.default_rng(3))[1]
    assert a == random_opening(game, 5, np.random.default_rng(3))[1]   # seeded


def test_a_game_whose_every_line_ends_gets_the_longest_open_prefix():
    game = get_game("tictactoe")                         # 9 plies always fill the board
    state, moves = random_opening(game, 9, np.random.default_rng(0), tries=30)
    assert 5 <= len(moves) <= 8 and not state.is_terminal()
    assert replay(game, moves).key() == state.key()


def test_self_play_starts_after_the_random_moves_and_samples_from_there():
    game = get_game("connect4")
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**QUICK, temperature_moves=0,
                                                                         random_opening_plies=4), 6, seed=1)
    assert stats.games == 6
    for r in recs:
        assert r.plies[0] == 4                           # the random moves are not recorded
        assert r.plies == list(range(4, 4 + len(r.plies)))
        final = replay(game, r.moves)                    # the record's moves include them, all legal
        assert final.is_terminal() or len(r.moves) >= game.max_game_length
    assert len({tuple(r.moves[:4]) for r in recs}) >= 4
    # temperature_moves count from the first searched move: greedy searches from one start
    # repeat, sampled ones from the same start differ
    s = dict(QUICK, random_opening_plies=0)
    greedy, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**s, temperature_moves=0), 4, seed=2)
    assert len({tuple(r.moves[:3]) for r in greedy}) == 1
    sampled, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**s, temperature_moves=3), 4, seed=2)
    assert len({tuple(r.moves[:3]) for r in sampled}) > 1


def test_the_sampled_plies_follow_the_random_ones(monkeypatch):
    from engine.core import selfplay
    calls = []
    real = selfplay.select_action
    monkeypatch.setattr(selfplay, "select_action", lambda *a, **k: calls.append(1) or real(*a, **k))
    game = get_game("connect4")                          # no game ends before ply 7
    play_games(game, UniformEvaluator(), SelfPlaySettings(**QUICK, temperature_moves=2, random_opening_plies=4),
               6, seed=4)
    assert len(calls) == 6 * 2                           # plies 4 and 5 of each game, no more


def test_the_share_picks_which_games_start_randomly():
    game = get_game("connect4")
    settings = SelfPlaySettings(**QUICK, temperature_moves=0, random_opening_plies=3)
    settings.random_opening_share = 0.0
    recs, _ = play_games(game, UniformEvaluator(), settings, 4, seed=1)
    assert all(r.plies[0] == 0 for r in recs)
    settings.random_opening_share = 0.5
    recs, _ = play_games(game, UniformEvaluator(), settings, 16, seed=1)
    starts = [r.plies[0] for r in recs]
    assert set(starts) == {0, 3}


def test_a_minimum_draws_each_start_between_the_minimum_and_the_plies():
    game = get_game("connect4")                          # no game ends before ply 7
    settings = SelfPlaySettings(**QUICK, temperature_moves=0, random_opening_plies=6, random_opening_min_plies=1)
    recs, _ = play_games(game, UniformEvaluator(), settings, 40, seed=5)
    starts = [r.plies[0] for r in recs]
    assert set(starts) <= set(range(1, 7)) and len(set(starts)) >= 5
    for r in recs:                                       # legal moves, in the record, not trained on
        assert replay(game, r.moves).key() and len(r.moves) == r.plies[-1] + 1
    fixed = SelfPlaySettings(**QUICK, temperature_moves=0, random_opening_plies=6)   # -1: exactly 6
    assert {r.plies[0] for r in play_games(game, UniformEvaluator(), fixed, 8, seed=5)[0]} == {6}


@pytest.mark.parametrize("text, message", [("random_opening_plies = -1", "between 0 and 64"),
                                           ("random_opening_share = 1.5", "between 0 and 1"),
                                           ("random_opening_plies = 3\nrandom_opening_min_plies = 5",
                                            "between 0 and random_opening_plies"),
                                           ("random_opening_min_plies = -2", "-1 .off. or between 0")])
def test_bad_settings_are_refused(tmp_path, text, message):
    f = tmp_path / "bad.toml"
    f.write_text(f"[selfplay]\n{text}\n")
    with pytest.raises(ValueError, match=message):
        load_config(get_game("gomoku"), f)


def test_off_by_default():
    for key in ("gomoku", "xiangqi", "othello", "connect4"):
        assert load_config(get_game(key)).selfplay.random_opening_plies == 0
