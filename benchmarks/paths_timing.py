"""Timing a game's compiled core against its Python reference, interleaved: shared by the
per-game core benchmarks (othello_core_speed.py, connect4_core_speed.py)."""
from __future__ import annotations

import statistics

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
