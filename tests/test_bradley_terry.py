"""The rating fit behind the levels' ratings (engine.play.bradley_terry): it recovers known ratings from
simulated games within its intervals, keeps anchors fixed, stays finite for a player that won
every game, and refuses players that no games connect to an anchor."""
from __future__ import annotations

import numpy as np
import pytest

from engine.play.bradley_terry import Pairing, fit
from engine.play.rating import expected_score


def simulate(truth: dict[str, float], pairs: list[tuple[str, str]], games: int, rng) -> list[Pairing]:
    out = []
    for a, b in pairs:
        s = expected_score(truth[a], truth[b])
        draw = 0.1
        w = rng.binomial(games, s * (1 - draw))
        d = rng.binomial(games - w, draw / (1 - s * (1 - draw)) if s * (1 - draw) < 1 else 0)
        out.append(Pairing(a, b, int(w), int(d), int(games - w - d)))
    return out


def test_known_ratings_are_recovered_within_their_intervals_most_of_the_time():
    truth = {"r1": 800.0, "r2": 1100.0, "r3": 1400.0, "r4": 1700.0, "lv1": 950.0, "lv2": 1300.0, "lv3": 1650.0}
    anchors = {"r1": 800.0, "r4": 1700.0}
    pairs = [("r1", "r2"), ("r2", "r3"), ("r3", "r4"), ("lv1", "r1"), ("lv1", "r2"), ("lv2", "r2"),
             ("lv2", "r3"), ("lv3", "r3"), ("lv3", "r4")]
    inside = total = 0
    for seed in range(40):
        ratings = fit(simulate(truth, pairs, 20, np.random.default_rng(seed)), anchors)
        for name in ("r2", "r3", "lv1", "lv2", "lv3"):
            r = ratings[name]
            assert r.low < r.rating < r.high
            inside += r.low <= truth[name] <= r.high
            total += 1
        assert ratings["r1"].rating == 800.0 and ratings["r4"].rating == 1700.0
    assert inside / total >= 0.88, inside / total  # nominally 95%


def test_a_clean_sweep_gives_a_finite_rating_above_the_beaten_player():
    ratings = fit([Pairing("a", "b", 20, 0, 0)], {"b": 1000.0})
    assert 1000.0 < ratings["a"].rating < 2000.0 and np.isfinite(ratings["a"].high)
    assert ratings["a"].games == 20


def test_even_results_give_equal_ratings():
    ratings = fit([Pairing("a", "b", 5, 10, 5)], {"b": 1500.0})
    assert ratings["a"].rating == pytest.approx(1500.0, abs=1e-6)


def test_players_no_games_connect_to_an_anchor_are_refused():
    with pytest.raises(ValueError, match="connect"):
        fit([Pairing("a", "b", 3, 0, 2), Pairing("c", "d", 1, 0, 1)], {"a": 1000.0})
    with pytest.raises(ValueError, match="anchor"):
        fit([Pairing("a", "b", 3, 0, 2)], {})


def test_the_first_movers_advantage_is_recovered_with_the_ratings_held():
    """Games where the first mover plays 150 points above itself: the fit finds about 150, its
    interval holds it, games with an unrated player are left out, and a sweep by the first movers
    stays finite."""
    import random
    from engine.play.bradley_terry import ColouredGame, first_mover_advantage
    rng = random.Random(5)
    truth = {"x": 1600.0, "y": 1450.0}
    games = []
    for _ in range(3000):
        first = rng.random() < 0.5
        s = expected_score(truth["x"] + (150 if first else -150), truth["y"])
        games.append(ColouredGame("x", "y", first, 1.0 if rng.random() < s else 0.0))
    games.append(ColouredGame("x", "nobody", True, 1.0))
    adv, low, high, used = first_mover_advantage(games, truth)
    assert used == 3000 and low < 150 < high and high - low < 40
    sweep = [ColouredGame("x", "y", first, 1.0 if first else 0.0) for first in (True, False) * 10]
    adv, low, high, _ = first_mover_advantage(sweep, {"x": 1500.0, "y": 1500.0})
    assert 300 < adv < 1000 and np.isfinite(high)
    with pytest.raises(ValueError):
        first_mover_advantage(games[-1:], truth)
