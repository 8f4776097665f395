"""Exact minimax for small games (tictactoe, connect2): the reference the AI is checked against."""
from __future__ import annotations

import sys


class Solver:
    """Negamax with a transposition table over the State API. Values: +1 win, 0 draw, -1 loss
    for the player to move. Only for games small enough to solve completely."""

    def __init__(self):
        self.table: dict = {}

    def value(self, state) -> int:
        k = state.key()
        v = self.table.get(k)
        if v is not None:
            return v
        if state.is_terminal():
            v = int(state.terminal_value())
        else:
            me = state.current_player
            best = -2
            for a in state.legal_actions():
                child = state.apply(a)
                cv = self.value(child)
                cv = cv if child.current_player == me else -cv
                if cv > best:
                    best = cv
                    if best == 1:
                        break
            v = best
        self.table[k] = v
        return v

    def action_values(self, state) -> dict[int, int]:
        """Each legal action's value for the player to move."""
        me = state.current_player
        out = {}
        for a in state.legal_actions():
            child = state.apply(a)
            cv = self.value(child)
            out[a] = cv if child.current_player == me else -cv
        return out

    def optimal_actions(self, state) -> set[int]:
        vals = self.action_values(state)
        best = max(vals.values())
        return {a for a, v in vals.items() if v == best}


def reachable_states(game):
    """Every reachable non-terminal position (by key), for exhaustive strength checks."""
    sys.setrecursionlimit(10000)
    seen = {}
    stack = [game.initial_state()]
    while stack:
        s = stack.pop()
        k = s.key()
        if k in seen or s.is_terminal():
            continue
        seen[k] = s
        stack.extend(s.apply(a) for a in s.legal_actions())
    return list(seen.values())
