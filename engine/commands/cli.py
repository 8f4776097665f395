"""Command-line tools: ``analyse``, ``arena`` and ``bench`` (each prints JSON on stdout).

Every ``*_main(argv)`` takes the arguments after the subcommand and returns the exit
code: 0 on success, 2 for bad arguments (unknown game, unreadable model or positions
file, bad player spec), with the message on stderr.
"""
from __future__ import annotations

import argparse
import json
import sys
import time

from ..protocols.common import json_text


class UsageError(Exception):
    """Bad command-line input; the message says what and is printed as is."""


class ArgParser(argparse.ArgumentParser):
    """An ArgumentParser that raises UsageError instead of exiting, so callers return 2."""

    def error(self, message):
        raise UsageError(f"{self.format_usage().rstrip()}\n{self.prog}: error: {message}")


def run_command(parser: argparse.ArgumentParser, argv: list[str], body) -> int:
    """Parse ``argv`` and run ``body(args)``; usage errors print to stderr and give exit code 2."""
    try:
        args = parser.parse_args(argv)
        return int(body(args) or 0)
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return 2
    except SystemExit as e:  # --help
        return int(e.code or 0) if not isinstance(e.code, str) else 2


def threads_arg(text: str) -> int:
    """``--threads``'s value: a whole number from 1 to `MAX_THREADS` (a usage error otherwise)."""
    from ..play.players import parse_threads
    try:
        return parse_threads(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


#: the ``--rule`` option's help (gomoku's rule sets, `games.renju`)
RULE_HELP = ("gomoku's rule set: freestyle (five or more wins; the default), standard (exactly five) or renju "
             "(black's double three, double four and overline forbidden); renju plays its own shipped network "
             "(models/gomoku-renju.pt), standard the freestyle one")


def add_rule_option(parser) -> None:
    """``--rule freestyle|standard|renju`` (gomoku)."""
    parser.add_argument("--rule", choices=("freestyle", "standard", "renju"), help=RULE_HELP)


def game_from_args(game_id: str, size: int | None = None, rule: str | None = None):
    """The game named on the command line; UsageError for an unknown or absent one."""
    from games import GAME_IDS, get_game
    if game_id not in GAME_IDS:
        raise UsageError(f"unknown game {game_id!r}; choose one of: {', '.join(GAME_IDS)}")
    if rule and game_id != "gomoku":
        raise UsageError(f"--rule is for gomoku; {game_id} has one rule set")
    variant = {**({"size": size} if size else {}), **({"rule": rule} if rule else {})}
    try:
        return get_game(game_id, **variant)
    except ModuleNotFoundError:
        raise UsageError(f"the game {game_id!r} is not installed in this build") from None
    except (TypeError, ValueError) as e:
        raise UsageError(f"--size {size} does not fit {game_id}: {e}") from None


def evaluator_from_args(game, model: str | None):
    """(evaluator, description): ``model`` or the shipped model, else rollout search."""
    from ..core.checkpoint import CheckpointError
    from ..play.players import load_evaluator
    try:
        return load_evaluator(game, model)
    except (CheckpointError, OSError) as e:
        raise UsageError(str(e)) from None


def parse_position(game, text: str):
    """A position from text; empty or ``startpos`` is the start position. Raises NotationError."""
    t = text.strip()
    if t in ("", "startpos"):
        return game.initial_state()
    return game.state_from_text(t)


def position_from_line(line: str, whole_line: bool) -> str:
    """The position part of a positions-file line.

    Games whose positions are one word (move transcripts) take the first word and ignore
    the rest (so labelled benchmark files work as they are); games whose positions
    contain spaces (xiangqi's FEN) take the whole line up to an optional tab.
    """
    line = line.rstrip("\r\n")
    if whole_line:
        return line.split("\t", 1)[0].strip()
    words = line.split()
    return words[0] if words else ""


def positions_have_spaces(game) -> bool:
    """True when the game's position text contains spaces (a FEN), so a whole line is one position."""
    return " " in game.initial_state().to_text()


# --- analyse ------------------------------------------------------------------

def _analysis_record(text: str, tree, top: int) -> dict:
    state = tree.root_state
    stats = tree.stats(limit=top)
    record = {"position": text, "move": state.action_to_text(stats[0].action), "value": round(tree.root_value(), 4),
              "sims": int(tree.root_n),
              "top": [{"move": state.action_to_text(m.action), "visits": m.visits, "q": round(m.q, 4),
                       "prior": round(m.prior, 4)} for m in stats]}
    proof = tree.root_result()
    if proof is not None:   # the search proved the position: say so, not just a value of +-1 or 0
        record["proven"] = "win" if proof > 0 else "loss" if proof < 0 else "draw"
    return record


def analyse_main(argv: list[str]) -> int:
    """``python main.py analyse``: one JSON line per position with the move, value and top moves."""
    from ..play.players import DEFAULT_LEVEL, LEVELS
    parser = ArgParser(prog="main.py analyse", description=(
        "Search positions and print one JSON line each: "
        '{"position", "move", "value" (for the side to move, -1..1), "sims", "top": [{"move", "visits", "q", '
        '"prior"}]}, and "proven" ("win", "draw" or "loss" for the side to move) when the search proved the '
        'result. A bad or finished position gives {"position", "error"} and the rest go on. '
        "In a positions file each line is a position; anything after its first space is ignored, except for "
        "games whose positions contain spaces (xiangqi FEN), which take the whole line up to an optional tab. "
        "Blank lines and lines starting with # are skipped."))
    where = parser.add_mutually_exclusive_group()
    where.add_argument("--position", help="one position in the game's notation (default: the start position)")
    where.add_argument("--positions-file", help="a file of positions, one per line")
    budget = parser.add_mutually_exclusive_group()
    budget.add_argument("--sims", type=int, help="visits per position (default: the level's)")
    budget.add_argument("--movetime", type=int, help="milliseconds per position (positions are then searched "
                                                     "one after another)")
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    add_rule_option(parser)
    parser.add_argument("--model", help="model file, or 'rollout' for the rollout search (default: the shipped "
                                          "model, else rollout search)")
    parser.add_argument("--level", choices=LEVELS, default=DEFAULT_LEVEL,
                        help="take the visit budget of this level (default: %(default)s; no time cap)")
    parser.add_argument("--top", type=int, default=5, help="moves listed in 'top' (default: %(default)s)")
    parser.add_argument("--batch", type=int, default=32,
                        help="positions searched together, their leaves sharing network calls (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--threads", type=threads_arg, default=1, metavar="N",
                        help="search threads sharing each tree (default: %(default)s; more use more cores where "
                             "the model runs; visits then vary from run to run)")

    def body(args) -> int:
        from ..core.mcts import MCTS
        from ..play.players import level_visits, play_search_config
        for name in ("sims", "movetime", "top", "batch"):
            value = getattr(args, name)
            if value is not None and value <= 0:
                raise UsageError(f"--{name} must be positive, not {value}")
        game = game_from_args(args.game, args.size, args.rule)
        if args.positions_file:
            from ..core.safefile import UnreadableFile, read_text
            try:   # a pipe or a device is refused, never waited on
                lines = read_text(args.positions_file, "positions").splitlines()
            except UnreadableFile as e:
                raise UsageError(f"cannot read positions file {args.positions_file}: it {e}") from None
            whole = positions_have_spaces(game)
            texts = [position_from_line(l, whole) for l in lines if l.strip() and not l.lstrip().startswith("#")]
        else:
            texts = [args.position or ""]
        evaluator, description = evaluator_from_args(game, args.model)
        from ..play.players import NO_MODEL, ROLLOUT, without_model_note
        if description == NO_MODEL and args.model != ROLLOUT:   # not asked for: say so
            print(f"note: {without_model_note(game)}", file=sys.stderr, flush=True)
        mcts = MCTS(evaluator, play_search_config(game), seed=args.seed, threads=args.threads)
        sims = args.sims or level_visits(game, args.level)
        chunk = 1 if args.movetime else args.batch
        for i in range(0, len(texts), chunk):
            analyse_chunk(game, mcts, texts[i:i + chunk], sims, args.movetime, args.top)
        return 0

    return run_command(parser, argv, body)


def analyse_chunk(game, mcts, texts: list[str], sims: int, movetime_ms: int | None, top: int) -> None:
    """Search a few positions together and print their JSON lines in order."""
    from games.base import NotationError
    from ..core.mcts import Tree
    records: list[dict | None] = []
    trees = []
    for text in texts:
        try:
            state = parse_position(game, text)
        except NotationError as e:
            records.append({"position": text, "error": str(e)})
            continue
        except Exception as e:  # a game's parser tripping over garbage must not end the run
            records.append({"position": text, "error": f"cannot read the position: {type(e).__name__}: {e}"})
            continue
        if state.is_terminal():
            w = state.winner()
            outcome = "a draw" if w is None else f"won by player {w}"
            records.append({"position": text, "error": f"the game is over ({outcome}); there is no move to search"})
            continue
        records.append(None)
        trees.append((text, Tree(state)))
    if trees:
        if movetime_ms:
            deadline = time.perf_counter() + movetime_ms / 1000.0
            mcts.search([t for _, t in trees], 2_000_000, deadline=deadline)
        else:
            mcts.search([t for _, t in trees], sims)
    done = iter(trees)
    for rec in records:
        if rec is None:
            text, tree = next(done)
            rec = _analysis_record(text, tree, top)
        print(json_text(rec, ensure_ascii=False), flush=True)


# --- arena ------------------------------------------------------------------------

def arena_main(argv: list[str]) -> int:
    """``python main.py arena``: two players, N games alternating who starts, score and Elo as JSON."""
    from ..play.baselines import OPENING_PLIES
    from .specs import SPEC_HELP
    parser = ArgParser(prog="main.py arena", description=(
        "Play two players against each other, alternating who starts, and print one JSON object with "
        "A's wins/draws/losses, score and Elo difference (95% interval). Player specs: " + SPEC_HELP +
        ". MCTS players sample their first --opening-plies moves (temperature 1) so that games differ."))
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    add_rule_option(parser)
    parser.add_argument("--a", required=True, metavar="SPEC", help="player A")
    parser.add_argument("--b", required=True, metavar="SPEC", help="player B")
    parser.add_argument("--games", type=int, default=10, help="games to play (default: %(default)s)")
    parser.add_argument("--opening-plies", type=int, default=OPENING_PLIES,
                        help="plies MCTS players sample for variety (default: %(default)s)")
    parser.add_argument("--balanced-openings", type=int, metavar="PLIES",
                        help="start each pair of games from the same PLIES uniformly random moves, the players "
                             "swapping colours, with no sampling by MCTS players (for deterministic opponents: "
                             "the variety comes from the openings and their luck cancels); --games must be even")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--progress", action="store_true",
                        help="a plain line on stderr after every game (default: a bar on a terminal, "
                             "else a line per tenth of the games or per 30 s)")
    parser.add_argument("--quiet", action="store_true", help="no progress on stderr")
    parser.add_argument("--games-out", metavar="PATH",
                        help="also write each game as one JSON line to PATH: its start position, moves, "
                             "who was first and the result for A")

    def body(args) -> int:
        from ..core.progress import Progress
        from ..play.arena import play_match, random_openings
        from .specs import SpecError, close_player, player_from_spec
        from ..protocols.uci_client import UCIEngineError
        if args.games <= 0:
            raise UsageError(f"--games must be positive, not {args.games}")
        if args.opening_plies < 0:
            raise UsageError("--opening-plies cannot be negative")
        balanced = args.balanced_openings
        if balanced is not None and (balanced < 1 or args.games % 2):
            raise UsageError("--balanced-openings needs a positive number of plies and an even --games")
        game = game_from_args(args.game, args.size, args.rule)
        openings = None
        if balanced:
            try:
                openings = random_openings(game, args.games // 2, balanced, args.seed)
            except ValueError as e:
                raise UsageError(str(e)) from None
        sampled = 0 if balanced else args.opening_plies
        records = None
        if args.games_out:
            try:
                records = open(args.games_out, "w", encoding="utf-8")
            except OSError as e:
                raise UsageError(f"cannot write --games-out {args.games_out}: {e.strerror or e}") from None
        players = []
        try:
            for spec, seed in ((args.a, args.seed), (args.b, args.seed + 1)):
                try:
                    players.append(player_from_spec(game, spec, seed=seed, opening_plies=sampled))
                except SpecError as e:
                    raise UsageError(str(e)) from None
            start = time.perf_counter()
            progress = Progress(args.games, "arena", "games", enabled=not args.quiet, every_unit=args.progress)

            from ..play.arena import MatchResult, game_record
            finished = [MatchResult()]   # the tally of the games played so far

            def on_game(i, r):
                finished[0] = MatchResult(r.wins, r.draws, r.losses, r.games)
                progress.info(f"A +{r.wins} ={r.draws} -{r.losses}")
                progress.update()

            records_failed: list[str] = []   # why --games-out could not be written ([] while it can)

            def on_record(i, a_first, start, final, actions, outcome):
                if records_failed:
                    return
                line = {"game": i + 1, "a_first": a_first, **game_record(start, final, actions, outcome)}
                try:
                    records.write(json.dumps(line, ensure_ascii=False) + "\n")
                    records.flush()
                except OSError as e:   # a full disk: the match goes on, and says what is missing
                    records_failed.append(f"cannot write --games-out {args.games_out} from game {i + 1} on: "
                                          f"{e.strerror or e}")
                    print(records_failed[0], file=sys.stderr)

            def report(result, stopped: str | None = None) -> None:
                out = {"game": game.key, "a": args.a, "b": args.b,
                       "a_name": getattr(players[0], "name", args.a), "b_name": getattr(players[1], "name", args.b),
                       **result.to_dict(), "opening_plies": sampled,
                       **({"balanced_openings": balanced} if balanced else {}),
                       "seconds": round(time.perf_counter() - start, 2),
                       **({"stopped": stopped} if stopped else {})}
                print(json_text(out, ensure_ascii=False), flush=True)
            try:
                result = play_match(game, players[0], players[1], args.games, on_game=on_game, openings=openings,
                                    on_record=on_record if records is not None else None)
            except UCIEngineError as e:
                # an engine that fails mid-match: its finished games still count, said so
                progress.close()
                print(f"arena stopped after {finished[0].games} of {args.games} games: {e}", file=sys.stderr)
                report(finished[0], stopped=f"after {finished[0].games} of {args.games} games: {e}")
                return 1
            progress.close()
            report(result)
            return 1 if records_failed else 0
        finally:
            for p in players:
                close_player(p)
            if records is not None:
                try:
                    records.close()
                except OSError:   # what could not be written has been said (on_record)
                    pass

    return run_command(parser, argv, body)


# --- bench ------------------------------------------------------------------------

def sample_positions(game, count: int, seed: int = 0) -> list:
    """``count`` non-terminal positions from random play in the first quarter of a game (deeper
    ones reach the end so soon that their simulations are mostly free terminal visits)."""
    import random
    rng = random.Random(seed)
    out = []
    limit = max(2, (game.max_game_length or 60) // 4)
    while len(out) < count:
        state = game.initial_state()
        for _ in range(rng.randrange(limit)):
            nxt = state.apply(rng.choice(state.legal_actions()))
            if nxt.is_terminal():
                break
            state = nxt
        out.append(state)
    return out


#: each throughput figure is the best of this many windows (robust to other load on the machine)
WINDOWS = 5


def _search_rate(mcts, positions: list, trees_per_search: int, visits: int, leaf_batch: int,
                 seconds: float) -> tuple[float, float]:
    """(simulations per second, share of simulations that needed the network) of searches of
    ``trees_per_search`` fresh trees each, for ``seconds``."""
    from ..core.mcts import Tree
    mcts.search([Tree(positions[0])], min(visits, 16), leaf_batch=leaf_batch)  # warm-up
    sims, k = 0, 0
    evaluated = mcts.evaluator.positions
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        trees = [Tree(positions[(k + j) % len(positions)]) for j in range(trees_per_search)]
        k += trees_per_search
        sims += mcts.search(trees, visits, deadline=deadline, leaf_batch=leaf_batch)
    return sims / (time.perf_counter() - start), (mcts.evaluator.positions - evaluated) / max(sims, 1)


#: leaf batches whose single-game search speed ``bench`` reports (the play leaf batch is chosen among them)
LEAF_BATCHES = (1, 4, 8, 16, 32)


def bench_main(argv: list[str]) -> int:
    """``python main.py bench``: network runtimes, search throughput and tree memory, as one JSON line."""
    parser = ArgParser(prog="main.py bench", description=(
        "Measure, on one thread: every network runtime (torch float32 and bfloat16, ONNX Runtime float32, "
        "dynamic int8 and static int8) at batches 1, 8 and 64, and their accuracy against torch float32 on positions of the network's "
        "own games (runtimes, accuracy_vs_torch_fp32); the runtimes this machine chooses for play and "
        "self-play (timed again and remembered in the user cache, where play and self-play read them); the "
        "network alone at self-play's batch (parallel_games * leaf_batch) and at 64 in the play runtime; "
        "batched multi-game search (parallel_games trees of selfplay.sims visits); one game's search at the "
        "strong level's visits for several leaf batches; and the memory of a search tree. search_tree says "
        "whether the compiled search tree or the Python one ran. "
        "Each search figure is the best of 5 windows of --seconds/5, each runtime figure the best of 0.1 s "
        "windows, the runtimes taking turns, for --seconds each (other load on the machine only slows windows "
        "down). Searches start from positions of random play's first quarter; *_net_share is the "
        "share of simulations that needed the network (the rest reached a finished game). "
        "Without --model a random network of the game's configured shape is used."))
    parser.add_argument("--game", required=True, help="game id")
    parser.add_argument("--size", type=int, help="board size for games with variants")
    add_rule_option(parser)
    parser.add_argument("--model", help="model file (default: a random network of the configured shape)")
    parser.add_argument("--seconds", type=float, default=5.0,
                        help="time spent on each throughput figure (default: %(default)s)")
    parser.add_argument("--accuracy-positions", type=int, default=2000,
                        help="positions on which each runtime's accuracy is measured (0: skip; default: %(default)s)")
    parser.add_argument("--tree-nodes", type=int, default=100_000,
                        help="nodes of the tree whose memory is measured (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)

    def body(args) -> int:
        import torch
        from ..core.checkpoint import CheckpointError, load_network
        from ..core import mcts as mcts_module
        from ..core.config import load_config
        from ..core.mcts import MCTS, SearchConfig
        from ..core.network import NetConfig, PolicyValueNet, configure_threads, count_parameters
        from ..core.onnxnet import export_bytes, file_sha256, session
        from ..core.runtime import candidates_for, choose, positions_per_s, sample_planes
        from ..core.treememory import measure_tree_memory
        from ..play.players import DEFAULT_LEVEL, LEVEL_SETTINGS, play_leaf_batch
        from .runtimes import compare_runtimes
        if args.seconds <= 0 or args.tree_nodes <= 0 or args.accuracy_positions < 0:
            raise UsageError("--seconds and --tree-nodes must be positive, --accuracy-positions not negative")
        wall = time.perf_counter()
        game = game_from_args(args.game, args.size, args.rule)
        configure_threads(1)
        torch.manual_seed(args.seed)
        cfg = load_config(game)
        if args.model:
            try:
                net, _ = load_network(args.model, game)
            except CheckpointError as e:
                raise UsageError(str(e)) from None
        else:
            net = PolicyValueNet(NetConfig.for_game(game, cfg.net.blocks, cfg.net.channels, cfg.net.value_hidden,
                                                      cfg.net.global_pool)).eval()
        sp = cfg.selfplay
        net_batch = sp.parallel_games * sp.leaf_batch
        single_visits = LEVEL_SETTINGS[DEFAULT_LEVEL].sims
        leaf_batch = play_leaf_batch(game)
        positions = sample_positions(game, max(64, sp.parallel_games), args.seed)
        window = args.seconds / WINDOWS
        runtimes = compare_runtimes(net, game, seconds=args.seconds, accuracy_positions=args.accuracy_positions,
                                    seed=args.seed)
        sess = session(export_bytes(net))
        net_cfg = net.cfg.to_dict()
        measured = runtimes.get("accuracy_vs_torch_fp32")
        accurate = {name for name, a in measured.items() if a["accurate"]} if measured else None
        digest = file_sha256(args.model) if args.model else None
        play_runtime, evaluator = choose(net, net_cfg, leaf_batch, "play", candidates_for("play"), sess=sess,
                                         game=game, digest=digest, accurate=accurate, retime=True)
        sp_runtime, sp_eval = choose(net, net_cfg, net_batch, "selfplay", candidates_for("selfplay", sp.precision),
                                     sess=sess, game=game, digest=digest, accurate=accurate, retime=True)
        net_rate = positions_per_s(sp_eval, sample_planes(net_cfg, net_batch, args.seed), window, WINDOWS)
        net64 = positions_per_s(evaluator, sample_planes(net_cfg, 64, args.seed), window, WINDOWS)
        sp_mcts = MCTS(sp_eval, SearchConfig(cpuct=sp.cpuct))
        batched, batched_share = max(_search_rate(sp_mcts, positions, sp.parallel_games, sp.sims, sp.leaf_batch,
                                                  window) for _ in range(WINDOWS))
        mcts = MCTS(evaluator, SearchConfig(cpuct=sp.cpuct))
        by_leaf, share = {}, {}
        for _ in range(WINDOWS):   # interleaved: load on the machine falls on every leaf batch alike
            for lb in sorted(set(LEAF_BATCHES) | {leaf_batch}):
                rate, sh = _search_rate(mcts, positions, 1, single_visits, lb, window / 2)
                if rate > by_leaf.get(lb, 0.0):
                    by_leaf[lb], share[lb] = rate, sh
        memory = measure_tree_memory(game, args.tree_nodes)
        nc = net.cfg
        single, unbatched = by_leaf[leaf_batch], by_leaf[1]
        out = {"game": game.key, "model": args.model or "random weights",
               "net": {"blocks": nc.blocks, "channels": nc.channels, "value_hidden": nc.value_hidden,
                       "global_pool": nc.global_pool, "input": [nc.in_planes, nc.height, nc.width], "actions": nc.action_size,
                       "parameters": count_parameters(net)},
               "threads": 1, "search_tree": "compiled" if mcts_module._tree_c else "python", "runtimes": runtimes,
               "play_runtime": play_runtime, "selfplay_runtime": sp_runtime, "net_batch": net_batch,
               "parallel_games": sp.parallel_games, "leaf_batch": sp.leaf_batch, "selfplay_sims": sp.sims,
               "single_sims": single_visits, "single_leaf_batch": leaf_batch,
               "net_positions_per_s": round(net_rate, 1), "play_net_positions_per_s_batch64": round(net64, 1),
               "batched_sims_per_s": round(batched, 1),
               "single_sims_per_s": round(single, 1), "single_unbatched_sims_per_s": round(unbatched, 1),
               "single_sims_per_s_by_leaf_batch": {str(k): round(v, 1) for k, v in sorted(by_leaf.items())},
               "single_net_share_by_leaf_batch": {str(k): round(v, 3) for k, v in sorted(share.items())},
               "batched_efficiency": round(batched / net_rate, 3) if net_rate else None,
               "single_vs_net64": round(single / net64, 3) if net64 else None,
               "leaf_batching_speedup": round(single / unbatched, 3) if unbatched else None,
               "batched_net_share": round(batched_share, 3), "single_net_share": round(share[leaf_batch], 3),
               **memory, "seconds_per_measurement": args.seconds, "wall_s": round(time.perf_counter() - wall, 1)}
        print(json_text(out), flush=True)
        return 0

    return run_command(parser, argv, body)


__all__ = ["analyse_main", "arena_main", "bench_main", "ArgParser", "UsageError", "run_command", "game_from_args",
           "evaluator_from_args", "parse_position", "position_from_line", "positions_have_spaces", "sample_positions"]
