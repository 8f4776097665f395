"""A person's rating on a game's scale, from their games against rated AI levels: Glicko
(Glickman, "Parameter estimation in large dynamic paired comparison experiments", 1999), one
game at a time.

A rating is an estimate and its uncertainty (RD, the standard deviation of the estimate,
in rating points): a new player starts in the middle of the game's ladder with RD 350 and
moves fast; each game narrows the RD, and the opponent's own uncertainty (a level's measured
interval) weighs its result down (`g`). Time away widens the RD again (`RD_PER_DAY`). Why Glicko
and not plain Elo: Elo has no uncertainty to show ("± 120") and a fixed step that is either
too slow for a newcomer or too jumpy later; Glicko-2's extra volatility needs far more games
than a person plays against one app. Levels' ratings come from `models/<game>.json`
``"levels"`` (see docs/levels.md); this module only does the arithmetic.

Pure Python: the window's process uses it.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Rating", "START_RD", "MIN_RD", "RD_PER_DAY", "expected_score", "update", "inflate",
           "rd_of_interval", "nearest_level", "start_rating"]

Q = math.log(10) / 400
START_RD = 350.0
#: the RD never narrows below this: a person's strength changes as they learn
MIN_RD = 40.0
#: how much a day without rated games widens the RD (Glicko's c: from 50 back to 350 in about a year)
RD_PER_DAY = math.sqrt((350.0 ** 2 - 50.0 ** 2) / 365)


@dataclass(frozen=True)
class Rating:
    rating: float
    rd: float = START_RD
    games: int = 0

    @property
    def interval(self) -> float:
        """Half the width of the 95% interval (1.96 RD): the "± 120" shown."""
        return 1.96 * self.rd


def g(rd: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * (Q * rd) ** 2 / math.pi ** 2)


def expected_score(rating: float, opponent: float, opponent_rd: float = 0.0) -> float:
    """The expected score (a win 1, a draw 0.5) against ``opponent``: Elo's logistic, flattened
    by the opponent's uncertainty."""
    return 1.0 / (1.0 + 10 ** (-g(opponent_rd) * (rating - opponent) / 400.0))


def update(player: Rating, opponent: float, opponent_rd: float, score: float, advantage: float = 0.0) -> Rating:
    """``player`` after one game against an opponent rated ``opponent`` ± ``opponent_rd`` (RD)
    that ended with ``score`` (1 a win, 0.5 a draw, 0 a loss). ``advantage``: rating points the
    player's side of the board was worth in this game (the game's first mover's advantage, + when
    the player moved first, − when second), so that a result the side explains moves the rating less."""
    score = min(1.0, max(0.0, float(score)))
    gj = g(opponent_rd)
    e = expected_score(player.rating + advantage, opponent, opponent_rd)
    d2 = 1.0 / (Q ** 2 * gj ** 2 * max(e * (1 - e), 1e-9))
    denom = 1.0 / player.rd ** 2 + 1.0 / d2
    rating = player.rating + Q / denom * gj * (score - e)
    rd = max(MIN_RD, math.sqrt(1.0 / denom))
    return Rating(rating, rd, player.games + 1)


def inflate(player: Rating, days: float) -> Rating:
    """``player`` after ``days`` without rated games: a wider RD (at most `START_RD`)."""
    if days <= 0:
        return player
    return Rating(player.rating, min(START_RD, math.sqrt(player.rd ** 2 + RD_PER_DAY ** 2 * days)), player.games)


def rd_of_interval(low: float, high: float) -> float:
    """A level's RD from its measured 95% interval."""
    return max(0.0, (high - low) / (2 * 1.96))


def start_rating(level_ratings: dict[str, float]) -> Rating:
    """A newcomer: the middle of the game's ladder (the median level), RD `START_RD`."""
    values = sorted(level_ratings.values())
    if not values:
        return Rating(1500.0)
    mid = len(values) // 2
    median = values[mid] if len(values) % 2 else (values[mid - 1] + values[mid]) / 2
    return Rating(median)


def nearest_level(rating: float, level_ratings: dict[str, float]) -> str | None:
    """The level whose rating is nearest ``rating`` (the weaker one on a tie), or None."""
    if not level_ratings:
        return None
    return min(level_ratings, key=lambda name: (abs(level_ratings[name] - rating), level_ratings[name]))
