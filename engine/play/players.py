"""Players: MCTS with a network (at a visit or time budget), network-only, rollout MCTS, random;
and the named AI levels people choose in the app.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..core.mcts import MCTS, MoveStat, SearchConfig, SearchResult, Tree, reuse_tree, select_action
from ..core.parallel import MAX_THREADS

__all__ = ["LEVELS", "ANALYSIS", "DEFAULT_LEVEL", "MAX_THREADS", "Level", "level_visits", "level_solve", "strong_visits",
           "make_player",
           "parse_threads", "load_evaluator",
           "play_leaf_batch", "play_search_config", "play_symmetries", "with_symmetries",
           "MCTSPlayer", "PolicyPlayer", "RandomPlayer", "SearchResult", "MoveStat"]


@dataclass(frozen=True)
class Level:
    name: str
    sims: int
    seconds: float       # time cap per move
    temperature: float   # 0: always the most visited move
    #: with a temperature, moves are sampled only among those the search rates within this much
    #: (value, -1..1) of its best: a weak level errs by seeing less, not by throwing away a move it
    #: knows is better (None: any visited move)
    tolerance: float | None = None
    #: a level that glances: it looks at only this many of the moves, drawn at random, and plays
    #: the one whose position it likes best, after taking any win at once and setting aside moves
    #: that lose at once or leave material to be taken (`glance_choice`); None: it searches
    glance: int | None = None
    #: how much the glancing level's draw of moves follows the network's priors (0: all alike)
    glance_prior: float = 0.0


#: from a beginner that makes human-like mistakes (it glances at one move that throws nothing
#: away at once; easy at three, the network's favourites likelier) to the maximum; the visits of
#: the glancing levels are what an engine protocol's search at that level uses; "strong" is the default and answers within about a second: its
#: visits are the game's measured `strong_visits` where models/<game>.json records them (800
#: is the fallback, and what the strength reports were measured at)
_LEVELS = (
    Level("beginner", 12, 0.5, 0.0, None, glance=1, glance_prior=0.0),
    Level("easy", 40, 0.5, 0.0, None, glance=3, glance_prior=0.5),
    Level("medium", 120, 1.0, 0.0),
    Level("hard", 300, 1.0, 0.0),
    Level("strong", 800, 1.0, 0.0),
    Level("max", 6000, 5.0, 0.0),
)
LEVELS = tuple(l.name for l in _LEVELS)
LEVEL_SETTINGS = {l.name: l for l in _LEVELS}
#: the judge of the app's study features, not a level to play: the background analysis that
#: marks every move, a hint asked below the strong level, "Analyse game"'s quick pass. Its budget
#: is the same in every game and apart from the play levels' visits, which are tuned per game for
#: their ratings (gomoku's medium level searches a single visit); 400 visits within a second is
#: also the judge of the levels' large-error rates (benchmarks/level_errors.py, docs/levels.md)
ANALYSIS = Level("analysis", 400, 1.0, 0.0)
DEFAULT_LEVEL = "strong"
#: the most visits a models/<game>.json may give the strong level (the max level's default budget)
MAX_STRONG_VISITS = LEVEL_SETTINGS["max"].sims
#: the most visits a models/<game>.json ``level_visits`` entry may give any level (a fast game's
#: max level reaches far more than 6,000 within its 5 s; the time cap still applies)
MAX_LEVEL_VISITS = 100_000

#: the most positions a models/<game>.json ``level_solve`` entry may give a level's exact solves
MAX_SOLVE_BUDGET = 200_000_000

#: each game's budgets by level, read once from its models/<game>.json: every level's visits
#: (`level_visits`) and the exact-solve budgets of the levels that solve (`level_solve`)
_budgets: dict[str, tuple[dict[str, int], dict[str, int]]] = {}


def _model_report(game) -> dict:
    """The shipped models/<game>.json (of the game's network for a rule variant) as a dict;
    empty where it is missing or unreadable."""
    from ..core.safefile import model_report
    return model_report(game.key, getattr(game, "network_key", game.key))


def _visits_value(value, most: int = MAX_STRONG_VISITS) -> int | None:
    return value if type(value) is int and 1 <= value <= most else None


def strong_visits(game) -> int:
    """The strong level's visits for ``game``: ``strong_visits`` of the shipped models/<game>.json
    (of the game's network for a rule variant), how many visits its search reaches in about a
    second on an idle 2-core machine; the level's 800 where the file, the entry or its value is
    missing or not a whole number from 1 to `MAX_STRONG_VISITS` (or to the game's own max level's
    visits, where its ``level_visits`` raises them)."""
    return level_visits(game, "strong")


def level_visits(game, level: str) -> int:
    """The visit budget of ``level`` (a name of `LEVELS`) for ``game``: the strong level's
    `strong_visits`; another level's entry in the shipped models/<game>.json ``level_visits``
    (a game whose levels would otherwise lie too close together on its rating scale, chosen by
    rating matches; a fast game's max level, what its 5 s reach: docs/levels.md), else the
    level's own. An entry that is not a whole number from 1 to `MAX_LEVEL_VISITS` is ignored (as
    is a ``level_visits`` entry for the strong level), and so is a ``strong_visits`` above the
    game's max level's visits. Read once per game. `ANALYSIS`'s budget is its own in every game."""
    if level == ANALYSIS.name:
        return ANALYSIS.sims
    return _level_budgets(game)[0][level]


def level_solve(game, level: str) -> int | None:
    """The exact-solve budget of ``level`` for ``game`` (`MCTSPlayer.solve_budget`, used where the
    game solves: Connect Four's book and `solve_within`): the level's entry in the shipped
    models/<game>.json ``level_solve`` (positions, a whole number from 1 to `MAX_SOLVE_BUDGET`;
    anything else is ignored), else None, no solves. Read once per game."""
    return _level_budgets(game)[1].get(level)


def _level_budgets(game) -> tuple[dict[str, int], dict[str, int]]:
    """(visits, solves) of ``game``'s levels, from one reading of its models/<game>.json."""
    key = game.key
    if key not in _budgets:
        report = _model_report(game)

        def table(name: str) -> dict:
            found = report.get(name)
            return found if isinstance(found, dict) else {}
        visits = table("level_visits")
        found = {name: _visits_value(visits.get(name), MAX_LEVEL_VISITS) for name in LEVELS if name != "strong"}
        most = max(MAX_STRONG_VISITS, found["max"] or 0)
        found["strong"] = _visits_value(report.get("strong_visits"), most)
        solves = table("level_solve")
        _budgets[key] = ({name: v or LEVEL_SETTINGS[name].sims for name, v in found.items()},
                         {name: v for name in LEVELS
                          if (v := _visits_value(solves.get(name), MAX_SOLVE_BUDGET)) is not None})
    return _budgets[key]


#: how a player built without a network describes itself (`load_evaluator`)
NO_MODEL = "rollout search (no model)"


def without_model_note(game) -> str:
    """The one line the app and the engines say when the AI plays without a model because
    none is there for ``game`` (a model that fails to load says why instead)."""
    return (f"no model for {game.key}: none is shipped with this build and none was given; "
            "playing with rollout search, which is much weaker")


#: the model name that asks for the rollout search itself (no torch, no model file), as the
#: engine protocols and ``analyse --model`` take it
ROLLOUT = "rollout"


def rollout_evaluator(game):
    """Every game's model-free search: one random playout a leaf."""
    from ..core.evaluators import RolloutEvaluator
    return RolloutEvaluator(rollouts=1, max_plies=min(200, game.max_game_length or 200))


def load_evaluator(game, model_path=None, fallback: bool = True):
    """(evaluator, description). ``model_path`` None means the shipped model; without one,
    a rollout evaluator so that every game has a working AI; `ROLLOUT` asks for that one."""
    from ..core.paths import shipped_model_path
    if model_path is not None and str(model_path) == ROLLOUT:
        return rollout_evaluator(game), NO_MODEL
    path = Path(model_path) if model_path else (shipped_model_path(game.key) or shipped_model_path(game.network_key))
    if path is None:
        if not fallback:
            raise FileNotFoundError(f"no model is shipped for {game.key}")
        return rollout_evaluator(game), NO_MODEL
    from ..core.runtime import load_model_evaluator
    evaluator, meta = load_model_evaluator(path, game, purpose="play", batch=play_leaf_batch(game))
    evaluator = remembering_as_played(game, with_symmetries(game, evaluator))
    return evaluator, f"model {path.name} (generation {meta.get('generation', 0)})"


def remembering_as_played(game, evaluator):
    """``evaluator`` remembering evaluations as the game's ``[play]`` settings say (`memory`,
    `memory_in_gather`), where it can; returns it."""
    from ..core.config import load_config
    if hasattr(evaluator, "remember"):
        play = load_config(game).play
        evaluator.remember(play.memory, play.memory_in_gather)
    return evaluator


def play_symmetries(game) -> int:
    """Board symmetries a play evaluation averages over (the game's ``[play] symmetries``)."""
    from ..core.config import load_config
    return load_config(game).play.symmetries


def with_symmetries(game, evaluator, count: int | None = None):
    """``evaluator`` averaging over ``count`` board symmetries (default: the game's play
    setting); a network evaluator only, and unchanged where the count is 1."""
    from ..core.evaluators import BatchNetEvaluator, SymmetryEvaluator
    count = play_symmetries(game) if count is None else count
    if count <= 1 or not isinstance(evaluator, BatchNetEvaluator):
        return evaluator
    return SymmetryEvaluator(evaluator, game, count)


def play_leaf_batch(game) -> int:
    """Leaves per network call in one game's search at play (the game's ``[play] leaf_batch``)."""
    from ..core.config import load_config
    return max(1, load_config(game).play.leaf_batch)


def play_search_config(game, **overrides) -> SearchConfig:
    """The search settings of play and analysis for ``game`` (its ``[play]`` leaf batch,
    exploration constant, first-play urgency, policy temperature, move choice and material term), with ``overrides``."""
    from ..core.config import load_config
    play = load_config(game).play
    return SearchConfig(**{"leaf_batch": max(1, play.leaf_batch), "cpuct": play.cpuct,
                           "fpu_reduction": play.fpu_reduction,
                           "policy_temperature": play.policy_temperature, "select_lcb": play.select_lcb,
                           "material_scale": play.material_scale, "proof_effort": play.proof_effort,
                           **overrides})


#: material (in the game's `heuristic` units: xiangqi's soldiers) that counts as a piece left
#: to be taken: an advisor, an elephant, a soldier across the river or more
HANGING_MATERIAL = 2.0


def wins_at_once(state) -> bool:
    """Whether the side to move in ``state`` can win with its next move (the game's
    ``wins_at_once`` hook, else `wins_by_trying`)."""
    hook = getattr(state, "wins_at_once", None)
    return bool(hook()) if hook is not None else wins_by_trying(state)


def wins_by_trying(state) -> bool:
    """`wins_at_once` by trying every move (the reference a game's hook must agree with)."""
    if state.is_terminal():
        return False
    me = state.current_player
    for a in state.legal_actions():
        child = state.apply(a)
        if child.is_terminal() and child.winner() == me:
            return True
    return False


def _child_value(state, child, value: float | None, me: int) -> float:
    """The value of ``child`` (the position after one of ``state``'s moves) for ``me``: exact when
    it is over, else ``value`` (the network's, for the side to move there)."""
    if child.is_terminal():
        w = child.winner()
        return 0.0 if w is None else (1.0 if w == me else -1.0)
    return float(value) if child.current_player == me else -float(value)


def glance_choice(state, evaluator, glance: int, rng: np.random.Generator, prior_share: float = 0.0) -> SearchResult:
    """A move as a beginner finds it: it wins at once where it can; it sets aside the moves after
    which the opponent wins at once, unless every move does, and of the others those that put
    material within the opponent's captures (the game's ``hanging_loss``), unless every one
    does. Of the rest (only those the game's ``noticeable_actions`` names, where it has the
    hook and any are left) it looks at ``glance`` moves drawn at random (a ``prior_share`` of the
    draw following the network's priors, the rest alike for every move), and plays the one whose
    position the network values most. It errs by not seeing moves, never by a blunder it could
    see at once."""
    start = time.perf_counter()
    me = state.current_player
    legal = list(state.legal_actions())
    children = [state.apply(a) for a in legal]
    wins = [i for i, c in enumerate(children) if c.is_terminal() and c.winner() == me]
    if wins:
        i = wins[int(rng.integers(len(wins)))]
        return SearchResult(legal[i], 1.0, [MoveStat(legal[i], 1, 1.0, 1.0)], 1, time.perf_counter() - start)
    hanging = getattr(state, "hanging_loss", None)

    def holds(i: int) -> bool:   # the opponent cannot win at once after it
        child = children[i]
        if child.is_terminal():
            return child.winner() in (None, me)
        return child.current_player == me or not wins_at_once(child)

    everything = list(range(len(legal)))
    holding = [i for i in everything if holds(i)]
    keeping = [i for i in holding if hanging is None or hanging(legal[i]) < HANGING_MATERIAL]
    pool = keeping or holding or everything
    notice = getattr(state, "noticeable_actions", None)
    if notice is not None:   # the moves a person looks at first (gomoku: those near the stones)
        looked = set(notice())
        pool = [i for i in pool if legal[i] in looked] or pool
    priors, _ = evaluator.evaluate([state], [legal])
    prior = np.asarray(priors[0], dtype=np.float64)[pool]
    prior = prior / prior.sum() if prior.sum() > 0 else np.full(len(pool), 1.0 / len(pool))
    share = min(1.0, max(0.0, float(prior_share)))
    weights = share * prior + (1.0 - share) / len(pool)
    k = min(int(np.count_nonzero(weights)), max(1, int(glance)))
    seen = [pool[j] for j in rng.choice(len(pool), size=k, replace=False, p=weights / weights.sum())]
    open_ = [i for i in seen if not children[i].is_terminal()]
    values = {}
    if open_:
        _, v = evaluator.evaluate([children[i] for i in open_], [children[i].legal_actions() for i in open_])
        values = dict(zip(open_, (float(x) for x in v)))
    scored = sorted(((_child_value(state, children[i], values.get(i), me), i) for i in seen), reverse=True)
    top = [MoveStat(legal[i], 1, q, float(priors[0][i])) for q, i in scored]
    return SearchResult(legal[scored[0][1]], scored[0][0], top, len(seen), time.perf_counter() - start)


class MCTSPlayer:
    """PUCT search guided by ``evaluator``; reuses its tree between moves of one game."""

    def __init__(self, game, evaluator, sims: int = 800, seconds: float | None = None, temperature: float = 0.0,
                 config: SearchConfig | None = None, seed: int | None = None, reuse: bool = True,
                 temperature_plies: int | None = None, threads: int = 1, tolerance: float | None = None,
                 glance: int | None = None, glance_prior: float = 0.0, solve_budget: int | None = None):
        """``threads``: search threads sharing the tree (`MCTS`), used where the evaluator
        releases the GIL (a network); 1 is the single-threaded search. ``tolerance``: see
        `Level.tolerance` (only with a temperature). ``glance``: choose by `glance_choice`
        looking at that many moves instead of searching (`Level.glance`, `Level.glance_prior`).
        ``solve_budget``: positions the exact solves of a move may visit, where the game has them
        (`exact_result`, `exact_move_result`: Connect Four, its opening book first): the root's
        exact result before the search, then, after it, the most visited moves in turn until one
        keeps that result, which is played; past the budget the search alone chooses, and when a
        clock leaves less than the player's own time only the book is asked. None: no solves. A level
        solves where its game's models/<game>.json says so (`level_solve`), and a level spec's
        ``solve=N`` sets it for measuring (docs/levels.md, "Connect Four's max level plays the
        opening from a book")."""
        self.game = game
        self.temperature_plies = temperature_plies  # temperature only for the game's first plies (arena openings)
        self.sims = sims
        self.seconds = seconds
        self.temperature = temperature
        self.tolerance = tolerance
        self.glance = glance
        self.glance_prior = glance_prior
        self.solve_budget = solve_budget
        self.mcts = MCTS(evaluator, config or SearchConfig(), seed, threads=threads)
        self.rng = np.random.default_rng(seed)
        self.reuse = reuse
        self.tree: Tree | None = None
        self.name = f"mcts{sims}"

    def reset(self) -> None:
        self.tree = None

    def choose(self, state, on_progress=None, should_stop=None, budget: float | None = None) -> SearchResult:
        """The move for ``state``; ``budget`` (seconds, from a game clock: `engine.play.clock.clock_budget`)
        shortens the search below the player's own time cap, never lengthens it."""
        if state.is_terminal():
            raise ValueError("the game is over; there is no move to choose")
        if self.glance:
            self.tree = None
            return glance_choice(state, self.mcts.evaluator, self.glance, self.rng, self.glance_prior)
        start = time.perf_counter()
        tree = reuse_tree(self.tree if self.reuse else None, state)
        self.tree = tree
        seconds = self.seconds
        if budget is not None:
            seconds = max(0.001, min(seconds, budget) if seconds else budget)
        deadline = start + seconds if seconds else None
        exact = None
        if self.solve_budget and hasattr(state, "exact_result"):
            # before the search, whose deadline the solve's time counts against; when a clock
            # leaves less than the level's own time, from the book alone (a solve cannot be cut
            # short by the clock)
            short = budget is not None and budget < (self.seconds or 0)
            value, left = state.exact_result(0 if short else self.solve_budget)
            exact = (value, left) if value is not None else None
        progress_cb = None
        if on_progress is not None:
            def progress_cb():
                frac = tree.root_n / self.sims
                if seconds:
                    frac = max(frac, (time.perf_counter() - start) / seconds)
                on_progress(min(1.0, frac), self._result(tree, start, partial=True))
        sims = self.mcts.search([tree], self.sims, deadline=deadline, on_progress=progress_cb, should_stop=should_stop)
        result = self._result(tree, start, exact=exact)
        result.sims = sims
        return result

    def _result(self, tree: Tree, start: float, partial: bool = False,
                exact: tuple[int, int] | None = None) -> SearchResult:
        """``exact``: (the root's exact result, the solve budget left), see ``solve_budget``."""
        top = tree.stats(limit=10)
        if not top:
            legal = tree.root_state.legal_actions()
            return SearchResult(legal[0], 0.0, [], 0, time.perf_counter() - start)
        temp = self.temperature
        if self.temperature_plies is not None and len(tree.root_state.moves) >= self.temperature_plies:
            temp = 0.0
        proven = tree.root_result()
        if exact and not partial:
            # the most visited moves in turn, until one keeps the root's exact result
            value, left = exact
            actions, visits = tree.visit_counts()
            ranked = dict.fromkeys([top[0].action] + [int(a) for a in actions[np.argsort(-visits, kind="stable")]]
                                   + list(tree.root_state.legal_actions()))
            action = top[0].action
            if value == -1:
                proven = -1.0          # every move loses: the search's favourite resists best
            else:
                for a in ranked:
                    found, left = tree.root_state.exact_move_result(a, left)
                    if found is None:
                        break          # past the budget: the search's favourite, as without the solve
                    if found == value:
                        action, proven = a, float(value)
                        break
        elif partial or temp <= 0:
            action = top[0].action
        else:
            actions, visits = self._candidates(tree, top[0].action)
            action = select_action(actions, visits, temp, self.rng)
        if proven is None and not partial and hasattr(tree.root_state, "exact_result"):
            # what the game's book knows of the root (Connect Four's opening; no solve): the
            # result the study panel and the review then read, the move chosen as before
            known, _ = tree.root_state.exact_result(0)
            proven = None if known is None else float(known)
        return SearchResult(action, tree.root_value(), top, int(tree.root_n), time.perf_counter() - start,
                            proven=proven)


    def _candidates(self, tree: Tree, best: int):
        """(actions, visits) to sample from: every visited root move, or with a ``tolerance`` only
        those the search rates within it of ``best`` (the move `Tree.stats` puts first), and only
        ``best`` when the search proved the position won."""
        actions, visits = tree.visit_counts()
        if self.tolerance is None:
            return actions, visits
        if tree.root_result() == 1.0:
            return np.array([best]), np.array([1.0])
        a, n, w, _, _ = tree.edges(0)
        q = dict(zip((int(x) for x in a), np.where(n > 0, w / np.maximum(n, 1.0), -np.inf)))
        floor = q.get(int(best), -np.inf) - self.tolerance
        keep = np.array([int(x) == int(best) or q.get(int(x), -np.inf) >= floor for x in actions], bool)
        return np.asarray(actions)[keep], np.asarray(visits)[keep]


class PolicyPlayer:
    """The network alone: the legal move with the highest prior (no search)."""

    def __init__(self, game, evaluator):
        self.game = game
        self.evaluator = evaluator
        self.name = "policy"

    def reset(self) -> None:
        pass

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        start = time.perf_counter()
        legal = state.legal_actions()
        priors, values = self.evaluator.evaluate([state], [legal])
        order = np.argsort(-priors[0])
        top = [MoveStat(legal[i], 0, 0.0, float(priors[0][i])) for i in order[:10]]
        return SearchResult(legal[int(order[0])], float(values[0]), top, 1, time.perf_counter() - start)


class RandomPlayer:
    """Uniformly random legal moves."""

    def __init__(self, game, seed: int | None = None):
        self.game = game
        self.rng = random.Random(seed)
        self.name = "random"

    def reset(self) -> None:
        pass

    def choose(self, state, on_progress=None, should_stop=None) -> SearchResult:
        return SearchResult(self.rng.choice(state.legal_actions()), 0.0, [], 0, 0.0)


def rollout_player(game, playouts: int, seed: int | None = None, seconds: float | None = None) -> MCTSPlayer:
    """The classic baseline: MCTS with uniform priors and one random playout per leaf."""
    from ..core.evaluators import RolloutEvaluator
    ev = RolloutEvaluator(rollouts=1, max_plies=min(400, game.max_game_length or 400), seed=seed)
    p = MCTSPlayer(game, ev, sims=playouts, seconds=seconds, config=SearchConfig(cpuct=1.5, fpu_reduction=0.0, leaf_batch=1),
                   seed=seed)
    p.name = f"rollout{playouts}"
    return p


def parse_threads(value) -> int:
    """A thread count from a person (a command line, a protocol option, a settings file):
    a whole number from 1 to `MAX_THREADS`; ValueError naming the bad value otherwise."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not 1 <= int(text) <= MAX_THREADS:
        raise ValueError(f"threads must be a whole number from 1 to {MAX_THREADS}, not {value!r}")
    return int(text)


def make_player(game, level: str = DEFAULT_LEVEL, model_path=None, seed: int | None = None, threads: int = 1):
    """The AI at a named level, with the given model (None: the shipped one, else rollout search),
    searching on ``threads`` threads."""
    if level not in LEVEL_SETTINGS and level != ANALYSIS.name:
        raise ValueError(f"unknown level {level!r}; choose one of: {', '.join(LEVELS)}")
    lv = LEVEL_SETTINGS.get(level, ANALYSIS)
    evaluator, desc = load_evaluator(game, model_path)
    player = MCTSPlayer(game, evaluator, sims=level_visits(game, level), seconds=lv.seconds,
                        temperature=lv.temperature, seed=seed,
                        config=play_search_config(game), threads=threads, tolerance=lv.tolerance,
                        glance=lv.glance, glance_prior=lv.glance_prior, solve_budget=level_solve(game, level))
    player.name = f"{level} ({desc})"
    player.description = desc
    return player
