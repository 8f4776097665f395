"""Strength suites: how good a game's AI is, measured the same way every time.

``python main.py evaluate --game G [--model PATH] [--limit K] [--games N] [--out FILE]``
prints one JSON object (and writes it to ``--out``, e.g. ``models/<game>.json``, whose
one-line ``summary`` the app shows on the game's home card).

The AI is the MCTS player at a level (default "strong") with that level's visits and
no time cap, so results do not depend on the machine's speed. Which suite a game gets
is decided in `SUITES` below and nowhere else:

- ``solved`` (tiny games): the AI's move in *every* reachable non-terminal position is
  checked against exact minimax (`engine.play.solver`), with all positions searched together
  in batches; then games against the perfect player and against random play, from both
  sides, where the AI must never lose.
- ``benchmark`` (connect4): the error rate on solved benchmark positions (a move is an
  error when it is not among the optimal ones), per file. These positions only *measure*
  strength: nothing here writes them anywhere a training run reads.
- ``matches`` (othello, gomoku, xiangqi): the score against baseline players over
  ``--games`` games alternating who starts. The AI samples its first few moves
  (`engine.play.baselines.OPENING_PLIES`, temperature 1) so that games differ; opponents play
  as they are. ``stockfish-depth1`` is fairy-stockfish searching to depth 1 (``go depth 1``),
  ``stockfish-elo1350`` fairy-stockfish limited to UCI_Elo 1350 with 1000 nodes a move
  (``go nodes 1000``): fixed work per move, so the machine's load does not change the result;
  both are skipped when fairy-stockfish is not installed; ``greedy`` is skipped when the game has no heuristic. Each
  match keeps the transcripts of the first few games the AI lost (``lost_games``).

In matches the AI's moves of all running games are searched together, so their
leaves share network calls. ``--workers N`` spreads the games (or benchmark positions)
over N processes, one core each; the figures measure the same thing, only sooner.
"""
from __future__ import annotations

import datetime as _dt
import json
import os
import platform
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ..play.arena import MatchResult
from ..protocols.common import json_text
from .cli import ArgParser, UsageError, add_rule_option, evaluator_from_args, game_from_args, run_command
from ..core.mcts import MCTS, Tree, reuse_tree, select_action

#: the one place that decides each game's suite
SUITES: dict[str, dict] = {
    "tictactoe": {"kind": "solved", "games": 100},
    "connect2": {"kind": "solved", "games": 100},
    "connect4": {"kind": "benchmark", "folder": "benchmarks/connect4", "sims": 800,
                 "sets": (("Test_L3_R1", "end-easy"), ("Test_L2_R1", "middle-easy"),
                          ("Test_L1_R1", "begin-easy"), ("Test_L2_R2", "middle-medium"))},
    "othello": {"kind": "matches", "games": 100,
                "opponents": (("rollout:1000", "rollout MCTS (1000 playouts)"), ("greedy", "greedy disc count"))},
    "gomoku": {"kind": "matches", "games": 100, "opponents": (("rollout:2000", "rollout MCTS (2000 playouts)"),)},
    "xiangqi": {"kind": "matches", "games": 20,
                "opponents": (("random", "random moves"), ("greedy", "greedy material"),
                              ("stockfish-depth1", "fairy-stockfish at depth 1"),
                              ("stockfish-elo1350", "fairy-stockfish at Elo 1350, 1000 nodes"))},
}
#: the xiangqi suite's fairy-stockfish settings: work per move (WORK of a ``uci:`` spec) and options
STOCKFISH_SETTINGS = {"stockfish-depth1": ("depth1", ""),
                      "stockfish-elo1350": ("nodes1000", "?UCI_LimitStrength=true&UCI_Elo=1350")}
#: trees searched together
SEARCH_CHUNK = 128
#: wrong answers a benchmark report lists per set (position, move chosen, optimal moves)
ERROR_EXAMPLES = 10
#: lost games a match report keeps (as transcripts), to study the AI's mistakes
KEPT_LOSSES = 5


class EvaluationError(Exception):
    """A suite that cannot run here (missing benchmark files...); exit code 1."""


def _log(msg: str) -> None:
    print(msg, file=sys.stderr, flush=True)


# --- batched search and batched games --------------------------------------------

def best_moves(mcts: MCTS, states: list, sims: int, chunk: int = SEARCH_CHUNK, on_chunk=None) -> list[int]:
    """The most visited move (the level's temperature-0 choice) of each position, searched in
    batches; ``on_chunk(n)`` after each batch of ``n`` positions."""
    out: list[int] = []
    for i in range(0, len(states), chunk):
        trees = [Tree(s) for s in states[i:i + chunk]]
        mcts.search(trees, sims)
        out.extend(t.stats(limit=1)[0].action for t in trees)
        if on_chunk is not None:
            on_chunk(len(trees))
    return out


@dataclass
class _Game:
    index: int
    state: object
    ai: int           # the AI's player number in this game
    opponent: object
    tree: Tree | None = None


def play_batched_match(game, mcts: MCTS, sims: int, make_opponent, games: int, opening_plies: int = 0,
                       seed: int = 0, window: int = 64, on_game=None,
                       indices: list[int] | None = None) -> tuple[MatchResult, list]:
    """The AI (``mcts`` at ``sims`` visits) against ``make_opponent(i)`` in games ``i`` of
    ``indices`` (default ``range(games)``), the AI starting the even ones; up to ``window`` games
    run at once and the AI's searches in them share network calls. Returns the result for the AI
    and (AI's player number, final state) of each game it lost."""
    rng = np.random.default_rng(seed)
    max_plies = game.max_game_length or 10_000
    result = MatchResult()
    lost: list = []
    waiting = list(range(games)) if indices is None else list(indices)
    live: list[_Game] = []

    def over(g: _Game) -> bool:
        return g.state.is_terminal() or len(g.state.moves) >= max_plies

    while waiting or live:
        while waiting and len(live) < window:
            i = waiting.pop(0)
            opponent = make_opponent(i)
            opponent.reset()
            live.append(_Game(i, game.initial_state(), 0 if i % 2 == 0 else 1, opponent))
        for g in live:
            while not over(g) and g.state.current_player != g.ai:
                g.state = g.state.play(g.opponent.choose(g.state).action)
        turn = []
        for g in live:
            if over(g):
                continue
            legal = g.state.legal_actions()
            if len(legal) == 1:  # a forced move (othello's pass) needs no search
                g.state, g.tree = g.state.play(legal[0]), None
            else:
                turn.append(g)
        if turn:
            trees = [reuse_tree(g.tree, g.state) for g in turn]
            mcts.search(trees, sims)
            for g, t in zip(turn, trees):
                if len(g.state.moves) < opening_plies:
                    action = select_action(*t.visit_counts(), 1.0, rng)
                else:
                    action = t.stats(limit=1)[0].action
                g.tree = t
                g.state = g.state.play(action)
        still = []
        for g in live:
            if not over(g):
                still.append(g)
                continue
            w = g.state.winner() if g.state.is_terminal() else None
            result.games += 1
            if w is None:
                result.draws += 1
            elif w == g.ai:
                result.wins += 1
            else:
                result.losses += 1
                lost.append((g.ai, g.state))
            if on_game is not None:
                on_game(result)
        live = still
    return result, lost


# --- several processes ---------------------------------------------------------------

def _worker_mcts(game_key: str, model: str | None, seed: int):
    from games import game_from_key
    from ..play.players import load_evaluator, play_search_config
    game = game_from_key(game_key)
    evaluator, _ = load_evaluator(game, model)   # one thread, in torch or ONNX Runtime
    return game, MCTS(evaluator, play_search_config(game), seed=seed)


def _best_moves_job(game_key: str, model: str | None, seed: int, sims: int, texts: list[str]) -> list[int]:
    """A worker process: the chosen move of each position (given as text)."""
    game, mcts = _worker_mcts(game_key, model, seed)
    return best_moves(mcts, [game.state_from_text(t) for t in texts], sims,
                      on_chunk=lambda n: _report(("positions", n)))


def _match_job(worker: int, game_key: str, model: str | None, seed: int, sims: int, opponent: str,
               opponent_seed: int, indices: list[int], opening_plies: int) -> tuple[MatchResult, list[dict]]:
    """A worker process: the AI's games ``indices`` against ``opponent``; the result and the lost games kept."""
    game, mcts = _worker_mcts(game_key, model, seed)
    make, close, _ = _opponent_factory(game, opponent, opponent_seed)
    n = len(indices)
    try:
        result, lost = play_batched_match(
            game, mcts, sims, make, n, opening_plies=opening_plies, seed=seed, indices=indices,
            on_game=lambda r: _report(("games", worker, r.wins, r.draws, r.losses)))
    finally:
        close()
    return result, _lost_records(lost)


#: where a worker process reports finished games and positions (set by `_init_worker`)
_reports = None


def _init_worker(queue) -> None:
    global _reports
    _reports = queue


def _report(message: tuple) -> None:
    if _reports is not None:
        _reports.put(message)


def _pool(workers: int, reports=None):
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor
    return ProcessPoolExecutor(max_workers=workers, mp_context=mp.get_context("spawn"),
                               initializer=_init_worker, initargs=(reports,))


def _wait_reporting(futures: list, reports, on_report) -> None:
    """Wait for ``futures``, passing each report the workers send to ``on_report`` as it comes."""
    import queue as queue_mod
    while True:
        pending = not all(f.done() for f in futures)
        try:
            on_report(reports.get(timeout=0.25) if pending else reports.get_nowait())
        except queue_mod.Empty:
            if not pending:
                return


def _split_pairs(games: int, parts: int) -> list[list[int]]:
    """Game indices in ``parts`` slices of whole pairs (games 2k and 2k+1 swap who starts), so
    that every slice has as many games with each side starting."""
    slices = [[i for i in range(games) if (i // 2) % parts == p] for p in range(parts)]
    return [s for s in slices if s]


def best_moves_parallel(game, model: str | None, states: list, sims: int, workers: int, seed: int,
                        on_chunk=None) -> list[int]:
    """`best_moves` over ``workers`` processes (contiguous slices, results in order);
    ``on_chunk(n)`` as the workers finish batches of ``n`` positions."""
    import multiprocessing as mp
    texts = [s.to_text() for s in states]
    size = -(-len(texts) // workers) if texts else 0
    slices = [texts[i:i + size] for i in range(0, len(texts), size)] if size else []
    reports = mp.get_context("spawn").Queue()
    with _pool(workers, reports) as pool:
        futures = [pool.submit(_best_moves_job, game.key, model, seed + w, sims, part)
                   for w, part in enumerate(slices)]
        _wait_reporting(futures, reports, lambda m: on_chunk(m[1]) if on_chunk is not None else None)
        return [a for f in futures for a in f.result()]


# --- suites -------------------------------------------------------------------------

def run_solved_suite(game, mcts, sims, args, seed: int) -> tuple[dict, str]:
    from ..play.baselines import SolverPlayer
    from ..play.players import RandomPlayer
    from ..play.solver import Solver, reachable_states
    solver = Solver()
    states = reachable_states(game)
    total = len(states)
    if args.limit:
        states = states[:args.limit]
    _log(f"{game.key}: searching {len(states)} of {total} reachable positions at {sims} visits")
    with _progress(args, len(states), f"{game.key} positions", "positions") as bar:
        chosen = best_moves(mcts, states, sims, on_chunk=bar.update)
    mistakes = []
    for s, a in zip(states, chosen):
        optimal = solver.optimal_actions(s)
        if a not in optimal:
            mistakes.append({"position": s.to_text(), "move": s.action_to_text(a),
                             "optimal": sorted(s.action_to_text(o) for o in optimal)})
    games = args.games or SUITES[game.id]["games"]
    perfect = SolverPlayer(game, seed, solver)
    _log(f"{game.key}: {len(mistakes)} non-optimal; playing {games} games against the perfect player")
    with _progress(args, games, f"{game.key} vs solver", "games") as bar:
        vs_solver, lost_solver = play_batched_match(game, mcts, sims, lambda i: perfect, games, seed=seed,
                                                    on_game=_counting(bar))
    random_player = RandomPlayer(game, seed)
    _log(f"{game.key}: playing {games} games against random play")
    with _progress(args, games, f"{game.key} vs random", "games") as bar:
        vs_random, lost_random = play_batched_match(game, mcts, sims, lambda i: random_player, games,
                                                    seed=seed + 1, on_game=_counting(bar))
    avoidable_solver = [t for t in map(lambda g: _avoidable(game, solver, *g), lost_solver) if t]
    avoidable_random = [t for t in map(lambda g: _avoidable(game, solver, *g), lost_random) if t]
    never_lost = not avoidable_solver and not avoidable_random
    results = {"positions": len(states), "reachable_positions": total, "non_optimal": len(mistakes),
               "non_optimal_examples": mistakes[:10],
               "vs_solver": {**vs_solver.to_dict(), "avoidable_losses": len(avoidable_solver),
                             "avoidable_lost_games": avoidable_solver[:5]},
               "vs_random": {**vs_random.to_dict(), "avoidable_losses": len(avoidable_random),
                             "avoidable_lost_games": avoidable_random[:5]},
               "never_lost": never_lost}
    played = vs_solver.games + vs_random.games
    if not mistakes and never_lost:
        summary = (f"Perfect play: the best move in all {len(states):,} positions checked; "
                   f"never lost a game it could hold in {played} games against perfect and random play")
    else:
        bad = len(avoidable_solver) + len(avoidable_random)
        summary = (f"Best move in {len(states) - len(mistakes):,} of {len(states):,} positions; "
                   f"{bad} avoidable losses in {played} games against perfect and random play")
    return results, summary


def _avoidable(game, solver, ai: int, final) -> str | None:
    """The transcript of a lost game if the AI was ever to move in a position it could hold
    (solver value >= 0), else None: losing a game that was lost from the start is no mistake."""
    state = game.initial_state()
    for a in final.moves:
        if state.current_player == ai and solver.value(state) >= 0:
            return final.to_text()
        state = state.apply(a)
    return None


def benchmark_folder(spec: dict, override: str | None = None) -> Path:
    from ..core.paths import resource_root
    folder = Path(override) if override else (resource_root() / spec["folder"]).resolve()
    if not folder.is_dir():
        raise EvaluationError(f"the benchmark positions are missing: no folder {folder} "
                              f"(expected {spec['folder']} in the project, or pass --bench-dir)")
    return folder


def read_labelled_positions(game, path: Path, limit: int | None) -> tuple[list, list[set[int]], int]:
    """Lines ``MOVES SCORE OPTIMAL`` -> (states, optimal actions per state, unreadable lines)."""
    from games.base import NotationError
    states, optimal, bad = [], [], 0
    for line in path.read_text(encoding="utf-8").splitlines():
        if limit is not None and len(states) >= limit:
            break
        parts = line.split()
        if not parts:
            continue
        try:
            if len(parts) != 3:
                raise NotationError(f"expected 'MOVES SCORE OPTIMAL', got {line!r}")
            state = game.state_from_text(parts[0])
            best = {state.parse_action(c) for c in parts[2]}
        except (NotationError, ValueError):
            bad += 1
            continue
        if state.is_terminal():
            bad += 1
            continue
        states.append(state)
        optimal.append(best)
    return states, optimal, bad


def run_benchmark_suite(game, mcts, sims, args, seed: int) -> tuple[dict, str]:
    spec = SUITES[game.id]
    folder = benchmark_folder(spec, args.bench_dir)
    sets = []
    for name, label in spec["sets"]:
        path = folder / f"{name}.labels"
        if not path.is_file():
            raise EvaluationError(f"benchmark file missing: {path}")
        states, optimal, bad = read_labelled_positions(game, path, args.limit)
        t0 = time.perf_counter()
        with _progress(args, len(states), f"{game.key} {label}", "positions") as bar:
            if args.workers > 1:
                chosen = best_moves_parallel(game, args.model, states, sims, args.workers, seed, on_chunk=bar.update)
            else:
                chosen = best_moves(mcts, states, sims, on_chunk=bar.update)
        wrong = [(s, a, best) for s, a, best in zip(states, chosen, optimal) if a not in best]
        errors = len(wrong)
        rate = errors / len(states) if states else 0.0
        sets.append({"file": path.name, "set": label, "positions": len(states), "errors": errors,
                     "error_rate": round(rate, 4), "unreadable_lines": bad,
                     "seconds": round(time.perf_counter() - t0, 1),
                     # the first few, to study: the position, the move chosen, the optimal ones
                     "error_examples": [{"position": s.to_text(), "move": s.action_to_text(a),
                                         "optimal": sorted(s.action_to_text(b) for b in best)}
                                        for s, a, best in wrong[:ERROR_EXAMPLES]]})
        _log(f"{game.key} {name} ({label}): {errors}/{len(states)} errors ({100 * rate:.1f}%)")
    summary = "Benchmark error rate: " + ", ".join(f"{s['set']} {100 * s['error_rate']:.1f}%" for s in sets)
    return {"folder": str(folder), "sets": sets}, summary


def _opponent_factory(game, spec: str, seed: int):
    """(make_opponent, closer, description) for a suite opponent, or raise SpecError / EvaluationError."""
    from .specs import ENGINE_KINDS, close_player, find_fairy_stockfish, player_from_spec
    if spec in STOCKFISH_SETTINGS:
        path = find_fairy_stockfish()
        if path is None:
            raise EvaluationError("fairy-stockfish is not installed")
        work, options = STOCKFISH_SETTINGS[spec]
        spec = f"uci:{path}@{work}{options}"
    if spec.partition(":")[0] in ENGINE_KINDS or spec in ("random", "greedy"):
        # stateless between games (an outside engine is reset each game): one process for all games
        shared = player_from_spec(game, spec, seed=seed, opening_plies=0)
        return (lambda i: shared), (lambda: close_player(shared)), spec
    player_from_spec(game, spec, seed=seed, opening_plies=0)  # fail early on a bad spec
    return (lambda i: player_from_spec(game, spec, seed=seed + i, opening_plies=0)), (lambda: None), spec


def percent(share: float) -> str:
    """A share as a percentage with at most one decimal: 0.925 -> "92.5%", 0.9 -> "90%"
    (a score over 20 games moves in steps of 2.5%, which whole percents would round away)."""
    return f"{100 * share:.1f}".removesuffix(".0") + "%"


def run_match_suite(game, mcts, sims, args, seed: int) -> tuple[dict, str]:
    from ..play.baselines import OPENING_PLIES
    from .specs import SpecError
    spec = SUITES[game.id]
    games = args.games or spec["games"]
    out, notes = [], []
    for k, (opponent, label) in enumerate(spec["opponents"]):
        try:
            make, close, resolved = _opponent_factory(game, opponent, seed + 1000 * k)
        except (SpecError, EvaluationError) as e:
            out.append({"opponent": opponent, "skipped": str(e)})
            _log(f"{game.key} vs {opponent}: skipped ({e})")
            continue
        t0 = time.perf_counter()
        _log(f"{game.key} vs {opponent}: {games} games" + (f" in {args.workers} processes" if args.workers > 1 else ""))
        with _progress(args, games, f"{game.key} vs {opponent}", "games") as bar:
            if args.workers > 1:
                close()  # the workers make their own opponents
                result, lost_games = _parallel_match(game, args.model, sims, opponent, seed + 1000 * k, games,
                                                     args.workers, seed + k, on_games=_counting(bar))
            else:
                try:
                    result, lost = play_batched_match(
                        game, mcts, sims, make, games, opening_plies=OPENING_PLIES, seed=seed + k,
                        on_game=_counting(bar))
                finally:
                    close()
                lost_games = _lost_records(lost)
        out.append({"opponent": opponent, "label": label, "spec": resolved, **result.to_dict(),
                    "lost_games": lost_games, "seconds": round(time.perf_counter() - t0, 1)})
        notes.append(f"{percent(result.score)} vs {label}")
    played = [o for o in out if "games" in o]
    summary = (f"Scores {', '.join(notes)} ({games} games each)" if played
               else "No baseline opponent was available")
    return {"opening_plies": OPENING_PLIES, "matches": out}, summary


def _parallel_match(game, model, sims: int, opponent: str, opponent_seed: int, games: int, workers: int,
                    seed: int, on_games=None) -> tuple[MatchResult, list[dict]]:
    """The match over ``workers`` processes; ``on_games(result so far)`` as their games end."""
    import multiprocessing as mp
    from ..play.baselines import OPENING_PLIES
    total, lost = MatchResult(), []
    slices = _split_pairs(games, workers)
    reports = mp.get_context("spawn").Queue()
    per_worker: dict[int, tuple] = {}

    def on_report(message):
        _, worker, wins, draws, losses = message
        per_worker[worker] = (wins, draws, losses)
        if on_games is not None:
            w, d, l = (sum(c[i] for c in per_worker.values()) for i in range(3))
            on_games(MatchResult(w, d, l, w + d + l))

    with _pool(workers, reports) as pool:
        futures = [pool.submit(_match_job, w, game.key, model, seed + 7919 * w, sims, opponent, opponent_seed,
                               part, OPENING_PLIES) for w, part in enumerate(slices)]
        _wait_reporting(futures, reports, on_report)
        for f in futures:
            part, part_lost = f.result()
            total.add(part)
            lost.extend(part_lost)
    if on_games is not None:
        on_games(total)   # a report still in the queue when the last worker finished
    return total, lost[:KEPT_LOSSES]


def _progress(args, total: int, desc: str, unit: str):
    from ..core.progress import Progress
    return Progress(total, desc, unit, enabled=not getattr(args, "quiet", False))


def _counting(bar):
    """An ``on_game(result)`` that shows a match's games and score so far on ``bar``."""
    def on_game(r: MatchResult) -> None:
        bar.info(f"+{r.wins} ={r.draws} -{r.losses}")
        bar.advance_to(r.games)
    return on_game


def _lost_records(lost: list) -> list[dict]:
    """The first `KEPT_LOSSES` lost games as {"ai": side, "moves": transcript, "end": reason}."""
    out = []
    for ai, state in lost[:KEPT_LOSSES]:
        record = {"ai": ai, "moves": state.to_text()}
        reason = getattr(state, "end_reason", None)
        if callable(reason):
            record["end"] = reason()
        out.append(record)
    return out


RUNNERS = {"solved": run_solved_suite, "benchmark": run_benchmark_suite, "matches": run_match_suite}


# --- command ------------------------------------------------------------------------

def _model_info(game, model: str | None) -> dict | None:
    from ..core.checkpoint import metadata
    from ..core.paths import shipped_model_path
    path = Path(model) if model else (shipped_model_path(game.key) or shipped_model_path(game.network_key))
    if path is None:
        return None
    meta = metadata(path)
    return {"file": path.name, "generation": meta.get("generation"), "created": meta.get("created"),
            "game_key": meta.get("game_key")}


def _machine() -> dict:
    info = {"cores": os.cpu_count(), "platform": platform.platform(), "python": platform.python_version()}
    torch = sys.modules.get("torch")
    if torch is not None:
        info.update(torch=torch.__version__, torch_threads=torch.get_num_threads())
    return info


def main(argv: list[str]) -> int:
    """``python main.py evaluate``: run the game's strength suite and print (and save) the JSON."""
    from ..play.players import DEFAULT_LEVEL, LEVEL_SETTINGS, LEVELS
    parser = ArgParser(prog="main.py evaluate", description=__doc__.split("\n\n")[0] + " Suites: " + ", ".join(
        f"{g}: {s['kind']}" for g, s in SUITES.items()))
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    add_rule_option(parser)
    parser.add_argument("--model", help="model file (default: the shipped model, else rollout search)")
    parser.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL, help="AI level (default: %(default)s)")
    parser.add_argument("--sims", type=int, help="visits per move instead of the level's (or the suite's)")
    parser.add_argument("--limit", type=int, help="at most K positions (per benchmark file)")
    parser.add_argument("--games", type=int, help="games per opponent (default: the suite's)")
    parser.add_argument("--bench-dir", help="folder of benchmark positions (default: the suite's)")
    parser.add_argument("--out", help="also write the JSON here (e.g. models/<game>.json)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes to spread matches and benchmark positions over (default: 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true",
                        help="no progress on stderr (default: a bar on a terminal, else a line per tenth or per 30 s)")

    def body(args) -> int:
        from ..core.checkpoint import CheckpointError, atomic_write_bytes
        for name in ("sims", "limit", "games", "workers"):
            value = getattr(args, name)
            if value is not None and value <= 0:
                raise UsageError(f"--{name} must be positive, not {value}")
        game = game_from_args(args.game, args.size, args.rule)
        spec = SUITES.get(game.id)
        if spec is None:
            raise UsageError(f"no strength suite is defined for {game.key}")
        evaluator, description = evaluator_from_args(game, args.model)
        try:
            model = _model_info(game, args.model)
        except CheckpointError as e:
            raise UsageError(str(e)) from None
        sims = args.sims or spec.get("sims") or LEVEL_SETTINGS[args.level].sims
        from ..play.players import play_search_config
        mcts = MCTS(evaluator, play_search_config(game), seed=args.seed)
        started = _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds")
        t0 = time.perf_counter()
        try:
            results, summary = RUNNERS[spec["kind"]](game, mcts, sims, args, args.seed)
        except EvaluationError as e:
            print(f"evaluate: {e}", file=sys.stderr)
            return 1
        report = {"game": game.key, "suite": spec["kind"], "model": model, "evaluator": description,
                  "level": args.level, "sims": sims, "proofs": game.proofs, "machine": _machine(),
                  "workers": args.workers,
                  "started": started,
                  "wall_seconds": round(time.perf_counter() - t0, 1), "results": results, "summary": summary}
        if args.out:
            report.update(kept_measurements(Path(args.out), game.key))
        text = json_text(report, indent=2, ensure_ascii=False)
        print(text, flush=True)
        if args.out:
            try:
                atomic_write_bytes(Path(args.out), (text + "\n").encode("utf-8"))
            except OSError as e:
                print(f"evaluate: cannot write {args.out}: {e}", file=sys.stderr)
                return 1
        return 0

    return run_command(parser, argv, body)


#: entries of a models/<game>.json measured apart from the strength suite (benchmarks/strong_visits.py,
#: the levels' rating matches), which a new report written over the file keeps
KEPT_KEYS = ("strong_visits", "strong_visits_method", "level_visits", "level_visits_method")


def kept_measurements(path: Path, game_key: str) -> dict:
    """The `KEPT_KEYS` entries of the report already at ``path`` when it is one of ``game_key``'s
    (nothing when it is missing, unreadable or another game's)."""
    from ..core.safefile import UnreadableFile, read_json
    try:
        old = read_json(path, "model_report")
    except (UnreadableFile, OSError):
        return {}
    if not isinstance(old, dict) or old.get("game") != game_key:
        return {}
    return {k: old[k] for k in KEPT_KEYS if k in old}


__all__ = ["SUITES", "KEPT_KEYS", "kept_measurements", "main", "best_moves", "play_batched_match",
           "read_labelled_positions", "EvaluationError"]
