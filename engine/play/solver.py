"""Exact minimax for small games (tictactoe, connect2): the reference the AI is checked against;
and the study panel's exact readouts (`exact_readout`): how many moves a solved win or loss is
away, and othello's final disc margin in its last empty squares."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field


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


#: games small enough for `DistanceSolver` to solve from any position (ids)
FULLY_SOLVED = ("tictactoe", "connect2")
#: positions one readout may visit (connect4's distance, othello's margins): about 1.7 s of plain Python for
#: othello, less for connect4 (docs/studying-games.md)
READOUT_BUDGET = 200_000


class DistanceSolver:
    """Negamax with a transposition table that also counts the plies to the end: the winner
    plays for the fastest win, the loser for the slowest loss. `outcome` gives (1, plies),
    (-1, plies) or (0, 0) for the player to move. Only for games small enough to solve completely."""

    #: a score above any distance: a win ``plies`` away scores ``WIN - plies``
    WIN = 10_000

    def __init__(self):
        self.table: dict = {}

    def score(self, state) -> int:
        k = state.key()
        v = self.table.get(k)
        if v is not None:
            return v
        if state.is_terminal():
            v = int(state.terminal_value()) * self.WIN     # the game is over: zero plies away
        else:
            me = state.current_player
            v = -self.WIN - 1
            for a in state.legal_actions():
                child = state.apply(a)
                s = self.score(child)
                s = s if child.current_player == me else -s
                v = max(v, s - 1 if s > 0 else s + 1 if s < 0 else 0)   # one ply further away
        self.table[k] = v
        return v

    def outcome(self, state) -> tuple[int, int]:
        s = self.score(state)
        if s == 0:
            return 0, 0
        return (1, self.WIN - s) if s > 0 else (-1, self.WIN + s)


_DISTANCE_SOLVERS: dict[str, DistanceSolver] = {}


@dataclass
class Readout:
    """What the solvers know exactly of a position, for the player to move: ``result`` 1 / 0 / -1
    and ``plies`` to the end of a win or loss (both sides' moves), or othello's final disc
    ``margin``; ``moves``: each legal move's margin for the player to move (othello)."""
    result: int | None = None
    plies: int | None = None
    margin: int | None = None
    moves: dict[int, int] = field(default_factory=dict)
    #: each legal move's exact result for the player to move, 1 / 0 / -1 (Connect Four's opening book)
    results: dict[int, int] = field(default_factory=dict)

    def winner_moves(self) -> int | None:
        """How many moves the winner still plays, its winning move included (None: no win or loss)."""
        if not self.result or self.plies is None:
            return None
        return (self.plies + 1) // 2


def readout_covers(state) -> bool:
    """Whether `exact_readout` may know anything of ``state``'s game (a cheap test, no solve)."""
    return state.game.id in FULLY_SOLVED or hasattr(state, "proven_distance") or hasattr(state, "exact_move_margins")


def exact_readout(state, budget: int = READOUT_BUDGET) -> Readout | None:
    """The exact readout of a position where a solver covers it: tic-tac-toe and connect2
    anywhere, Connect Four within its solver's empty cells (`proven_distance`) and, without
    the distance, in the first plies its opening book holds (`exact_result` with no solve), othello
    within `MARGIN_EMPTIES` (`exact_move_margins`: each legal move's, the best of them the
    position's); None elsewhere, for a finished game, or when a solve passes ``budget`` positions."""
    if state.is_terminal():
        return None
    game = state.game
    if game.id in FULLY_SOLVED:
        solver = _DISTANCE_SOLVERS.setdefault(game.key, DistanceSolver())
        result, plies = solver.outcome(state)
        return Readout(result, plies if result else None)
    distance = getattr(state, "proven_distance", None)
    if distance is not None:
        found = distance(budget)
        if found is not None:
            return Readout(found[0], found[1] if found[0] else None)
        book = getattr(state, "exact_result", None)   # Connect Four's opening book: the result alone
        result = book(0)[0] if book is not None else None
        if result is None:
            return None
        results = {a: state.exact_move_result(a, 0)[0] for a in state.legal_actions()}
        return Readout(result, results={} if None in results.values() else results)
    margins = getattr(state, "exact_move_margins", None)
    if margins is not None:
        moves = margins(budget)
        return None if not moves else Readout(margin=max(moves.values()), moves=moves)
    return None

