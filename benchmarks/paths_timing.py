"""Timing a game's compiled core against its Python reference, interleaved: shared by the
per-game core benchmarks (othello_core_speed.py, connect4_core_speed.py)."""
from __future__ import annotations

import statistics
import time

#: the paths a benchmark times (its --paths option may narrow this list in place)
PATHS = ["python", "compiled"]


def rounds_of(rounds: int, work, use) -> dict:
    """Runs ``work(compiled)`` -> (CPU seconds, units, answer) for each of `PATHS` ``rounds`` times,
    taking turns (the order reversed every other round); ``use(compiled)`` switches the game module
    between its paths first, and leaves it compiled at the end. Per path the fastest and median
    CPU-µs a unit; with both paths their ratios and how many rounds' answers differed."""
    cpu = {p: [] for p in PATHS}
    differ = 0
    for r in range(rounds):
        answers = {}
        for path in (PATHS if r % 2 == 0 else PATHS[::-1]):
            use(path == "compiled")
            seconds, units, answers[path] = work(path == "compiled")
            cpu[path].append(seconds / units)
        differ += len(set(map(repr, answers.values()))) > 1
    use(True)
    out = {p: {"fastest_us": round(min(v) * 1e6, 2), "median_us": round(statistics.median(v) * 1e6, 2)}
           for p, v in cpu.items()}
    if len(PATHS) == 1:
        return out
    out["ratio_fastest"] = round(min(cpu["python"]) / min(cpu["compiled"]), 1)
    out["ratio_median"] = round(statistics.median(cpu["python"]) / statistics.median(cpu["compiled"]), 1)
    out["rounds_that_differ"] = differ
    return out


def random_games(game, count: int, seed: int, use) -> list[list[int]]:
    """The moves of ``count`` uniformly random games of ``game``, played on the Python path."""
    import random
    rng, games = random.Random(seed), []
    use(False)
    for _ in range(count):
        s, moves = game.initial_state(), []
        while not s.is_terminal():
            a = rng.choice(s.legal_actions())
            moves.append(a)
            s = s.apply(a)
        games.append(moves)
    use(True)
    return games


def state_calls(game, games: list[list[int]], calls: dict, rounds: int, use, fresh=None, repeat: int = 1,
                answer=None) -> dict:
    """`rounds_of` for each of ``calls`` (name -> ``call(state, action)``): CPU a call on every
    position of ``games`` with its next move. ``fresh(state)`` gives the state each call sees (a
    copy without cached results, say); ``repeat`` calls a position; ``answer(name, result)`` what
    is compared between the paths (the result itself by default)."""
    out = {}
    for name, call in calls.items():
        def work(_, name=name, call=call):
            cpu, answers, n = 0.0, [], 0
            for moves in games:
                s = game.initial_state()
                for a in moves:
                    seen = fresh(s) if fresh else s
                    t = time.process_time()
                    for _ in range(repeat):
                        r = call(seen, a)
                    cpu += time.process_time() - t
                    answers.append(answer(name, r) if answer else r)
                    n += repeat
                    s = s.apply(a)
            return cpu, n, answers
        out[name] = rounds_of(rounds, work, use)
    return out


def search_sets(game, sets: dict, sims: int, rounds: int, use, clear) -> dict:
    """`rounds_of` for the play search (play settings, one thread) on each named list of
    positions in ``sets``, with a fixed-priors evaluator ("trivial": the search and the rules
    alone) and the shipped network: CPU a visit, the visit counts compared between the paths.
    ``clear()`` empties the game's solved-position tables before each run."""
    from engine.core import mcts
    from engine.play.players import play_search_config
    from tree_search_speed import FixedPriors, network_evaluator, run
    cfg = play_search_config(game)
    out = {"sims": sims, "leaf_batch": cfg.leaf_batch}
    for ev_name, ev in (("trivial", FixedPriors(game.action_size)), ("network", network_evaluator(game))):
        for set_name, positions in sets.items():
            def work(_, ev=ev, positions=positions):
                clear()
                return run(positions, ev, cfg, sims, mcts._tree_c)   # the search tree as it is
            work(True)   # warm-up (imports, the runtime's first call)
            out[f"{ev_name}/{set_name}"] = rounds_of(rounds, work, use)
    return out
