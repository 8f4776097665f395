"""Per-game settings for the network, search and training.

Defaults are derived from the game's shape, so a new game works without any file;
``engine/core/configs/<game id>.toml`` overrides them section by section (readable,
commented, and the place to tune a game).
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from .safefile import UnreadableFile, read_text

CONFIG_DIR = Path(__file__).resolve().parent / "configs"


@dataclass
class NetSettings:
    blocks: int = 4
    channels: int = 64
    value_hidden: int = 64
    #: residual blocks, the last ones, with global pooling (engine.core.network). A run resumed
    #: or started from a network with fewer gets the missing pooling layers at zero
    global_pool: int = 0
    #: an ownership head learning who holds each cell at the game's end (games whose states
    #: offer ``ownership()``: gomoku, othello), an auxiliary target weighted by
    #: ``[train] ownership_weight``; added to a run's network as global_pool is
    ownership: bool = False
    #: a second policy head learning the opponent's reply (the next position's policy target,
    #: KataGo's auxiliary opponent-move target), weighted by ``[train] opponent_policy_weight``;
    #: added to a run's network as global_pool is
    opponent_policy: bool = False
    #: a win/draw/loss value head (three outputs) in place of the single value: the value the
    #: search reads is P(win) - P(loss), and self-play with ``[selfplay] draw_winner`` steers by
    #: its own scoring of draws while the head learns the real outcome. A run resumed or started
    #: from a network with the single value gets the new head from the old one's output
    wdl: bool = False
    #: a material head learning the material balance at the game's end (games whose states
    #: offer ``material()``: xiangqi) from the value head's hidden layer, an auxiliary target
    #: weighted by ``[train] material_weight``; added to a run's network as global_pool is
    material: bool = False
    #: the input planes the network reads: 0 for all of its game's encoding; an earlier
    #: encoding's count (``Game.legacy_planes``, xiangqi's 16 before its attack planes) keeps a
    #: network on that encoding (a comparison's base arm). A run resumed or started from a
    #: network reading fewer planes than this asks gets the missing ones at zero weights
    in_planes: int = 0


@dataclass
class SelfPlaySettings:
    sims: int = 200                 # full-search visits per move
    fast_sims: int = 0              # playout-cap randomisation: cheap search visits (0 = off)
    full_search_prob: float = 1.0   # share of moves that get the full search
    # The first full_search_plies searched moves of every game (counted after a random start)
    # always get the full search, with its policy target; playout-cap randomisation then applies
    # to the rest. 0 = off. Where the opening's policy is what the network gets wrong, this gives
    # every game's opening a policy target at the cost of a few full searches a game.
    full_search_plies: int = 0
    record_fast: bool = True        # keep cheap-search positions as value-only samples
    games_per_generation: int = 100
    parallel_games: int = 32        # games each worker plays at once (their leaves share network calls)
    leaf_batch: int = 4
    temperature_moves: int = 8      # plies played at temperature 1, then greedy
    dirichlet_alpha: float = 0.3
    dirichlet_eps: float = 0.25
    cpuct: float = 1.5
    resign_threshold: float = -0.95  # resign when the root value is below this (0 disables)
    resign_check_share: float = 0.1  # share of games played out to measure false resignations
    max_plies: int = 0               # 0: the game's own bound
    # An undecided game (a draw by rule, or stopped at max_plies) teaches the value 0 unless
    # this is > 0: then its value target is 0.8 tanh(heuristic / adjudicate_scale) from the game's
    # optional position heuristic (xiangqi: material), read at its last position. Early
    # xiangqi self-play almost never ends in mate, so without this the value head learns
    # nothing but "draw"; with it, it learns material first and mates later.
    adjudicate_scale: float = 0.0
    # Adjudication by a lasting lead (0 = off): a game in which one side's heuristic lead (xiangqi:
    # material in soldiers) has been at least this large for material_adjudicate_plies plies in
    # a row ends there, scored for the leader as an adjudicated game at its most (0.8), so the
    # value learns that such a lead decides a game, where weak self-play would often let it
    # slip into a draw. A share of the games (resign_check_share) is played out instead, to
    # count how often the leader then fails to win (lead_checked, false_lead in the stats).
    material_adjudicate: float = 0.0
    material_adjudicate_plies: int = 10
    # The search's value of a drawn finished game for the side whose move drew it (contempt when
    # < 0): steers self-play away from drawing by repetition while the value head knows nothing
    # better. The game's value target is unchanged (0, or adjudicated).
    draw_value: float = 0.0
    # The value target mixes in the search's own value of each position: (1 - w) * outcome +
    # w * root value. The outcome alone blames every move of a lost game for one late blunder;
    # the search's value (exact where the solver proved it) is a less noisy, if biased, target.
    value_q_weight: float = 0.0
    # The network's runtime in self-play: "auto" takes the fastest on this machine at the
    # self-play batch (engine/core/runtime.py: torch float32, ONNX Runtime float32, or torch
    # bfloat16 where the checkpoint passes the accuracy check: values within 0.01 on average
    # and the same first choice in 99% of 2,000 positions; connect4's network does, xiangqi's
    # does not); "fp32" or "bf16" force torch in that format, with no check; "int8" takes ONNX
    # Runtime's static int8 (engine/core/int8.py: each checkpoint quantized in memory when a
    # self-play batch loads it) wherever it is faster here than float32, with no accuracy check:
    # it misses the play bar on every network, and is set only where an equal-visits match
    # showed no strength loss (docs/network-int8.md).
    precision: str = "auto"
    # Evaluations a self-play worker remembers across its games' searches, so that a position
    # met again (a transposition, or a shared opening) costs no network call
    # (engine.core.evaluators.BatchNetEvaluator.remember; the answers are the network's own,
    # so the games are those without it). 0 = none: where searches meet few transpositions
    # (gomoku, othello) hashing every leaf costs more than it saves. docs/performance.md,
    # "Remembered evaluations".
    memory: int = 0
    # Gumbel root search (engine/core/gumbel.py) instead of PUCT with Dirichlet noise when > 0:
    # this many moves are considered at the root (Gumbel top-k), sequential halving spreads the
    # visits over them, and the policy target is the improved policy softmax(logit + sigma(q)),
    # so a few dozen visits a move still improve the policy. The first temperature_moves plies
    # are sampled from that improved policy, later ones are the search's choice.
    gumbel_considered: int = 0
    gumbel_c_visit: float = 50.0
    gumbel_c_scale: float = 0.1
    # The game's tactical hooks in the self-play search (SearchConfig.tactics: xiangqi's capture
    # look-ahead and winning-capture prior, gomoku's four points). Play always uses them;
    # self-play only where tactics = true, with capture_scale for xiangqi's leaf values.
    tactics: bool = False
    capture_scale: float = 0.0
    # The game's slower proofs in the self-play search (SearchConfig.proofs: gomoku's victories
    # by continuous threats, right below the root and at it). Play always uses them. false
    # searches as ZEROBOARD_GOMOKU_VCT_BUDGET=0 did, and is recorded with the run's settings.
    proofs: bool = True
    # KataGo's forced playouts and policy target pruning (PUCT self-play's full searches; 0 = off):
    # a root move with fewer than sqrt(forced_playouts * prior * root visits) visits is searched
    # before PUCT's choice, so moves that Dirichlet noise favoured get a fair look, and the policy
    # target then takes back those visits that PUCT alone would not have given (a move left with
    # one visit counts none). KataGo uses 2.
    forced_playouts: float = 0.0
    # Random openings (KataGomo's and Rapfi's self-play start this way): a share of the games
    # begins with this many uniformly random legal moves, neither searched nor recorded, and
    # the temperature_moves sampled plies count from there. Gives the buffer unbalanced starts
    # and so decided games where self-play between equals would end drawn. 0 = off.
    random_opening_plies: int = 0
    random_opening_share: float = 1.0
    # With random_opening_min_plies >= 0, each random start takes a number of random moves drawn
    # uniformly from random_opening_min_plies to random_opening_plies (both included), so the
    # buffer sees unbalanced positions at every stage of the opening and middle game, not one
    # ply count; -1 = exactly random_opening_plies.
    random_opening_min_plies: int = -1
    # "Armageddon" draws: a game drawn on the board (a full gomoku board, say) counts as a win
    # for this player (0 or 1) in the self-play searches and in the value targets, so that
    # self-play between equals whose games end drawn still teaches the value head who did
    # better; -1 = off (a draw is a draw). Games stopped at max_plies or adjudicated are not
    # affected. Play always scores a draw as a draw.
    draw_winner: int = -1


@dataclass
class TrainSettings:
    batch_size: int = 256
    steps_per_generation: int = 200
    buffer_positions: int = 200_000   # sliding window of the most recent positions
    min_buffer: int = 2_000           # train only once this many positions exist
    lr: float = 2e-3
    lr_final: float = 2e-4            # cosine decay over `lr_decay_generations`
    lr_decay_generations: int = 200
    weight_decay: float = 1e-4
    ownership_weight: float = 1.0     # the ownership loss's share (mean over cells), with [net] ownership
    opponent_policy_weight: float = 0.15  # the opponent's-reply loss's share, with [net] opponent_policy (KataGo: 0.15)
    material_weight: float = 1.0      # the final-material loss's share (squared error), with [net] material
    arena_games: int = 20             # games against the previous generation (evaluation only)
    arena_sims: int = 50
    baseline_games: int = 10          # games against rollout MCTS
    baseline_playouts: int = 200
    baseline_every: int = 5           # play the rollout baseline every this many generations
    channels_last: bool = False       # learning steps in the channels-last layout (docs/training.md, 2026-11-30)


@dataclass
class PlaySettings:
    # Leaves one search gathers per network call in play and analysis (virtual loss spreads
    # them over the tree). More leaves a call pay where the network's cost per position falls
    # with the batch; chosen per game by `bench` (single_sims_per_s_by_leaf_batch), docs/performance.md.
    leaf_batch: int = 8
    # Board symmetries each network evaluation in play and analysis averages over
    # (engine.core.evaluators.SymmetryEvaluator: the position is evaluated under the first N of
    # the game's symmetries in one network call, and the results turned back and averaged).
    # 1 = the network alone. More costs about N times the network's work per visit.
    symmetries: int = 1
    # The search's exploration constant and first-play urgency in play and analysis (an
    # unvisited move is valued at its parent's value minus fpu_reduction). Self-play keeps its
    # own ([selfplay] cpuct).
    cpuct: float = 1.5
    fpu_reduction: float = 0.25
    # The network's priors taken to the power 1/policy_temperature before the search uses them
    # (above 1: flatter, so the search tries moves the policy underrates). 1 = as learnt.
    policy_temperature: float = 1.0
    # How the move to play is chosen: 0 = the most visited; above 0, the best lower confidence
    # bound q - select_lcb / sqrt(visits) among moves with a tenth of the top visits or more
    # (engine.core.mcts.SearchConfig.select_lcb).
    select_lcb: float = 0.0
    # Games with a position heuristic (xiangqi: material): the material the leaf's mover has
    # won or lost since the search's root, divided by material_scale, added to the network's
    # value at each leaf in atanh space (engine.core.mcts.SearchConfig.material_scale). 0 = off.
    material_scale: float = 0.0
    # Games with slower proofs (gomoku's victories by continuous threats): how hard they look,
    # 1-3 (engine.core.mcts.SearchConfig.proof_effort; gomoku's deeper VCT measured at no gain,
    # docs/performance.md, 2026-12-02).
    proof_effort: int = 1
    # Evaluations the play evaluator remembers, so that a position the search meets again by
    # another order of moves (a transposition) is answered without the network
    # (engine.core.evaluators.BatchNetEvaluator.remember). 0 = none. It pays where a search
    # meets many transpositions (Connect Four, xiangqi) and costs a few percent (hashing each
    # leaf) where it meets few (gomoku, othello): docs/performance.md, "Remembered evaluations".
    memory: int = 0
    # With the memory: a leaf it holds is backed up as the search gathers its leaves, so the
    # network's batches hold only positions it has not seen (engine.core.mcts.MCTS.recall_in_gather);
    # false: such a leaf waits in the batch, and the search is the one without the memory.
    # Kept where it measured faster and no weaker (Connect Four; docs/performance.md,
    # "Remembered leaves backed up as they are gathered").
    memory_in_gather: bool = False


@dataclass
class GameConfig:
    game_id: str
    net: NetSettings = field(default_factory=NetSettings)
    play: PlaySettings = field(default_factory=PlaySettings)
    selfplay: SelfPlaySettings = field(default_factory=SelfPlaySettings)
    train: TrainSettings = field(default_factory=TrainSettings)


def _defaults(game) -> GameConfig:
    h, w = game.board_shape
    cells = h * w
    cfg = GameConfig(game.id)
    # AlphaZero scaled alpha inversely with the typical number of legal moves
    cfg.selfplay.dirichlet_alpha = round(min(1.0, max(0.03, 10.0 / max(cells, 1))), 3)
    cfg.selfplay.temperature_moves = max(2, cells // 8)
    return cfg


def _merge(obj, values: dict, where: str):
    known = {f.name for f in fields(obj)}
    for k, v in values.items():
        if k not in known:
            raise ValueError(f"{where}: unknown setting {k!r}")
        current = getattr(obj, k)
        if isinstance(current, float) and isinstance(v, int) and not isinstance(v, bool):
            v = float(v)
        # a yes/no where a number is asked (leaf_batch = true) is refused: bool is an int to Python
        if not isinstance(v, type(current)) or isinstance(v, bool) != isinstance(current, bool):
            raise ValueError(f"{where}: {k} must be {type(current).__name__}, not {v!r}")
        setattr(obj, k, v)


#: the values the play search's constants may take ([play] and a model spec's options)
PLAY_SEARCH_RANGES = {"cpuct": (0.05, 20.0), "fpu_reduction": (0.0, 2.0), "policy_temperature": (0.25, 5.0),
                      "select_lcb": (0.0, 5.0), "material_scale": (0.0, 1000.0), "proof_effort": (1, 3)}

#: the network's number formats (`evaluators.NetworkEvaluator`'s precision)
PRECISIONS = ("auto", "fp32", "bf16")
#: what ``[selfplay] precision`` may say: those, or ONNX Runtime's static int8
SELFPLAY_PRECISIONS = (*PRECISIONS, "int8")
_CHOICES = {("selfplay", "precision"): SELFPLAY_PRECISIONS}
#: the most evaluations ``[play]`` or ``[selfplay] memory`` may keep (a few hundred MB)
MAX_MEMORY = 1 << 20


INF = float("inf")
#: (section, setting) -> the values a number may take (NaN never): out of these, a run hangs (no
#: game in flight, no leaf gathered) or fails deep in torch (NaN learning rate, an empty batch, a
#: layer of terabytes). The network's sizes keep a checkpoint within what a model file may hold
#: (`checkpoint.MAX_UNCOMPRESSED_BYTES`). Settings whose bounds depend on another, or whose
#: message names an "off" value, are checked by `_check_choices` itself.
NUMBER_RANGES = {
    ("net", "blocks"): (0, 40), ("net", "channels"): (1, 384), ("net", "value_hidden"): (1, 1024),
    ("net", "in_planes"): (0, 256),
    ("selfplay", "sims"): (0, 1_000_000), ("selfplay", "fast_sims"): (0, 1_000_000),
    ("selfplay", "full_search_prob"): (0.0, 1.0), ("selfplay", "games_per_generation"): (1, 1_000_000),
    ("selfplay", "parallel_games"): (1, 4096), ("selfplay", "leaf_batch"): (1, 1024),
    ("selfplay", "temperature_moves"): (0, 100_000), ("selfplay", "dirichlet_alpha"): (0.0, 100.0),
    ("selfplay", "dirichlet_eps"): (0.0, 1.0), ("selfplay", "cpuct"): (0.0, 100.0),
    ("selfplay", "resign_threshold"): (-1.0, 1.0), ("selfplay", "resign_check_share"): (0.0, 1.0),
    ("selfplay", "max_plies"): (0, 100_000), ("selfplay", "adjudicate_scale"): (0.0, INF),
    ("selfplay", "draw_value"): (-1.0, 1.0), ("selfplay", "value_q_weight"): (0.0, 1.0),
    ("selfplay", "gumbel_considered"): (0, 100_000), ("selfplay", "gumbel_c_visit"): (0.0, INF),
    ("selfplay", "gumbel_c_scale"): (0.0, INF), ("selfplay", "capture_scale"): (0.0, INF),
    ("train", "batch_size"): (1, 65536), ("train", "steps_per_generation"): (0, 10_000_000),
    ("train", "buffer_positions"): (1, 1_000_000_000), ("train", "min_buffer"): (0, 1_000_000_000),
    ("train", "lr"): (0.0, 10.0), ("train", "lr_final"): (0.0, 10.0),
    ("train", "lr_decay_generations"): (1, 10_000_000), ("train", "weight_decay"): (0.0, 10.0),
    ("train", "arena_games"): (0, 1_000_000), ("train", "arena_sims"): (1, 1_000_000),
    ("train", "baseline_games"): (0, 1_000_000), ("train", "baseline_playouts"): (1, 1_000_000),
    ("train", "baseline_every"): (1, 1_000_000),
    ("selfplay", "material_adjudicate_plies"): (1, INF), ("selfplay", "random_opening_plies"): (0, 64),
    ("selfplay", "random_opening_share"): (0.0, 1.0), ("selfplay", "forced_playouts"): (0, 100),
    ("train", "ownership_weight"): (0.0, INF), ("train", "opponent_policy_weight"): (0.0, INF),
    ("train", "material_weight"): (0.0, INF),
    ("play", "leaf_batch"): (1, 1024), ("play", "symmetries"): (1, 8),
    **{("play", name): bounds for name, bounds in PLAY_SEARCH_RANGES.items()},
}


def _bound(x) -> str:
    """A range's end as a message writes it: 0.25, 1,000,000."""
    return f"{x:g}" if isinstance(x, float) else f"{x:,}"


def _check_choices(cfg: GameConfig, where: str) -> None:
    for (section, name), (low, high) in NUMBER_RANGES.items():
        value = getattr(getattr(cfg, section), name)
        if not low <= value <= high or value == INF:   # NaN fails too
            span = f"at least {_bound(low)}" if high == INF else f"between {_bound(low)} and {_bound(high)}"
            raise ValueError(f"{where} [{section}]: {name} must be {span}, not {value}")
    for (section, name), allowed in _CHOICES.items():
        value = getattr(getattr(cfg, section), name)
        if value not in allowed:
            raise ValueError(f"{where} [{section}]: {name} must be one of {', '.join(allowed)}, not {value!r}")
    for section in ("play", "selfplay"):
        memory = getattr(cfg, section).memory
        if not 0 <= memory <= MAX_MEMORY:
            raise ValueError(f"{where} [{section}]: memory must be between 0 (none) and {MAX_MEMORY:,} "
                             f"evaluations, not {memory}")
    if not cfg.selfplay.material_adjudicate >= 0:   # NaN fails too
        raise ValueError(f"{where} [selfplay]: material_adjudicate must be 0 (off) or more, "
                         f"not {cfg.selfplay.material_adjudicate}")
    if not 0 <= cfg.net.global_pool <= cfg.net.blocks:
        raise ValueError(f"{where} [net]: global_pool must be between 0 and blocks ({cfg.net.blocks}), "
                         f"not {cfg.net.global_pool}")
    if cfg.selfplay.full_search_plies < 0:
        raise ValueError(f"{where} [selfplay]: full_search_plies cannot be negative, "
                         f"not {cfg.selfplay.full_search_plies}")
    if not -1 <= cfg.selfplay.random_opening_min_plies <= cfg.selfplay.random_opening_plies:
        raise ValueError(f"{where} [selfplay]: random_opening_min_plies must be -1 (off) or between 0 and "
                         f"random_opening_plies ({cfg.selfplay.random_opening_plies}), "
                         f"not {cfg.selfplay.random_opening_min_plies}")
    if cfg.selfplay.draw_winner not in (-1, 0, 1):
        raise ValueError(f"{where} [selfplay]: draw_winner must be -1 (off), 0 or 1, "
                         f"not {cfg.selfplay.draw_winner}")
    if cfg.net.wdl and cfg.selfplay.draw_winner >= 0 and cfg.selfplay.value_q_weight > 0:
        raise ValueError(f"{where}: with [net] wdl and [selfplay] draw_winner, value_q_weight must be 0 "
                         f"(the search's values score draws by draw_winner, the value head learns the real outcome)")


def load_config(game, path: str | Path | None = None) -> GameConfig:
    """The game's settings: defaults, then engine/core/configs/<id>.toml, then ``path`` if given."""
    cfg = _defaults(game)
    files = [CONFIG_DIR / f"{game.id}.toml"]
    if path is not None:
        files.append(Path(path))
    for f in files:
        if not f.exists():
            if f != files[0]:
                raise ValueError(f"{f}: no such config file")
            continue
        try:   # a settings file given by a person: a regular file only, never waited on
            data = tomllib.loads(read_text(f, "config"))
        except UnreadableFile as e:
            raise ValueError(f"{f} {e}") from None
        except tomllib.TOMLDecodeError as e:
            raise ValueError(f"{f}: {e}") from None
        except RecursionError:
            raise ValueError(f"{f} is nested too deeply") from None
        for section, values in data.items():
            if section not in ("net", "play", "selfplay", "train") or not isinstance(values, dict):
                raise ValueError(f"{f}: unknown section [{section}]")
            _merge(getattr(cfg, section), values, f"{f} [{section}]")
        _check_choices(cfg, str(f))
    return cfg


def config_from_dict(game, data: dict) -> tuple[GameConfig, list[str]]:
    """Settings saved by a run (``run.json``) as a config: the game's defaults for anything the
    saved settings lack (settings added to the code since), and the names of saved settings
    this version no longer knows (dropped), so the caller can say so."""
    cfg = _defaults(game)
    dropped = []
    for section in ("net", "selfplay", "train"):
        values = data.get(section) or {}
        if not isinstance(values, dict):
            raise ValueError(f"saved settings: [{section}] is not a table")
        obj = getattr(cfg, section)
        known = {f.name for f in fields(obj)}
        dropped += [f"{section}.{k}" for k in values if k not in known]
        _merge(obj, {k: v for k, v in values.items() if k in known}, f"saved settings [{section}]")
    _check_choices(cfg, "saved settings")
    return cfg, dropped


def config_to_dict(cfg: GameConfig) -> dict:
    from dataclasses import asdict
    return asdict(cfg)


__all__ = ["GameConfig", "PRECISIONS", "SELFPLAY_PRECISIONS", "NetSettings", "PlaySettings", "SelfPlaySettings", "TrainSettings", "load_config",
           "config_from_dict", "config_to_dict", "replace"]
