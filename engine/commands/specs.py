"""Player specs: the strings that arenas and evaluations name their players with.

A *spec* is one string naming one player:

===============================  ==============================================================
``model:PATH[@SIMS][?OPT=V&...]`` MCTS guided by the network in PATH, SIMS visits per move
                                 (default: the "strong" level's visits; no time cap); ``sym=N``
                                 averages each evaluation over N board symmetries, ``cpuct=X``,
                                 ``fpu=X`` and ``ptemp=X`` set the search's exploration constant,
                                 first-play urgency reduction and policy temperature, ``lcb=X``
                                 chooses the move by a lower confidence bound, ``mat=X`` adds
                                 the material won since the root over X to the leaf values,
                                 ``effort=N`` (1-3) makes the game's slower proofs look harder
                                 (gomoku's VCT) (defaults: the game's ``[play]``); ``rt=fp32``, ``rt=int8``,
                                 ``rt=int8-checked`` or ``rt=wino`` runs the network in ONNX Runtime float32,
                                 static int8, static int8 with float32's second look at near
                                 ties, or float32 with Winograd's convolutions, whatever this
                                 machine's runtime choice (measurements)
``policy:PATH``                  the network alone: its highest-prior legal move, no search
``level:NAME[?cap=0&solve=N]``   the app's AI at level NAME (shipped model, else rollout search);
                                 ``cap=0``: its visits without the level's time cap (the level as
                                 a machine fast enough for the cap never to bind plays it);
                                 ``solve=N``: it proves its move with exact solves of at most N
                                 positions where the game has them (Connect Four: its opening
                                 book, then `solve_within`; `MCTSPlayer.solve_budget`)
``rollout:N``                    MCTS with uniform priors and one random playout per leaf, N per move
``random``                       uniformly random legal moves
``greedy``                       one ply deep: the move whose position the game's heuristic likes best
``solver``                       perfect play by exhaustive minimax (games of at most 16 plies)
``uci:COMMAND[@WORK][?OPT=V&...]`` an external UCI engine started with COMMAND (split like a shell
                                 line); WORK per move is ``MS`` milliseconds (default 100),
                                 ``depthN`` or ``nodesN`` (fixed work: ``go depth N``/``go nodes
                                 N``, the same on a busy machine); each ``OPT=V`` sent as
                                 ``setoption name OPT value V``; ``V`` may be ``min`` or ``max``
                                 to take the bound the engine declares for that option
``ucci:COMMAND[@WORK][?OPT=V&...]`` an external UCCI engine (xiangqi): ``go depth N``, ``go
                                 nodes N`` or ``go time MS movestogo 1``; options sent as
                                 ``setoption OPT V``
``gomocup:COMMAND[@WORK]``       an external Gomocup brain (gomoku): ``nodesN`` sends ``INFO
                                 max_node N`` (fixed work), ``MS`` ``INFO timeout_turn MS``
                                 (default 1000)
``nboard:COMMAND[@depthN]``      an external NBoard engine (othello): ``set depth N`` (default 8)
===============================  ==============================================================

Examples: ``uci:/usr/games/fairy-stockfish@100?UCI_LimitStrength=true&UCI_Elo=min``,
``ucci:/usr/games/fairy-stockfish@depth1``, ``gomocup:"python main.py pbrain"@nodes200``,
``nboard:"python main.py nboard"@depth2``.

Variety: two deterministic players would replay the same two games, so MCTS-based
players (``model``, ``rollout`` and greedy ``level`` players) sample their first
``opening_plies`` moves in proportion to the visit counts (temperature 1) and play the
most visited move afterwards. Random, greedy and solver players break ties at random.
"""
from __future__ import annotations

import math
import re
import shutil
from pathlib import Path

from ..core.config import PLAY_SEARCH_RANGES
from ..play.baselines import OPENING_PLIES, OPENING_TEMPERATURE, SOLVER_MAX_PLIES, GreedyPlayer, NoHeuristicError, SolverPlayer

#: default thinking time of an external UCI engine, in milliseconds
UCI_DEFAULT_MOVETIME_MS = 100

SPEC_HELP = ("model:PATH[@SIMS][?sym=N&cpuct=X&fpu=X&ptemp=X&lcb=X&mat=X&effort=N&rt=fp32|int8|int8-checked|wino], policy:PATH, level:NAME[?cap=0&solve=N], rollout:N, random, greedy, solver, "
             "uci:COMMAND[@WORK][?OPTION=VALUE&...], ucci:COMMAND[@WORK][?OPTION=VALUE&...], "
             "gomocup:COMMAND[@WORK], nboard:COMMAND[@depthN] (WORK: MS, depthN or nodesN)")
#: the external-engine kinds: their protocol, and work per move when the spec names none
ENGINE_KINDS = {"uci": {"movetime": UCI_DEFAULT_MOVETIME_MS}, "ucci": {"movetime": UCI_DEFAULT_MOVETIME_MS},
                "gomocup": {"movetime": 1000}, "nboard": {"depth": 8}}


class SpecError(ValueError):
    """A player spec that cannot be used; the message names the spec and the problem."""


def find_fairy_stockfish() -> str | None:
    """Path of the fairy-stockfish engine (on PATH, or Debian's /usr/games), or None."""
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    debian = Path("/usr/games/fairy-stockfish")
    return str(debian) if debian.is_file() else None


def parse_engine_spec(kind: str, rest: str) -> tuple[str, dict, dict[str, str]]:
    """``COMMAND[@WORK][?OPT=V&...]`` of an external-engine spec -> (command, work, options);
    work is {"movetime": ms}, {"depth": n} or {"nodes": n}."""
    from ..protocols.process import parse_work
    command, _, query = rest.partition("?")
    work = dict(ENGINE_KINDS[kind])
    m = re.search(r"@((?:depth|nodes|time)=?\d*|-?\d+)$", command)
    if m:
        try:
            work = parse_work(m.group(1), UCI_DEFAULT_MOVETIME_MS)
        except ValueError as e:
            raise SpecError(f"{kind}:{rest}: {e}") from None
        command = command[:m.start()]
    command = command.strip()
    if not command:
        raise SpecError(f"{kind}:{rest}: no engine command (expected {kind}:COMMAND[@WORK][?OPTION=VALUE&...])")
    options: dict[str, str] = {}
    for item in filter(None, query.split("&")):
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise SpecError(f"{kind}:{rest}: option {item!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    if options and kind in ("gomocup", "nboard"):
        raise SpecError(f"{kind}:{rest}: the {kind} protocol has no options to set")
    return command, work, options


def parse_uci_spec(rest: str) -> tuple[str, dict, dict[str, str]]:
    """``COMMAND[@WORK][?OPT=V&...]`` -> (command, work, options) for a ``uci:`` spec."""
    return parse_engine_spec("uci", rest)


#: a model spec's ``rt`` values and the runtimes they name
_RUNTIME_OPTIONS = {"fp32": "ort-fp32", "int8": "ort-int8-static", "int8-checked": "ort-int8-checked",
                    "wino": "wino-fp32"}


def _load_net_evaluator(game, path: str, spec: str, runtime: str | None = None):
    from ..core.checkpoint import CheckpointError
    from ..core.onnxnet import OnnxUnavailable
    from ..core.runtime import load_model_evaluator, load_named_evaluator
    from ..play.players import play_leaf_batch
    try:
        if runtime is not None:
            return load_named_evaluator(Path(path), game, _RUNTIME_OPTIONS[runtime])
        return load_model_evaluator(Path(path), game, purpose="play", batch=play_leaf_batch(game))
    except (CheckpointError, OnnxUnavailable) as e:
        raise SpecError(f"{spec}: {e}") from None
    except (ImportError, RuntimeError, ValueError) as e:   # ONNX Runtime missing, or a model it cannot run
        raise SpecError(f"{spec}: the network cannot run in the runtime {runtime} here ({e})") from None


#: a model spec's search options and the [play] settings they stand for
_SEARCH_OPTIONS = {"cpuct": "cpuct", "fpu": "fpu_reduction", "ptemp": "policy_temperature", "lcb": "select_lcb",
                   "mat": "material_scale", "effort": "proof_effort"}


def _model_options(rest: str, spec: str) -> tuple[str, dict]:
    """``PATH[@SIMS][?OPTION=VALUE&...]`` -> (``PATH[@SIMS]``, options): ``sym`` (board
    symmetries averaged, 1-8), ``cpuct`` (exploration constant), ``fpu`` (first-play urgency
    reduction), ``ptemp`` (policy temperature), ``lcb`` (the move chosen by a lower confidence
    bound, 0: the most visited), ``mat`` (material won or lost since the root, divided by it, in
    the leaf values; 0: off), ``effort`` (how hard the game's slower proofs look, 1-3); an option left out keeps the game's ``[play]`` setting."""
    head, q, query = rest.rpartition("?")
    if not q:
        return rest, {}
    options = {}
    for item in query.split("&"):
        name, eq, value = item.partition("=")
        name, value = name.strip().lower(), value.strip()
        if name == "rt" and eq:
            if value not in _RUNTIME_OPTIONS or name in options:
                raise SpecError(f"{spec}: rt must be given once, as fp32, int8, int8-checked or wino, not {value!r}")
            options[name] = value
            continue
        if (name not in ("sym", "rt") and name not in _SEARCH_OPTIONS) or not eq:
            raise SpecError(f"{spec}: unknown model option {item!r}; the options are sym=N (board symmetries "
                            f"averaged), cpuct=X (exploration), fpu=X (first-play urgency reduction), "
                            f"ptemp=X (policy temperature), lcb=X (move choice by a lower confidence bound), "
                            f"mat=X (material won since the root, in the leaf values), effort=N (how hard the slower proofs "
                            f"look, 1-3) and rt=fp32|int8|int8-checked|wino (the runtime)")
        if name in options:
            raise SpecError(f"{spec}: the option {name} is given twice")
        if name == "sym":
            count = _positive_int(value, spec, "sym")
            if count > 8:
                raise SpecError(f"{spec}: sym must be between 1 and 8, not {count}")
            options[name] = count
            continue
        low, high = PLAY_SEARCH_RANGES[_SEARCH_OPTIONS[name]]
        try:
            number = float(value)
        except ValueError:
            number = math.nan
        whole = isinstance(low, int)   # a setting counted in whole steps (proof_effort)
        if not low <= number <= high or (whole and not number.is_integer()):   # NaN fails too
            raise SpecError(f"{spec}: {name} must be a {'whole ' if whole else ''}number between {low:g} "
                            f"and {high:g}, not {value!r}")
        options[name] = int(number) if whole else number
    return head, options


def _positive_int(text: str, spec: str, what: str) -> int:
    # isascii: str.isdigit() is also true of digits int() refuses, such as '²'
    if not (text.isascii() and text.isdigit()) or int(text) <= 0:
        raise SpecError(f"{spec}: {what} must be a positive whole number, not {text!r}")
    return int(text)


def _with_opening(player, opening_plies: int):
    """Sample the first ``opening_plies`` moves (variety); greedy afterwards."""
    if opening_plies > 0 and player.temperature <= 0:
        player.temperature = OPENING_TEMPERATURE
        player.temperature_plies = opening_plies
    return player


def player_from_spec(game, spec: str, seed: int | None = None, opening_plies: int = OPENING_PLIES):
    """Build the player a spec names (see the module docstring); raises SpecError."""
    from ..play.players import LEVEL_SETTINGS, LEVELS, DEFAULT_LEVEL, MCTSPlayer, PolicyPlayer, RandomPlayer, \
        make_player, play_search_config, remembering_as_played, rollout_player, with_symmetries
    spec = spec.strip()
    kind, colon, rest = spec.partition(":")
    kind = kind.lower()
    if kind in ("random", "greedy", "solver") and not colon:
        if kind == "random":
            return RandomPlayer(game, seed)
        if kind == "greedy":
            try:
                return GreedyPlayer(game, seed)
            except NoHeuristicError as e:
                raise SpecError(str(e)) from None
        if game.max_game_length > SOLVER_MAX_PLIES:
            raise SpecError(f"solver: {game.key} is too large to solve exhaustively "
                            f"(only games of at most {SOLVER_MAX_PLIES} plies)")
        return SolverPlayer(game, seed)
    if not colon or not rest:
        raise SpecError(f"bad player spec {spec!r}; expected one of: {SPEC_HELP}")
    if kind == "model":
        rest, options = _model_options(rest, spec)
        symmetries = options.get("sym")
        path, at, sims_text = rest.rpartition("@")
        if not at or not (sims_text.isascii() and sims_text.isdigit()):
            path, sims_text = rest, ""
        sims = _positive_int(sims_text, spec, "the visit count") if sims_text else LEVEL_SETTINGS[DEFAULT_LEVEL].sims
        evaluator, meta = _load_net_evaluator(game, path, spec, options.get("rt"))
        evaluator = remembering_as_played(game, with_symmetries(game, evaluator, symmetries))
        search = {setting: options[o] for o, setting in _SEARCH_OPTIONS.items() if o in options}
        player = MCTSPlayer(game, evaluator, sims=sims, seed=seed, config=play_search_config(game, **search))
        player.name = f"model {Path(path).name} g{meta.get('generation', 0)} @{sims}"
        for name in ("sym", *_SEARCH_OPTIONS):
            if name in options:
                player.name += f" {name}{options[name]:g}"
        if "rt" in options:
            player.name += f" {options['rt']}"
        return _with_opening(player, opening_plies)
    if kind == "policy":
        evaluator, meta = _load_net_evaluator(game, rest, spec)
        player = PolicyPlayer(game, evaluator)
        player.name = f"policy {Path(rest).name} g{meta.get('generation', 0)}"
        return player
    if kind == "level":
        name, _, opts = rest.partition("?")
        if name not in LEVEL_SETTINGS:
            raise SpecError(f"{spec}: unknown level {name!r}; choose one of: {', '.join(LEVELS)}")
        settings = {}
        for item in opts.split("&") if opts else []:
            key, _, value = item.partition("=")
            if key in settings or not ((key == "cap" and value == "0") or key == "solve"):
                raise SpecError(f"{spec}: unknown option {item!r}; a level takes ?cap=0 (its visits, no time "
                                "cap) and solve=N (N positions for exact solves of its move, where the game has them)")
            settings[key] = value
        solve = _positive_int(settings["solve"], spec, "solve") if "solve" in settings else None
        from ..core.checkpoint import CheckpointError
        try:
            player = make_player(game, name, seed=seed)
        except CheckpointError as e:
            raise SpecError(f"{spec}: {e}") from None
        if "cap" in settings:  # the level as a machine fast enough for its time cap never to bind plays it
            player.seconds = None
        if solve is not None and hasattr(player, "solve_budget"):
            player.solve_budget = solve
        return _with_opening(player, opening_plies)
    if kind == "rollout":
        return _with_opening(rollout_player(game, _positive_int(rest, spec, "the playout count"), seed=seed),
                             opening_plies)
    if kind in ENGINE_KINDS:
        return _engine_player(game, kind, rest, spec)
    raise SpecError(f"bad player spec {spec!r}: unknown kind {kind!r}; expected one of: {SPEC_HELP}")


def _engine_player(game, kind: str, rest: str, spec: str):
    """An external engine speaking ``kind``'s protocol, as a player."""
    from ..protocols.process import EngineError
    command, work, options = parse_engine_spec(kind, rest)
    try:
        if kind == "uci":
            from ..protocols.uci_client import UCIEnginePlayer
            return UCIEnginePlayer(game, command, work.get("movetime", UCI_DEFAULT_MOVETIME_MS), options, work=work)
        if kind == "ucci":
            from ..protocols.ucci_client import UCCIEnginePlayer
            return UCCIEnginePlayer(game, command, work, options)
        if kind == "gomocup":
            from ..protocols.gomocup_client import GomocupBrainPlayer
            return GomocupBrainPlayer(game, command, work)
        from ..protocols.nboard_client import NBoardEnginePlayer
        return NBoardEnginePlayer(game, command, work)
    except EngineError as e:
        raise SpecError(f"{spec}: {e}") from None


def close_player(player) -> None:
    """Release what a player holds (an external engine process); a no-op for the others."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


__all__ = ["SpecError", "ENGINE_KINDS", "player_from_spec", "parse_uci_spec", "parse_engine_spec", "close_player", "find_fairy_stockfish", "SPEC_HELP"]
