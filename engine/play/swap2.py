"""How the AI takes part in a swap opening, Swap2 or plain swap (`games.swap2`): which three
stones it proposes, and which colour it takes, judged by its own search.

Everything here works through a *judge*: a function from a position to a `Verdict` (the value
for the side to move, -1..1, its best move and its top moves with their values), so the same
decisions serve the Gomocup brain (a search on the spot), the app (the AI process's searches)
and the tests (a stand-in). This module imports nothing heavy: the app's window uses it.

- Proposing: each of a few openings (`OPENINGS`, three stones near the centre, black-white-black)
  is judged with white to move; the AI places the most balanced one (the value nearest 0), so
  the second player's choice gains it least. Openings within `TIE` of the best are drawn at random.
- Choosing after three stones (second player): white (stay, and play the best fourth stone) when
  the position is worth more than `MARGIN` to white, black (swap) when worth less than -`MARGIN`;
  in between, two more stones: white's best fourth, then the black fifth whose value is nearest
  0, so that the first player's choice gains it little. Under plain swap (no "two"): the colour
  the position favours, white (and its best fourth stone) when worth at least 0 to white.
- Choosing after five stones (first player): the colour the position favours: white (and play
  the best sixth stone) when it is worth at least 0 to white, else black.
"""
from __future__ import annotations

from dataclasses import dataclass, field

#: three-stone openings (black, white, black) as (column, row) offsets from the board's centre:
#: shapes of one to three points' spread, none a strong black start on its face
OPENINGS = (
    ((0, 0), (2, 0), (-2, 3)),
    ((0, 0), (0, -1), (3, 3)),
    ((-1, 0), (1, 0), (0, 3)),
    ((0, 0), (1, 2), (-3, -1)),
    ((-2, -2), (0, 0), (2, 2)),
    ((0, 0), (-1, -1), (4, 1)),
    ((-3, 0), (0, 1), (3, 0)),
    ((0, 0), (3, 0), (0, 3)),
)
#: how far from 0 a value may be and still count as balanced (stay/swap against two more stones)
MARGIN = 0.15
#: openings this close to the most balanced one's |value| are equally good (one is drawn)
TIE = 0.03


@dataclass
class Verdict:
    """A search's word on a position: ``value`` for the side to move, its best ``action`` and
    its ``top`` moves as (action, value for the side to move) pairs, best first."""
    value: float
    action: int | None = None
    top: list[tuple[int, float]] = field(default_factory=list)


def opening_actions(game, offsets) -> list[int]:
    """The actions of an opening's (column, row) offsets from the centre on ``game``'s board."""
    c = game.size // 2
    return [(c + dr) * game.size + (c + dc) for dc, dr in offsets]


def candidate_openings(game) -> list[list[int]]:
    """The openings of `OPENINGS` that fit ``game``'s board and its rule (each stone legal)."""
    out = []
    for offsets in OPENINGS:
        if any(not 0 <= game.size // 2 + d < game.size for point in offsets for d in point):
            continue   # off a small board
        actions = opening_actions(game, offsets)
        state = game.initial_state()
        try:
            for a in actions:
                state = state.play(a)
        except ValueError:
            continue
        out.append(actions)
    return out


def propose_opening(game, judge, rng) -> tuple[list[int], list[float]]:
    """(the three stones to place, each candidate's value for white) — the most balanced
    candidate, ties (within `TIE`) drawn with ``rng``."""
    candidates = candidate_openings(game)
    if not candidates:
        raise ValueError(f"no Swap2 opening fits a {game.size}x{game.size} board")
    values = []
    for actions in candidates:
        state = game.initial_state()
        for a in actions:
            state = state.apply(a)
        values.append(float(judge(state).value))
    best = min(abs(v) for v in values)
    near = [i for i, v in enumerate(values) if abs(v) <= best + TIE]
    return candidates[near[rng.randrange(len(near))]], values


def choose_after_three(state, judge, rule: str = "swap2") -> tuple[str, list[int]]:
    """The second player's choice on the three opening stones (white to move): ``("white", [4th])``,
    ``("black", [])`` or, under ``rule`` "swap2" only, ``("two", [4th, 5th])``."""
    verdict = judge(state)
    if rule == "swap1":   # no two more stones: the colour the position favours
        return choose_colour(verdict)
    if verdict.value > MARGIN and verdict.action is not None:
        return "white", [verdict.action]
    if verdict.value < -MARGIN or verdict.action is None:
        return "black", []
    fourth = verdict.action
    placed = state.apply(fourth)
    after = judge(placed)
    legal = set(placed.legal_actions())
    moves = [(a, q) for a, q in after.top if a in legal]
    if not moves:
        if after.action is None:
            return "white", [fourth]
        moves = [(after.action, after.value)]
    fifth = min(moves, key=lambda m: abs(m[1]))[0]
    return "two", [fourth, fifth]


def choose_after_five(state, judge) -> tuple[str, list[int]]:
    """The first player's choice on the five opening stones (white to move): ``("white", [6th])``
    or ``("black", [])``."""
    return choose_colour(judge(state))


def choose_colour(verdict: Verdict) -> tuple[str, list[int]]:
    """White (and its best move) when ``verdict`` (white to move) is worth at least 0 to white,
    else black."""
    if verdict.value >= 0 and verdict.action is not None:
        return "white", [verdict.action]
    return "black", []


def verdict_of(result) -> Verdict:
    """A `Verdict` from an `engine.core.mcts.SearchResult` (its visited moves only)."""
    top = [(int(m.action), float(m.q)) for m in result.top if m.visits > 0]
    value = result.proven if result.proven is not None else result.value
    return Verdict(float(value), int(result.action), top)
