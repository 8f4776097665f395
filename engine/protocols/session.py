"""What every engine protocol server shares: the search player, loaded lazily so that the
handshake is answered before torch and the model are, and the named levels.

A protocol module (UCI, UCCI, Gomocup, NBoard) keeps only its own syntax; the search,
the level's budget and the model loading live here.
"""
from __future__ import annotations

import time

from .common import EvaluatorLoader


class SearchSession:
    """The engine side of a protocol: one game, one `MCTSPlayer`, the level's budget.

    ``evaluator`` (tests) is used as given; otherwise the model (``model_path``, else the
    shipped one, else rollout search) is loaded by `EvaluatorLoader` on a thread that
    `start_loading` starts (protocols call it once the handshake is answered).
    """

    def __init__(self, game, model_path=None, level: str | None = None, evaluator=None,
                 seed: int | None = None, threads: int = 1):
        from ..play.players import DEFAULT_LEVEL, LEVEL_SETTINGS, MCTSPlayer, play_search_config
        self.game = game
        self.level_settings = LEVEL_SETTINGS
        self.loader = EvaluatorLoader(game, model_path, evaluator)
        self.player = MCTSPlayer(game, evaluator, seed=seed, config=play_search_config(game), threads=threads)
        self.level = ""
        self.set_level(level or DEFAULT_LEVEL)

    @property
    def model_path(self) -> str:
        return self.loader.model_path

    def set_level(self, name: str) -> None:
        """Use level ``name``'s visits, time cap and temperature (KeyError when unknown)."""
        from ..play.players import level_visits
        lv = self.level_settings[name]
        self.level = name
        self.level_sims, self.level_seconds = level_visits(self.game, name), lv.seconds
        self.player.temperature = lv.temperature

    @property
    def threads(self) -> int:
        """Search threads asked for (a search uses one where the evaluator holds the GIL)."""
        return self.player.mcts._threads

    def set_threads(self, value) -> None:
        """Search on ``value`` threads from the next search on (``value`` as a person typed it:
        ValueError naming it when it is not a whole number from 1 to `MAX_THREADS`)."""
        from ..play.players import parse_threads
        self.player.mcts.threads = parse_threads(value)

    def start_loading(self) -> None:
        """Begin loading the evaluator in the background (once)."""
        self.loader.start()

    def ensure_ready(self, report=None) -> None:
        """Wait for the evaluator; pass a load error (once) to ``report``."""
        if self.player.mcts.evaluator is None:
            self.player.mcts.evaluator = self.loader.get()
        if report is not None:   # kept for the first caller that can say it
            err = self.loader.take_error()
            if err:
                report(err)

    def set_evaluator(self, evaluator) -> None:
        """Replace the evaluator (a model chosen during the session) and forget the tree; a
        background load still running no longer matters (`ensure_ready` keeps this one)."""
        self.player.mcts.evaluator = evaluator
        self.player.reset()

    def search(self, state, sims: int, seconds: float | None, should_stop=None, on_progress=None):
        """Search ``state`` with at most ``sims`` visits and ``seconds`` (None: no time cap)."""
        self.ensure_ready()
        player = self.player
        player.sims, player.seconds = max(int(sims), 1), seconds
        return player.choose(state, on_progress=on_progress, should_stop=should_stop)

    def reset(self) -> None:
        self.player.reset()


def clock_budget(time_left_ms: float, increment_ms: float = 0.0, moves_to_go: int | None = None) -> float:
    """Seconds to spend on this move from a protocol's clock (milliseconds): the app's time plan,
    `engine.play.clock.clock_budget` (an even share of the time left over the moves still to play,
    30 when unknown, plus most of the increment, never more than a third of what is left after a
    half-second reserve), without its allowance for the trips between the app's window and its AI
    process, which an engine answering on its own pipe does not make."""
    from ..play.clock import clock_budget as plan
    return plan(max(float(time_left_ms), 0.0) / 1000.0, max(float(increment_ms), 0.0) / 1000.0,
                max(int(moves_to_go or 30), 1), lag=0.0)


class Stopwatch:
    """Seconds since creation (for the time field of protocol replies)."""

    def __init__(self):
        self.start = time.perf_counter()

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.start


__all__ = ["SearchSession", "clock_budget", "Stopwatch"]
