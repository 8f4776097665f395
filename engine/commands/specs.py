"""Player specs: the strings that arenas and evaluations name their players with.

A *spec* is one string naming one player:

===============================  ==============================================================
``model:PATH[@SIMS]``            MCTS guided by the network in PATH, SIMS visits per move
                                 (default: the "strong" level's visits; no time cap)
``policy:PATH``                  the network alone: its highest-prior legal move, no search
``level:NAME``                   the app's AI at level NAME (shipped model, else rollout search)
``rollout:N``                    MCTS with uniform priors and one random playout per leaf, N per move
``random``                       uniformly random legal moves
``greedy``                       one ply deep: the move whose position the game's heuristic likes best
``solver``                       perfect play by exhaustive minimax (games of at most 16 plies)
``uci:COMMAND[@MS][?OPT=V&...]`` an external UCI engine started with COMMAND (split like a shell
                                 line), MS milliseconds per move (default 100), each ``OPT=V``
                                 sent as ``setoption name OPT value V``; ``V`` may be ``min`` or
                                 ``max`` to take the bound the engine declares for that option
===============================  ==============================================================

Example: ``uci:/usr/games/fairy-stockfish@100?UCI_LimitStrength=true&UCI_Elo=min``.

Variety: two deterministic players would replay the same two games, so MCTS-based
players (``model``, ``rollout`` and greedy ``level`` players) sample their first
``opening_plies`` moves in proportion to the visit counts (temperature 1) and play the
most visited move afterwards. Random, greedy and solver players break ties at random.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from ..play.baselines import OPENING_PLIES, OPENING_TEMPERATURE, SOLVER_MAX_PLIES, GreedyPlayer, NoHeuristicError, SolverPlayer

#: default thinking time of an external UCI engine, in milliseconds
UCI_DEFAULT_MOVETIME_MS = 100

SPEC_HELP = ("model:PATH[@SIMS], policy:PATH, level:NAME, rollout:N, random, greedy, solver, "
             "uci:COMMAND[@MS][?OPTION=VALUE&...]")


class SpecError(ValueError):
    """A player spec that cannot be used; the message names the spec and the problem."""


def find_fairy_stockfish() -> str | None:
    """Path of the fairy-stockfish engine (on PATH, or Debian's /usr/games), or None."""
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    debian = Path("/usr/games/fairy-stockfish")
    return str(debian) if debian.is_file() else None


def parse_uci_spec(rest: str) -> tuple[str, int, dict[str, str]]:
    """``COMMAND[@MS][?OPT=V&...]`` -> (command, movetime in ms, options)."""
    command, _, query = rest.partition("?")
    movetime = UCI_DEFAULT_MOVETIME_MS
    m = re.search(r"@(\d+)$", command)
    if m:
        movetime = int(m.group(1))
        command = command[:m.start()]
    command = command.strip()
    if not command:
        raise SpecError(f"uci:{rest}: no engine command (expected uci:COMMAND[@MS][?OPTION=VALUE&...])")
    if movetime <= 0:
        raise SpecError(f"uci:{rest}: the move time must be a positive number of milliseconds")
    options: dict[str, str] = {}
    for item in filter(None, query.split("&")):
        name, eq, value = item.partition("=")
        if not eq or not name.strip():
            raise SpecError(f"uci:{rest}: option {item!r} is not NAME=VALUE")
        options[name.strip()] = value.strip()
    return command, movetime, options


def _load_net_evaluator(game, path: str, spec: str):
    from ..core.checkpoint import CheckpointError
    from ..core.runtime import load_model_evaluator
    from ..play.players import play_leaf_batch
    try:
        return load_model_evaluator(Path(path), game, purpose="play", batch=play_leaf_batch(game))
    except CheckpointError as e:
        raise SpecError(f"{spec}: {e}") from None


def _positive_int(text: str, spec: str, what: str) -> int:
    if not text.isdigit() or int(text) <= 0:
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
        make_player, play_search_config, rollout_player
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
        path, at, sims_text = rest.rpartition("@")
        if not at or not sims_text.isdigit():
            path, sims_text = rest, ""
        sims = _positive_int(sims_text, spec, "the visit count") if sims_text else LEVEL_SETTINGS[DEFAULT_LEVEL].sims
        evaluator, meta = _load_net_evaluator(game, path, spec)
        player = MCTSPlayer(game, evaluator, sims=sims, seed=seed, config=play_search_config(game))
        player.name = f"model {Path(path).name} g{meta.get('generation', 0)} @{sims}"
        return _with_opening(player, opening_plies)
    if kind == "policy":
        evaluator, meta = _load_net_evaluator(game, rest, spec)
        player = PolicyPlayer(game, evaluator)
        player.name = f"policy {Path(rest).name} g{meta.get('generation', 0)}"
        return player
    if kind == "level":
        if rest not in LEVEL_SETTINGS:
            raise SpecError(f"{spec}: unknown level {rest!r}; choose one of: {', '.join(LEVELS)}")
        from ..core.checkpoint import CheckpointError
        try:
            player = make_player(game, rest, seed=seed)
        except CheckpointError as e:
            raise SpecError(f"{spec}: {e}") from None
        return _with_opening(player, opening_plies)
    if kind == "rollout":
        return _with_opening(rollout_player(game, _positive_int(rest, spec, "the playout count"), seed=seed),
                             opening_plies)
    if kind == "uci":
        from ..protocols.uci_client import UCIEngineError, UCIEnginePlayer
        command, movetime, options = parse_uci_spec(rest)
        try:
            return UCIEnginePlayer(game, command, movetime, options)
        except UCIEngineError as e:
            raise SpecError(f"{spec}: {e}") from None
    raise SpecError(f"bad player spec {spec!r}: unknown kind {kind!r}; expected one of: {SPEC_HELP}")


def close_player(player) -> None:
    """Release what a player holds (an external engine process); a no-op for the others."""
    close = getattr(player, "close", None)
    if callable(close):
        close()


__all__ = ["SpecError", "player_from_spec", "parse_uci_spec", "close_player", "find_fairy_stockfish", "SPEC_HELP"]
