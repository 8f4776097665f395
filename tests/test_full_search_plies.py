"""The opening's full searches (`[selfplay] full_search_plies`) with playout-cap randomisation."""
from __future__ import annotations

import pytest

from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.selfplay import play_games
from games import get_game

# every move cheap unless full_search_plies says otherwise; cheap positions kept (weight 0)
CHEAP = dict(sims=12, fast_sims=3, full_search_prob=0.0, record_fast=True, parallel_games=4, leaf_batch=1,
             resign_threshold=0, dirichlet_eps=0.0, temperature_moves=2)


def weights(recs):
    return [list(r.policy_weight) for r in recs]


def test_the_first_plies_get_the_full_search_and_the_rest_the_cheap_one():
    game = get_game("connect4")                          # no game ends before ply 7
    recs, stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**CHEAP, full_search_plies=5), 6, seed=1)
    assert stats.games == 6
    for w in weights(recs):
        assert w[:5] == [1.0] * 5 and set(w[5:]) == {0.0}
    off, off_stats = play_games(game, UniformEvaluator(), SelfPlaySettings(**CHEAP), 6, seed=1)
    assert all(set(w) == {0.0} for w in weights(off))
    # the visits follow: the five full searches a game are where the extra visits went
    assert off_stats.sims < stats.sims


def test_they_count_from_the_first_searched_move_after_a_random_start():
    game = get_game("connect4")
    recs, _ = play_games(game, UniformEvaluator(),
                         SelfPlaySettings(**CHEAP, full_search_plies=3, random_opening_plies=4), 6, seed=2)
    for r in recs:
        assert r.plies[0] == 4 and list(r.policy_weight[:3]) == [1.0] * 3 and set(r.policy_weight[3:]) == {0.0}


def test_off_by_default_and_the_randomisation_unchanged():
    game = get_game("connect4")
    s = dict(CHEAP, full_search_prob=0.4)
    a, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**s), 4, seed=3)
    b, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**s, full_search_plies=0), 4, seed=3)
    assert weights(a) == weights(b) and [r.moves for r in a] == [r.moves for r in b]
    assert all(0.0 in w and 1.0 in w for w in weights(a[:1]))   # a mix, drawn move by move
    assert load_config(get_game("xiangqi")).selfplay.full_search_plies == 0


@pytest.mark.parametrize("text", ["[selfplay]\nfull_search_plies = -1\n"])
def test_a_negative_count_is_refused(tmp_path, text):
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(ValueError, match="full_search_plies cannot be negative"):
        load_config(get_game("xiangqi"), f)
