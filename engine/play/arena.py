"""Matches between two players, alternating who starts, with an Elo estimate."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass


@dataclass
class MatchResult:
    wins: int = 0     # for player A
    draws: int = 0
    losses: int = 0
    games: int = 0

    @property
    def score(self) -> float:
        return (self.wins + 0.5 * self.draws) / self.games if self.games else 0.5

    def elo(self) -> tuple[float, float, float]:
        """(Elo difference A-B, low, high) with a 95% Wilson-type interval on the score that uses the
        per-game score variance; unlike a plain normal interval it never collapses to a point when
        every game ended the same way (10-0, or all draws)."""
        n = self.games
        if n == 0:
            return 0.0, -math.inf, math.inf
        s = self.score
        var = (self.wins * (1 - s) ** 2 + self.draws * (0.5 - s) ** 2 + self.losses * s ** 2) / n
        z2 = 1.96 ** 2
        centre = (s + z2 / (2 * n)) / (1 + z2 / n)
        half = math.sqrt(z2 * var / n + z2 * z2 / (4 * n * n)) / (1 + z2 / n)
        return score_to_elo(s, n), score_to_elo(centre - half, n), score_to_elo(centre + half, n)

    def add(self, other: "MatchResult") -> None:
        """Count ``other``'s games in this result (a match played in parts)."""
        self.wins += other.wins
        self.draws += other.draws
        self.losses += other.losses
        self.games += other.games

    def to_dict(self) -> dict:
        d = asdict(self)
        e, lo, hi = self.elo()
        d.update(score=round(self.score, 4), elo=round(e, 1), elo_low=round(lo, 1), elo_high=round(hi, 1))
        return d


def score_to_elo(score: float, games: int) -> float:
    """Elo difference for a score, clipped half a game from 0 and 1 so it stays finite."""
    eps = 0.5 / max(games, 1)
    s = min(max(score, eps), 1 - eps)
    return -400.0 * math.log10(1.0 / s - 1.0) + 0.0  # + 0.0: no "-0.0" in reports


class LostByRule(Exception):
    """A player's move that the rules forbid and that loses the game for it, as the game's rules
    say (renju: black's forbidden point, played by an outside engine): raised by the player's
    ``choose``; `play_game` ends the game there, lost by the mover."""

    def __init__(self, message: str, reason: str):
        super().__init__(message)
        self.reason = reason


class Forfeit:
    """The end of a game lost by `LostByRule`: the position before the move, over, lost by
    the player to move, with the move's reason as its end reason (the records' ``end``)."""

    def __init__(self, state, reason: str):
        self.state = state
        self.reason = reason

    def is_terminal(self) -> bool:
        return True

    def winner(self) -> int:
        return 1 - self.state.current_player

    def end_reason(self) -> str:
        return self.reason

    def __getattr__(self, name):
        return getattr(self.state, name)


def play_game(game, first, second, start=None, max_plies: int | None = None):
    """Play one game; returns (final state, list of actions). Players get ``reset()`` first. A
    player whose move loses by rule (`LostByRule`) ends the game: the final state is then a
    `Forfeit` of the position before that move, which is not among the actions."""
    state = start or game.initial_state()
    players = (first, second)
    for p in players:
        p.reset()
    limit = max_plies or game.max_game_length or 10_000
    actions = []
    while not state.is_terminal() and len(actions) < limit:
        try:
            action = players[state.current_player].choose(state).action
        except LostByRule as e:
            return Forfeit(state, e.reason), actions
        state = state.play(action)
        actions.append(action)
    return state, actions


def random_openings(game, count: int, plies: int, seed: int) -> list:
    """``count`` start positions, each ``plies`` uniformly random legal moves from the start
    (seeded; a line that ends the game is drawn again). For balanced matches: each is played
    twice, the players swapping colours, so the openings' luck cancels and a deterministic
    opponent still meets varied positions."""
    import random
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        for _attempt in range(1000):
            state = game.initial_state()
            for _ in range(plies):
                state = state.play(rng.choice(state.legal_actions()))
                if state.is_terminal():
                    break
            if not state.is_terminal():
                break
        else:
            raise ValueError(f"no {plies}-ply opening of {game.key} leaves the game open")
        out.append(state)
    return out


def play_match(game, player_a, player_b, games: int, on_game=None, openings: list | None = None,
               on_record=None) -> MatchResult:
    """A is the first player in even-numbered games, B in odd ones. With ``openings``, games
    2k and 2k+1 both start from ``openings[k]`` (the players swap colours between them).
    ``on_record(i, a_first, start, final, actions, outcome)`` sees each finished game's moves
    and its ``outcome`` for A ("win", "draw" or "loss")."""
    result = MatchResult()
    for i in range(games):
        a_first = i % 2 == 0
        start = openings[i // 2] if openings else None  # A is player 0 (who moves first) in even games
        final, actions = (play_game(game, player_a, player_b, start) if a_first
                          else play_game(game, player_b, player_a, start))
        w = final.winner() if final.is_terminal() else None
        outcome = "draw" if w is None else "win" if w == (0 if a_first else 1) else "loss"
        if on_record is not None:
            on_record(i, a_first, start or game.initial_state(), final, actions, outcome)
        if outcome == "draw":
            result.draws += 1
        elif outcome == "win":
            result.wins += 1
        else:
            result.losses += 1
        result.games += 1
        if on_game is not None:
            on_game(i, result)
    return result


def game_record(start, final, actions, outcome: str) -> dict:
    """One finished game as `play_match`'s ``on_record`` sees it, as the JSON object a match's game
    records hold (``arena --games-out``): the start position's text, the moves' notation, A's
    result and, where the game says, how it ended. `record_positions` reads it back."""
    state, moves = start, []
    for a in actions:
        moves.append(state.action_to_text(a))
        state = state.play(a)
    line = {"start": start.to_text(), "moves": moves, "result": outcome}
    reason = getattr(final, "end_reason", None)
    end = reason() if callable(reason) else None
    if end:
        line["end"] = end
    return line


def record_positions(game, record: dict) -> tuple[list, list[int]]:
    """(positions, actions) of a `game_record`: the start and the position after each move, and
    the moves' actions (one fewer). ValueError (a NotationError too), KeyError or TypeError for a
    record this version of ``game`` cannot read."""
    state = game.state_from_text(record["start"])
    states, actions = [state], []
    for text in record["moves"]:
        action = state.parse_action(text)
        state = state.play(action)
        states.append(state)
        actions.append(action)
    return states, actions
