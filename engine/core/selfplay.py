"""Self-play: one worker plays many games at once, their leaves sharing each network call.

Produces training samples (input planes, the search's visit distribution over the
legal actions, the final outcome for the player to move, and a policy weight that is
0 for the cheap searches of playout-cap randomisation), plus statistics.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from .gumbel import GumbelRule
from .mcts import MCTS, SearchConfig, Tree, select_action


@dataclass
class GameRecord:
    planes: list = field(default_factory=list)
    policy_idx: list = field(default_factory=list)
    policy_val: list = field(default_factory=list)
    players: list = field(default_factory=list)
    policy_weight: list = field(default_factory=list)
    root_values: list = field(default_factory=list)  # the search's value for the player to move
    moves: list = field(default_factory=list)
    winner: int | None = None
    resigned: bool = False
    would_resign: int | None = None   # set in played-out games whose loser would have resigned
    adjudicated: float | None = None  # value for player 0 of an undecided game, scored by heuristic
    lead: tuple[int, int] = (-1, 0)   # (the side whose heuristic lead is material_adjudicate or more, plies so)
    lead_won: int | None = None       # the leader of a game ended by its lasting lead
    would_lead_win: int | None = None  # set in played-out games whose leader would have been given the win
    check_lead: bool = False          # a game played out past a lasting lead, to check the adjudication
    ownership: np.ndarray | None = None  # the final position's State.ownership() (player 0's view), where the game has it
    material: float | None = None  # the final position's State.material() (player 0's view), where the game has it
    plies: list = field(default_factory=list)  # the ply of each recorded position (0: the first)
    start_ply: int = 0   # the first searched ply (after a random opening's moves, if any)
    drawn: bool = False  # drawn on the board and scored as a win for SelfPlaySettings.draw_winner


@dataclass
class SelfPlayStats:
    games: int = 0
    positions: int = 0
    plies: int = 0
    wins: list = field(default_factory=lambda: [0, 0])
    draws: int = 0
    resigned: int = 0
    resign_checked: int = 0
    false_resign: int = 0
    adjudicated: int = 0
    lead_won: int = 0
    lead_checked: int = 0
    false_lead: int = 0
    sims: int = 0
    seconds: float = 0.0
    #: the network's runtime(s) the games were played with (``runtime.RUNTIMES`` names, comma-separated)
    runtime: str = ""

    def add(self, other: "SelfPlayStats") -> None:
        self.runtime = ",".join(sorted({r for r in (self.runtime + "," + other.runtime).split(",") if r}))
        for k in ("games", "positions", "plies", "draws", "resigned", "resign_checked", "false_resign", "adjudicated",
                  "lead_won", "lead_checked", "false_lead", "sims", "seconds"):
            setattr(self, k, getattr(self, k) + getattr(other, k))
        self.wins = [a + b for a, b in zip(self.wins, other.wins)]


class SamplesBatch:
    """Columnar samples with the policy stored sparsely (legal actions only); ``own`` (int8,
    one row of H*W cells a sample: +1 the mover's at the game's end, -1 the opponent's, 0
    nobody's) and its weight ``own_w`` (0 where unknown) when the game has ownership; ``mat``
    (float32: the game's final ``State.material()`` for the sample's mover, in [-1, 1]) and its
    weight ``mat_w`` (0 where unknown) when the records carry it.

    ``reply_w``: the weight of a sample's opponent's-reply target, which is the policy target
    of the next sample: that sample's policy weight where it is the same game's next ply and
    the opponent's move, else 0 (a game's last position, a position whose next ply went
    unrecorded, a pass that left the same player to move). Samples keep their games' order,
    so the next sample is found, not stored twice."""

    #: the columns, in the constructor's order
    COLUMNS = ("planes", "pi_idx", "pi_val", "z", "pw", "own", "own_w", "reply_w", "mat", "mat_w")
    #: the optional targets, each a (target, weight) pair of attribute names: both None where
    #: the samples have none; a batch mixing samples with and without one weighs the latter 0
    OPTIONAL = (("own", "own_w"), ("mat", "mat_w"))

    def __init__(self, planes, pi_idx, pi_val, z, pw, own=None, own_w=None, reply_w=None, mat=None, mat_w=None):
        self.planes, self.pi_idx, self.pi_val, self.z, self.pw = planes, pi_idx, pi_val, z, pw
        self.own, self.own_w = own, own_w
        self.reply_w = np.zeros(len(z), np.float32) if reply_w is None else reply_w
        self.mat, self.mat_w = mat, mat_w

    def __len__(self):
        return len(self.z)

    def arrays(self) -> tuple:
        """The constructor's arguments, in its order (what a worker process sends back)."""
        return tuple(getattr(self, name) for name in self.COLUMNS)

    def optional(self) -> dict:
        """The optional targets these samples have: attribute name -> array, weights included."""
        return {name: getattr(self, name) for pair in self.OPTIONAL if getattr(self, pair[0]) is not None
                for name in pair}

    def tail(self, n: int) -> "SamplesBatch":
        """The last ``n`` samples."""
        return SamplesBatch(*(None if a is None else a[-n:] for a in self.arrays()))

    @classmethod
    def from_records(cls, records: list[GameRecord], num_planes_shape, q_weight: float = 0.0,
                     real_draws: bool = False) -> "SamplesBatch":
        """``q_weight`` > 0 mixes the search's root value into the value target:
        (1 - q_weight) * outcome + q_weight * root value. ``real_draws``: a game drawn and
        scored as a win by ``draw_winner`` (``GameRecord.drawn``) teaches 0, its real result."""
        n = sum(len(r.planes) for r in records)
        if n == 0:
            c, h, w = num_planes_shape
            return cls(np.zeros((0, c, h, w), np.float16), np.zeros((0, 1), np.int16), np.zeros((0, 1), np.float16),
                       np.zeros(0, np.float32), np.zeros(0, np.float32))
        k = max(len(ix) for r in records for ix in r.policy_idx)
        planes = np.stack([p for r in records for p in r.planes]).astype(np.float16)
        pi_idx = np.full((n, k), -1, np.int16)
        pi_val = np.zeros((n, k), np.float16)
        z = np.zeros(n, np.float32)
        pw = np.zeros(n, np.float32)
        with_own = any(r.ownership is not None for r in records)
        own = np.zeros((n, planes.shape[2] * planes.shape[3]), np.int8) if with_own else None
        own_w = np.zeros(n, np.float32) if with_own else None
        reply_w = np.zeros(n, np.float32)
        with_mat = any(r.material is not None for r in records)
        mat = np.zeros(n, np.float32) if with_mat else None
        mat_w = np.zeros(n, np.float32) if with_mat else None
        i = 0
        for r in records:
            m = len(r.planes)
            if len(r.plies) == m:
                for j in range(m - 1):
                    if r.plies[j + 1] == r.plies[j] + 1 and r.players[j + 1] != r.players[j]:
                        reply_w[i + j] = r.policy_weight[j + 1]
            qs = r.root_values if q_weight > 0 else [0.0] * len(r.players)
            final = None if r.ownership is None else np.asarray(r.ownership, np.int8).reshape(-1)
            for ix, val, player, weight, q in zip(r.policy_idx, r.policy_val, r.players, r.policy_weight, qs):
                pi_idx[i, :len(ix)] = ix
                pi_val[i, :len(val)] = val
                z[i] = (1.0 - q_weight) * (0.0 if real_draws and r.drawn else _outcome(r, player)) + q_weight * q
                pw[i] = weight
                if final is not None:
                    own[i] = final if player == 0 else -final
                    own_w[i] = 1.0
                if r.material is not None:
                    mat[i] = r.material if player == 0 else -r.material
                    mat_w[i] = 1.0
                i += 1
        return cls(planes, pi_idx, pi_val, z, pw, own, own_w, reply_w, mat, mat_w)

    @classmethod
    def concat(cls, batches: list["SamplesBatch"]) -> "SamplesBatch":
        batches = [b for b in batches if len(b)]
        if not batches:
            raise ValueError("no samples")
        k = max(b.pi_idx.shape[1] for b in batches)

        def pad(a, fill):
            if a.shape[1] == k:
                return a
            out = np.full((a.shape[0], k), fill, a.dtype)
            out[:, :a.shape[1]] = a
            return out
        optional = {}
        for target, weight in cls.OPTIONAL:   # samples from before a target weigh 0 for it
            parts = [getattr(b, target) for b in batches]
            like = next((a for a in parts if a is not None), None)
            if like is not None:
                optional[target] = np.concatenate([np.zeros((len(b), *like.shape[1:]), like.dtype) if a is None
                                                   else a for a, b in zip(parts, batches)])
                optional[weight] = np.concatenate([np.zeros(len(b), np.float32) if a is None else getattr(b, weight)
                                                   for a, b in zip(parts, batches)])
        return cls(np.concatenate([b.planes for b in batches]),
                   np.concatenate([pad(b.pi_idx, -1) for b in batches]),
                   np.concatenate([pad(b.pi_val, 0) for b in batches]),
                   np.concatenate([b.z for b in batches]), np.concatenate([b.pw for b in batches]),
                   reply_w=np.concatenate([b.reply_w for b in batches]), **optional)


def _encoder(evaluator):
    """state -> the input planes ``evaluator``'s network reads (a network evaluator's own
    `encode`: an earlier encoding's planes for a legacy network; else the game's encoding)."""
    return getattr(evaluator, "encode", None) or (lambda s: s.encode())


def _draw_expected(evaluator, state) -> bool:
    """Whether a win/draw/loss network (an evaluator with ``infer_wdl`` and a ``draw_winner``)
    sees the real game at ``state`` as nearer a draw than a loss for the player to move: its
    P(win) - P(loss) at least -0.5. Under ``draw_winner`` a player resigns when it cannot win,
    and the real rules may call that game drawn; it is then recorded as drawn, so that its
    value target is the real 0 rather than a loss. (Where the network agrees with the search
    that the player cannot win, P(win) is about 0 and this is P(draw) >= P(loss); a head just
    converted from a single value calls a level game P(win) = P(loss), also a draw.)"""
    infer = getattr(evaluator, "infer_wdl", None)
    if infer is None or not getattr(evaluator, "draw_winner", -1) >= 0:
        return False
    _, wdl = infer(_encoder(evaluator)(state)[None])
    return float(wdl[0, 0]) - float(wdl[0, 2]) >= -0.5


def _outcome(rec: GameRecord, player: int) -> float:
    """The value target of ``player`` in a finished game: +1 win, -1 loss, 0 draw, or the
    adjudicated score of an undecided game (drawn, or stopped at the ply cap)."""
    if rec.winner is not None:
        return 1.0 if rec.winner == player else -1.0
    if rec.adjudicated is not None:
        return rec.adjudicated if player == 0 else -rec.adjudicated
    return 0.0


#: the most an adjudicated game is worth: less than a real win, so that the value head keeps
#: a reason to prefer mating over merely being ahead (and the search a reason to finish games)
ADJUDICATED_MAX = 0.8


def adjudicate(state, scale: float) -> float | None:
    """Score an undecided game for player 0 as ADJUDICATED_MAX * tanh(heuristic / scale), or
    None when adjudication is off (scale <= 0) or the game has no position heuristic."""
    h = getattr(state, "heuristic", None)
    if scale <= 0 or not callable(h):
        return None
    return float(ADJUDICATED_MAX * np.tanh(h(0) / scale))


def lasting_leader(rec: GameRecord, state, margin: float, plies: int) -> int | None:
    """Update ``rec.lead`` with ``state`` (the position after the game's latest move) and return
    the player whose heuristic lead has been at least ``margin`` for ``plies`` positions in a
    row, else None (or when the game has no heuristic, or ``margin`` is 0)."""
    if margin <= 0:   # off: nothing looked up on self-play's per-move path
        return None
    h = getattr(state, "heuristic", None)
    if not callable(h):
        return None
    lead = h(0)
    side = 0 if lead >= margin else 1 if lead <= -margin else -1
    run = rec.lead[1] + 1 if side >= 0 and side == rec.lead[0] else (1 if side >= 0 else 0)
    rec.lead = (side, run)
    return side if side >= 0 and run >= plies else None


def random_opening(game, plies: int, rng: np.random.Generator, tries: int = 100):
    """A start position ``plies`` uniformly random legal moves from the game's start, and those
    moves; a line that ends the game is drawn again (after ``tries`` such lines, the longest
    open prefix found is used, so a game whose every line ends early still gets a start)."""
    best_state, best_moves = game.initial_state(), []
    for _ in range(tries):
        state, moves = game.initial_state(), []
        while len(moves) < plies:
            legal = state.legal_actions()
            action = int(legal[rng.integers(len(legal))])
            nxt = state.apply(action)
            if nxt.is_terminal():
                break
            state = nxt
            moves.append(action)
        if len(moves) == plies:
            return state, moves
        if len(moves) > len(best_moves):
            best_state, best_moves = state, moves
    return best_state, best_moves


def play_games(game, evaluator, settings, n_games: int, seed: int | None = None,
               on_game_done=None, should_stop=None, ownership: bool = False,
               material: bool = False) -> tuple[list[GameRecord], SelfPlayStats]:
    """Play ``n_games`` self-play games, ``settings.parallel_games`` at a time.

    ``settings`` is a `engine.core.config.SelfPlaySettings`. ``on_game_done(record)`` is
    called as each game ends; ``should_stop()`` ends the run early (finished games are kept).
    With ``ownership`` each record keeps its final board (``State.ownership()``, where the game
    has it), the target of a network's ownership head; with ``material`` its final
    ``State.material()``, the target of a material head.

    The games' searches run one round at a time (a network call for all of them), and a
    game whose search is done moves and starts its next search at once, so every live game
    sends leaves to every call: with playout-cap randomisation the cheap searches end long
    before the full ones, and games that waited for the slowest search of each move would
    leave the calls a fraction of their size.
    """
    rng = np.random.default_rng(seed)
    cfg = SearchConfig(cpuct=settings.cpuct, leaf_batch=settings.leaf_batch,
                       dirichlet_alpha=settings.dirichlet_alpha, dirichlet_eps=settings.dirichlet_eps,
                       draw_value=settings.draw_value, draw_winner=settings.draw_winner,
                       capture_scale=settings.capture_scale, tactics=settings.tactics,
                       proofs=settings.proofs)
    mcts = MCTS(evaluator, cfg, seed=None if seed is None else seed + 1)
    # self-play searches many games' trees at once, so its batches are full without backing
    # remembered leaves up as they are gathered: its search stays the one without the memory
    mcts.recall_in_gather = False
    encode = _encoder(evaluator)
    gumbel = settings.gumbel_considered > 0
    if gumbel:   # Gumbel root search: its own exploration (no Dirichlet noise) and policy target
        mcts.root_rule = GumbelRule(settings.gumbel_considered, settings.gumbel_c_visit, settings.gumbel_c_scale)
    max_plies = settings.max_plies or game.max_game_length or 10_000
    stats = SelfPlayStats()
    t0 = time.perf_counter()
    finished: list[GameRecord] = []
    started = 0
    live: list[list] = []  # [tree, record, may_resign, full search?]

    def start_game():
        nonlocal started
        started += 1
        may_resign = settings.resign_threshold != 0 and rng.random() >= settings.resign_check_share
        rec = GameRecord()
        if settings.material_adjudicate > 0:
            rec.check_lead = bool(rng.random() < settings.resign_check_share)
        state = game.initial_state()
        k = settings.random_opening_plies
        if k > 0 and rng.random() < settings.random_opening_share:
            if settings.random_opening_min_plies >= 0:
                k = int(rng.integers(settings.random_opening_min_plies, k + 1))
            state, rec.moves = random_opening(game, k, rng)
            rec.start_ply = len(rec.moves)
        return [Tree(state), rec, may_resign, full_search(rec)]

    def full_search(rec: GameRecord) -> bool:
        # playout-cap randomisation: a full search on some moves, a cheap one elsewhere; the
        # game's first full_search_plies searched moves always full (no random draw for them)
        if settings.fast_sims <= 0 or len(rec.moves) - rec.start_ply < settings.full_search_plies:
            return True
        return rng.random() < settings.full_search_prob

    while live or started < n_games:
        while len(live) < settings.parallel_games and started < n_games:
            live.append(start_game())
        if should_stop is not None and should_stop():
            break
        targets = [settings.sims if g[3] else settings.fast_sims for g in live]
        if settings.forced_playouts > 0 and not gumbel:   # full searches only: cheap ones keep PUCT
            for g in live:
                g[0].forced_k = settings.forced_playouts if g[3] else 0.0
        stats.sims += mcts.search([g[0] for g in live], targets, noise=not gumbel, max_rounds=1)
        still = []
        for g, target in zip(live, targets):
            tree, rec, may_resign, is_full = g
            if tree.root_n < target:
                still.append(g)      # its search goes on in the next round
                continue
            state = tree.root_state
            actions, visits = tree.visit_counts()
            rule = tree.root_rule
            if rule is not None:
                target = rule.improved_policy(tree)
            else:   # forced playouts taken back where they were on (else the visit counts)
                _, kept = tree.pruned_visits(settings.cpuct)
                target = kept / max(kept.sum(), 1)
            if is_full or settings.record_fast:
                # cheap-search positions still teach the value head; their policy weight is 0
                rec.planes.append(encode(state))
                rec.policy_idx.append(actions.astype(np.int16))
                rec.policy_val.append(target.astype(np.float16))
                rec.players.append(state.current_player)
                rec.policy_weight.append(1.0 if is_full else 0.0)
                rec.plies.append(len(rec.moves))
            value = rule.value(tree) if rule is not None else tree.root_value()
            if is_full or settings.record_fast:
                rec.root_values.append(value)
            if value < settings.resign_threshold and len(rec.moves) >= 2:
                if may_resign:
                    rec.winner = 1 - state.current_player
                    rec.resigned = True
                    if settings.draw_winner >= 0 and _draw_expected(evaluator, state):
                        rec.winner, rec.drawn = settings.draw_winner, True
                elif rec.would_resign is None:
                    rec.would_resign = state.current_player  # played out to check false resignations
            if not rec.resigned:
                opening = len(rec.moves) < rec.start_ply + settings.temperature_moves
                if rule is not None and opening and tree.root_win < 0:
                    action = int(actions[rng.choice(len(actions), p=target / target.sum())])
                elif rule is not None and tree.root_win < 0:
                    action = int(actions[rule.choice(tree)])
                elif opening and rule is None:
                    action = select_action(actions, kept, 1.0, rng)
                else:   # a Gumbel root with a proven win plays it, opening or not
                    action = tree.stats(limit=1)[0].action   # as in play: a proven result first
                rec.moves.append(action)
                # Gumbel's schedule counts this search's visits, so its next search starts afresh
                nxt = None if gumbel else tree.child_tree(action)
                if nxt is None:
                    nxt = Tree(state.apply(action))
                tree = nxt
            s = tree.root_state
            if not rec.resigned and not s.is_terminal():
                leader = lasting_leader(rec, s, settings.material_adjudicate, settings.material_adjudicate_plies)
                if leader is not None and not rec.check_lead:
                    rec.lead_won = leader
                    rec.adjudicated = ADJUDICATED_MAX if leader == 0 else -ADJUDICATED_MAX
                elif leader is not None and rec.would_lead_win is None:
                    rec.would_lead_win = leader   # played out to check the adjudication
            done = rec.resigned or rec.lead_won is not None or s.is_terminal() or len(rec.moves) >= max_plies
            if done:
                owner = getattr(s, "ownership", None) if ownership else None
                if callable(owner):
                    rec.ownership = np.asarray(owner(), np.int8)
                balance = getattr(s, "material", None) if material else None
                if callable(balance):
                    rec.material = float(balance())
                if not rec.resigned and rec.lead_won is None:
                    rec.winner = s.winner() if s.is_terminal() else None
                    if rec.winner is None and s.is_terminal() and settings.draw_winner >= 0:
                        rec.winner, rec.drawn = settings.draw_winner, True
                    if rec.winner is None:
                        rec.adjudicated = adjudicate(s, settings.adjudicate_scale)
                        stats.adjudicated += rec.adjudicated is not None
                stats.lead_won += rec.lead_won is not None
                if rec.would_lead_win is not None:
                    stats.lead_checked += 1
                    stats.false_lead += rec.winner != rec.would_lead_win
                wr = rec.would_resign
                if wr is not None:
                    stats.resign_checked += 1
                    if rec.winner == wr or rec.winner is None:
                        stats.false_resign += 1
                stats.games += 1
                stats.plies += len(rec.moves)
                stats.positions += len(rec.planes)
                stats.resigned += rec.resigned
                if rec.lead_won is not None:
                    stats.wins[rec.lead_won] += 1
                elif rec.winner is None or rec.drawn:
                    stats.draws += 1
                else:
                    stats.wins[rec.winner] += 1
                finished.append(rec)
                if on_game_done is not None:
                    on_game_done(rec)
            else:
                still.append([tree, rec, may_resign, full_search(rec)])
        live = still
    stats.seconds = time.perf_counter() - t0
    return finished, stats
