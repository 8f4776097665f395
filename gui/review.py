"""What the review shows about a game: each position's evaluation, the win-rate each move
gave away against the AI's best (KaTrain's idea of move quality), and a short summary.

Pure functions over plain data, so they are tested without a window or an AI process.
Values are player 0's expected result in -1..1; win rates are a side's share in 0..1.
"""
from __future__ import annotations

from dataclasses import dataclass

#: win rate given away (0..1) from which a move is an inaccuracy, a mistake, a blunder
THRESHOLDS = (("blunder", 0.20), ("mistake", 0.10), ("inaccuracy", 0.05))
QUALITIES = ("good", "inaccuracy", "mistake", "blunder")


@dataclass
class Evaluation:
    """A search's verdict on one position."""
    value0: float  # player 0's expected result, -1..1
    proven0: float | None = None  # +1, 0, -1 when the search proved the result
    best: int | None = None  # the search's most visited move
    sims: int = 0
    source: str = "ai"  # ai (the AI's own move search) | hint | analysis | rules (a finished game)

    def winrate(self, player: int) -> float:
        """``player``'s expected share, 0..1."""
        v = self.proven0 if self.proven0 is not None else self.value0
        return (1 + (v if player == 0 else -v)) / 2


def final_evaluation(state) -> Evaluation | None:
    """The exact result of a finished position (the rules' verdict), else None."""
    if not state.is_terminal():
        return None
    w = state.winner()
    v = 0.0 if w is None else (1.0 if w == 0 else -1.0)
    return Evaluation(v, v, None, 0, "rules")


def move_loss(before: Evaluation | None, after: Evaluation | None, mover: int, action) -> float | None:
    """The win rate (0..1) the move ``action`` by ``mover`` gave away: the mover's expected
    share before it (with the search's best move) less the share after it, judged from the
    best information there is. A proven result outranks a network estimate, and a loss is
    only claimed from evidence at least as good as the result it is set against:

    - both positions proven: the exact difference (a won position drawn loses half);
    - only the position after proven: a move into a proven win or draw gives nothing away
      (the estimate before is no proof that more was there), one into a proven loss gives
      away all the estimate before promised;
    - only the position before proven: the estimate after, which can be no better than the
      proof before, against that proof.

    The search's own best move gives nothing away; None when either position is not
    evaluated yet."""
    if before is None or after is None:
        return None
    if before.best is not None and action == before.best:
        return 0.0
    was, now = before.winrate(mover), after.winrate(mover)
    if after.proven0 is not None and before.proven0 is None:
        return 0.0 if now >= 0.5 else max(0.0, was - now)
    if before.proven0 is not None and after.proven0 is None:
        now = min(now, was)
    return max(0.0, was - now)


def quality(loss: float | None) -> str | None:
    """good | inaccuracy | mistake | blunder for a move's loss; None when it is not known."""
    if loss is None:
        return None
    for name, threshold in THRESHOLDS:
        if loss >= threshold - 1e-9:
            return name
    return "good"


def move_qualities(states, evals) -> list[dict]:
    """For each move i (1..n) of the game ``states`` (positions 0..n) with their
    evaluations: {"index", "player", "loss", "quality"}."""
    out = []
    for i in range(1, len(states)):
        before_state = states[i - 1]
        mover = before_state.current_player
        action = states[i].moves[-1] if states[i].moves else None
        loss = move_loss(evals[i - 1], evals[i], mover, action)
        out.append({"index": i, "player": mover, "loss": loss, "quality": quality(loss)})
    return out


def summary_counts(qualities, player: int | None = None) -> dict[str, int]:
    """How many inaccuracies, mistakes and blunders (of ``player``'s moves, or everyone's)."""
    counts = {"inaccuracy": 0, "mistake": 0, "blunder": 0}
    for q in qualities:
        if (player is None or q["player"] == player) and q["quality"] in counts:
            counts[q["quality"]] += 1
    return counts


def better_move(states, evals, index: int) -> dict | None:
    """What the review teaches about move ``index`` (1..n) when it gave something away: the
    move played and the better one the search found in the position before it, with the win
    rate each keeps for the mover and the difference:
    {"player", "played", "best", "played_win", "best_win", "loss", "quality"}; None when the
    move is good, not judged yet, or the search's better move is not known."""
    if not 0 < index < len(states) or index >= len(evals):
        return None
    before, after = evals[index - 1], evals[index]
    mover = states[index - 1].current_player
    played = states[index].moves[-1] if states[index].moves else None
    loss = move_loss(before, after, mover, played)
    q = quality(loss)
    if q in (None, "good") or before.best is None or before.best == played:
        return None
    return {"player": mover, "played": played, "best": before.best, "played_win": after.winrate(mover),
            "best_win": before.winrate(mover), "loss": loss, "quality": q}
