"""Ratings from match results: a Bradley–Terry (Elo) fit with fixed anchors and 95% intervals.

Each *player* is a name; each *pairing* is a (a, b, wins, draws, losses) count for a against b.
Draws count half a win to each side. Ratings are on the Elo scale (a 400-point gap means 10:1
odds). Anchors are players whose rating is fixed (a reference engine setting whose number the
scale is named after); every other player's rating is the maximum-likelihood estimate given
the anchors, and its interval comes from the curvature of the log-likelihood (the observed
Fisher information with the anchors held fixed).

A player that won or lost every game it played has no finite maximum-likelihood rating; a weak
prior (a pseudo-game: half a win and half a loss against every opponent it met, the usual
"add one draw" remedy) keeps every estimate finite without moving well-measured ones much.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

ELO = 400.0 / math.log(10.0)  # Elo points per natural-log unit of the odds


@dataclass(frozen=True)
class Pairing:
    a: str
    b: str
    wins: int
    draws: int
    losses: int

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


@dataclass(frozen=True)
class Rating:
    rating: float
    low: float
    high: float
    games: int


def fit(pairings: list[Pairing], anchors: dict[str, float], prior_games: float = 1.0,
        iterations: int = 100) -> dict[str, Rating]:
    """Ratings of every player in ``pairings`` (anchors included, with a zero-width interval).

    Raises ValueError when a player is not connected to any anchor by games (its rating would be
    arbitrary), when no anchor plays, or on negative counts."""
    if not anchors:
        raise ValueError("at least one anchor is needed to fix the scale")
    players: list[str] = []
    for p in pairings:
        if min(p.wins, p.draws, p.losses) < 0:
            raise ValueError(f"negative game count in {p}")
        for name in (p.a, p.b):
            if name not in players:
                players.append(name)
    _check_connected(players, pairings, anchors)
    free = [n for n in players if n not in anchors]
    index = {n: i for i, n in enumerate(free)}
    games = {n: 0 for n in players}
    # (i, j, score of i, games): scores with the prior's half-game draws folded in
    rows = []
    for p in pairings:
        if p.games == 0:
            continue
        games[p.a] += p.games
        games[p.b] += p.games
        rows.append((p.a, p.b, p.wins + 0.5 * p.draws + 0.5 * prior_games, p.games + prior_games))

    r = np.zeros(len(free))

    def value(name: str, r: np.ndarray) -> float:
        return anchors[name] / ELO if name in anchors else r[index[name]]

    if free:
        start = np.mean(list(anchors.values())) / ELO
        r[:] = start
        for _ in range(iterations):
            grad = np.zeros(len(free))
            hess = np.zeros((len(free), len(free)))
            for a, b, s, n in rows:
                d = value(a, r) - value(b, r)
                e = 1.0 / (1.0 + math.exp(-d))
                g = s - n * e  # d logL / d(ra)
                w = n * e * (1.0 - e)
                if a in index:
                    grad[index[a]] += g
                    hess[index[a], index[a]] -= w
                if b in index:
                    grad[index[b]] -= g
                    hess[index[b], index[b]] -= w
                if a in index and b in index:
                    hess[index[a], index[b]] += w
                    hess[index[b], index[a]] += w
            step = np.linalg.solve(hess, -grad)
            step = np.clip(step, -2.0, 2.0)  # at most ~870 Elo a step: damped far from the optimum
            r += step
            if np.max(np.abs(step)) < 1e-9:
                break
        cov = np.linalg.inv(-hess)
    out: dict[str, Rating] = {}
    for name in players:
        if name in anchors:
            v = anchors[name]
            out[name] = Rating(v, v, v, games[name])
        else:
            i = index[name]
            se = math.sqrt(max(cov[i, i], 0.0)) * ELO
            v = r[i] * ELO
            out[name] = Rating(v, v - 1.96 * se, v + 1.96 * se, games[name])
    return out


def _check_connected(players: list[str], pairings: list[Pairing], anchors: dict[str, float]) -> None:
    if not any(a in players for a in anchors):
        raise ValueError("no anchor has played a game")
    links: dict[str, set[str]] = {n: set() for n in players}
    for p in pairings:
        if p.games:
            links[p.a].add(p.b)
            links[p.b].add(p.a)
    seen = {a for a in anchors if a in links}
    todo = list(seen)
    while todo:
        for m in links[todo.pop()]:
            if m not in seen:
                seen.add(m)
                todo.append(m)
    lost = [n for n in players if n not in seen]
    if lost:
        raise ValueError(f"no games connect {', '.join(lost)} to an anchor")


@dataclass(frozen=True)
class ColouredGame:
    """One game's result for ``a`` against ``b`` (1 a win, 0.5 a draw, 0 a loss), ``first``: a moved
    first (after the opening, if there was one)."""
    a: str
    b: str
    first: bool
    score: float


def first_mover_advantage(games: list[ColouredGame], ratings: dict[str, float],
                          iterations: int = 50) -> tuple[float, float, float, int]:
    """The first mover's advantage in Elo points, with every player's rating held at ``ratings``
    (a colour-blind fit's, so that the advantage goes with those numbers): the maximum-likelihood
    A for which a game's first mover scores as if it were A points stronger, with its 95% interval
    from the curvature. Returns (A, low, high, games used); games with a player ``ratings`` lacks
    are left out. A weak prior (one game a colour scored as a draw at A = 0) keeps A finite when
    every first mover won. Raises ValueError without a game to use."""
    used = [(ratings[g.a] - ratings[g.b], 1.0 if g.first else -1.0, min(1.0, max(0.0, float(g.score))))
            for g in games if g.a in ratings and g.b in ratings]
    if not used:
        raise ValueError("no game between rated players")
    prior = [(0.0, 1.0, 0.5), (0.0, -1.0, 0.5)]   # a draw each way between equals
    x, info = 0.0, 0.0   # A in natural-log units of the odds, and the curvature at it
    for _ in range(iterations):
        grad, info = 0.0, 0.0
        for gap, colour, score in used + prior:
            p = 1.0 / (1.0 + math.exp(-(gap / ELO + colour * x)))
            grad += colour * (score - p)
            info += p * (1.0 - p)
        step = max(-2.0, min(2.0, grad / info))
        x += step
        if abs(step) < 1e-12:
            break
    half = 1.96 / math.sqrt(info)
    return x * ELO, (x - half) * ELO, (x + half) * ELO, len(used)


__all__ = ["ELO", "ColouredGame", "Pairing", "Rating", "first_mover_advantage", "fit"]
