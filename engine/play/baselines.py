"""Baseline opponents that need no network: a one-ply greedy player and a perfect solver player.

Variety: two deterministic players would replay the same two games, so MCTS-based
players sample their first ``opening_plies`` moves in proportion to the visit counts
(temperature 1) and play the most visited move afterwards. Random, greedy and solver
players break ties at random.
"""
from __future__ import annotations

import math
import random

from ..core.mcts import MoveStat, SearchResult

#: plies sampled at temperature 1 by MCTS players in arenas and baseline matches
OPENING_PLIES = 4
OPENING_TEMPERATURE = 1.0
#: the exhaustive solver is only offered for games this short
SOLVER_MAX_PLIES = 16

def has_heuristic(game) -> bool:
    """True when the game's states offer the optional ``heuristic(player) -> float`` hook."""
    return callable(getattr(game.initial_state(), "heuristic", None))


class NoHeuristicError(ValueError):
    """The game offers no position heuristic, so a greedy player cannot be built."""


class GreedyPlayer:
    """One ply deep: plays a winning move when there is one, never a move that loses at once,
    and otherwise the move after which ``state.heuristic(me)`` is highest (ties at random).

    Needs the game's optional State hook ``heuristic(player) -> float`` (higher is better for
    ``player``; e.g. othello's disc difference, xiangqi's material balance).
    """

    def __init__(self, game, seed: int | None = None):
        if not has_heuristic(game):
            raise NoHeuristicError(f"greedy: {game.name or game.id} has no position heuristic "
                            "(the optional State.heuristic(player) hook), so there is nothing to be greedy about")
        self.game = game
        self.rng = random.Random(seed)
        self.name = "greedy"

    def reset(self) -> None:
        pass

    def score(self, state, action: int) -> float:
        """How good ``action`` looks for the player to move in ``state``."""
        me = state.current_player
        child = state.apply(action)
        if child.is_terminal():
            w = child.winner()
            return 0.0 if w is None else (math.inf if w == me else -math.inf)
        return float(child.heuristic(me))

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        legal = state.legal_actions()
        scores = [self.score(state, a) for a in legal]
        best = max(scores)
        action = self.rng.choice([a for a, s in zip(legal, scores) if s == best])
        top = sorted((MoveStat(a, 0, s, 0.0) for a, s in zip(legal, scores)), key=lambda m: -m.q)[:10]
        value = 1.0 if best == math.inf else (-1.0 if best == -math.inf else 0.0)
        return SearchResult(action, value, top, 0, 0.0)


class SolverPlayer:
    """Perfect play: a uniformly random choice among the minimax-optimal moves."""

    def __init__(self, game, seed: int | None = None, solver=None):
        from .solver import Solver
        self.game = game
        self.solver = solver or Solver()
        self.rng = random.Random(seed)
        self.name = "solver"

    def reset(self) -> None:
        pass

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        values = self.solver.action_values(state)
        best = max(values.values())
        action = self.rng.choice(sorted(a for a, v in values.items() if v == best))
        top = [MoveStat(a, 0, float(v), 0.0) for a, v in sorted(values.items(), key=lambda kv: -kv[1])]
        return SearchResult(action, float(best), top, 0, 0.0)


__all__ = ["GreedyPlayer", "NoHeuristicError", "SolverPlayer", "has_heuristic", "OPENING_PLIES", "OPENING_TEMPERATURE"]
