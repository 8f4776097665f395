"""PUCT Monte Carlo tree search over batches, with the tree kept in numpy arrays.

Layout: a *node* is a position that has been reached by the search; an *edge* is
one legal action of an expanded node. A node's edges sit contiguously in the edge
arrays, so choosing a child is a handful of vectorised operations on one slice.
Edge statistics (visits N, value sum W) are kept from the point of view of the
player who chooses that edge, so selection maximises ``W/N + U`` directly and
values stay right through passes and terminal positions, whoever moves next.

Batching: `MCTS.search` takes many trees (many games) and, per round, gathers up
to ``leaf_batch`` leaves from each (virtual loss keeps the leaves of one tree
apart), evaluates all of them in one evaluator call and backs them up. Terminal
positions are scored by the rules, never by the network; so are positions whose result
the game proves at once (the optional ``State.proven_value`` hook: a win in one, two
threats the mover cannot both stop, or a small endgame the game solves exactly), which are
then never expanded.

Known results travel up the tree (an MCTS-Solver in the manner of Winands et al., with the
score bounds of Cazenave and Saffidine so that draws are proven too): a position with a
child that is won for its mover is won; one whose children are all known is worth the best
of them (a draw, say, or a loss). A proven position is then scored like a finished game. A
position with some children known keeps their best as a floor for its mover: the search
does not spend visits on known children while another move is still open (only an open
move could do better), its parent never values it below that floor, and a root chooses a
known draw over an open move that the search rates worse. A root with a proven win plays it.
"""
from __future__ import annotations

import gc
import math
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, field

import numpy as np

from . import native_tree

#: the compiled walk down and backup (engine/core/_tree_c.c), or None: `Tree` then runs its
#: Python methods, which stay the reference (tests/test_tree_compiled.py compares the two)
_tree_c = native_tree.load()

#: nodes with at most this many moves choose a child in plain Python (`Tree._pick_small`);
#: wider ones (othello's middle game, gomoku, xiangqi) with numpy
SMALL_NODE = 16
#: the most walks one gathering makes for a tree, in units of the leaves it wants, where
#: remembered leaves are backed up as they are found (`MCTS.gather`): the batch fills with
#: positions the network has not seen, and a tree whose leaves are mostly remembered still
#: goes to its next network call soon
RECALL_WALKS = 4
#: plies to the end counted for a result the game's slower proof finds (`State.deep_proven_value`,
#: `State.winning_action`): at least a threat, its answer and the win, so a loser facing such a
#: proof holds out against it rather than allowing a win in one
DEEP_PROOF_PLIES = 3
#: the most prior floors `with_floors` hands to the compiled tree (ZB_MAX_FLOORS); more go the numpy way
MAX_FLOORS = 64


_gc_lock = threading.Lock()
_gc_holds = 0          # searches running with the collector paused
_gc_was_on = False     # whether the first of them found it on


@contextmanager
def collector_paused():
    """Python's cyclic garbage collector off while a search runs, as it was before once the
    last of the searches running at once ends. A search makes thousands of small objects (its
    states, paths, tuples) and keeps most of them in its tree, so the collector, started every
    700 allocations, spends its time walking live objects; what it would free, reference
    counting frees anyway (a search makes no reference cycles to speak of), and any cycle is
    collected after the search. 2026-12-04: 2% of a xiangqi search's CPU at 800 visits, 4.5%
    at the strong level's 5,500 (docs/performance.md, "Xiangqi's search, its own work")."""
    global _gc_holds, _gc_was_on
    with _gc_lock:
        if _gc_holds == 0:
            _gc_was_on = gc.isenabled()
            gc.disable()
        _gc_holds += 1
    try:
        yield
    finally:
        with _gc_lock:
            _gc_holds -= 1
            if _gc_holds == 0 and _gc_was_on:
                gc.enable()


@dataclass
class SearchConfig:
    """Search parameters. Defaults suit play; self-play turns noise on."""
    cpuct: float = 1.5
    #: first-play urgency: an unvisited child is valued at the parent's value minus this
    fpu_reduction: float = 0.25
    #: leaves gathered from one tree per network call
    leaf_batch: int = 8
    virtual_loss: float = 1.0
    #: Dirichlet noise at the root (self-play only): alpha None disables it
    dirichlet_alpha: float | None = None
    dirichlet_eps: float = 0.25
    #: a finished, drawn game's value for the player whose move drew it. Below 0 ("contempt")
    #: each side avoids drawing moves unless the alternatives look worse (self-play only: xiangqi's
    #: early self-play otherwise settles into repeating positions). Play keeps 0, the true value.
    draw_value: float = 0.0
    #: "Armageddon" (self-play only): a finished, drawn game counts as won by this player (0 or
    #: 1) in the tree, proofs included; -1 keeps draws as draws (``draw_value`` applies)
    draw_winner: int = -1
    #: games whose states offer ``capture_gain()`` (xiangqi: what the side to move wins by
    #: captures alone, in material units) have it added to the network's value at each leaf,
    #: as ``tanh(atanh(v) + gain / capture_scale)``: a piece left hanging, or an exchange that
    #: loses material, is seen one capture sequence beyond the leaf. 0 switches it off.
    capture_scale: float = 8.0
    #: games whose states offer ``heuristic(player)`` (xiangqi: the material balance in
    #: soldiers) have what the leaf's mover has gained or lost of it since the search's root
    #: added to the network's value at each leaf, as ``capture_scale`` adds the captures still
    #: to come: ``tanh(atanh(v) + gain / capture_scale + change / material_scale)``. An exchange
    #: inside the tree is then priced by the material it wins or loses, where the network's
    #: value prices a piece at about a third of what it should (docs/training.md, 2026-11-27);
    #: a line without captures changes nothing, so quiet positions stay the network's. 0: off.
    material_scale: float = 0.0
    #: use the game's tactical hooks (``State.tactical_priors``, ``State.capture_gain``) at all
    tactics: bool = True
    #: use the game's slower proofs (``State.deep_proven_value`` below the root,
    #: ``State.winning_action`` and ``State.threat_defence`` at it: gomoku's victories by
    #: continuous threats). Play keeps them; self-play where ``[selfplay] proofs`` says so.
    #: The quick ``proven_value`` stays.
    proofs: bool = True
    #: how hard those slower proofs look (1: the game's default; 2, 3: deeper and longer, as the
    #: game defines it: gomoku's VCT one and two more threes on a line, with 8 and 64 times the
    #: moves tried; measured at no gain, docs/performance.md, so play keeps 1).
    proof_effort: int = 1
    #: the network's priors at every expanded node are taken to the power 1/T and renormalised
    #: before the tactical floors: above 1 flattens them, so moves the policy underrates get
    #: tried (Leela Chess Zero's policy softmax temperature). 1 leaves them as they are.
    policy_temperature: float = 1.0
    #: how the move to play is chosen among the root's open moves: 0 plays the most visited;
    #: above 0, the one with the highest lower confidence bound ``q - select_lcb / sqrt(visits)``
    #: among those with at least a tenth of the most visited one's visits, so that a move
    #: whose visits a high prior piled up does not beat a better-rated one visited nearly
    #: as often (KataGo and Leela Chess Zero choose by a lower confidence bound too)
    select_lcb: float = 0.0


#: the share of the most visited move's visits that a move needs to be chosen by its
#: lower confidence bound (`SearchConfig.select_lcb`)
LCB_MIN_SHARE = 0.1


@dataclass
class MoveStat:
    action: int
    visits: int
    q: float       # mean value for the player to move at the root, -1..1
    prior: float


@dataclass
class SearchResult:
    action: int
    value: float   # root value for the player to move, -1..1
    top: list[MoveStat] = field(default_factory=list)
    sims: int = 0
    seconds: float = 0.0
    proven: float | None = None   # the exact result for the player to move, once the search proved it


class Tree:
    """One search tree, rooted at ``root_state``.

    Memory: wide games (gomoku: ~220 legal moves a node) hold far more edges than nodes, so
    an edge is only a float16 prior and an int32 child index (6 bytes). Its action is not
    stored: edge j of a node is ``legal_actions()[j]`` of the node's state, which the game
    API promises to list in the same order every time. Visit statistics live on the child
    node instead: ``n_visits``/``n_wsum`` of a node are those of the edge that leads to it,
    the value sum from the point of view of the player who chose that edge (``n_owner``).
    An edge without a child points at index -1, which is always a spare, all-zero node
    slot, so gathering the statistics of a node's edges needs no mask.

    Speed: where the compiled tree is built (`engine.core.native_tree`), the walk down and the
    backup run in C on these same arrays, with the same results bit for bit; the Python methods
    below are the reference and the fallback.
    """

    def __init__(self, root_state, node_capacity: int = 64, edge_capacity: int = 512):
        self.root_state = root_state
        # the game's optional exact shortcut: State.proven_value() -> 1.0 / 0.0 / -1.0 / None
        self._proven = getattr(type(root_state), "proven_value", None)
        # how many plies away that result is, where the game says (State.proven_plies; else 1)
        self._plies = getattr(type(root_state), "proven_plies", None)
        # its optional slower proof for the root's children where the quick one finds nothing
        # (State.deep_proven_value, same values)
        self._deep = getattr(type(root_state), "deep_proven_value", None)
        # and a move it proves winning at the root (State.winning_action() -> action or None)
        self._winner = getattr(type(root_state), "winning_action", None)
        # and the moves that may still hold against the opponent's threats at the root
        # (State.threat_defence() -> None or (defences, refuted); see `restrict_root`)
        self._defence = getattr(type(root_state), "threat_defence", None)
        # node arrays (the last slot is the spare all-zero node that unexpanded edges point at)
        self.n_start = np.zeros(node_capacity, np.int32)
        self.n_count = np.zeros(node_capacity, np.int32)       # 0: not expanded
        self.n_player = np.zeros(node_capacity, np.int8)
        self.n_owner = np.zeros(node_capacity, np.int8)        # who chose the edge to this node
        self.n_term = np.full(node_capacity, np.nan, np.float32)  # value for n_player when terminal
        self.n_done = np.zeros(node_capacity, np.int16)        # children known (won, lost, drawn...)
        self.n_best = np.full(node_capacity, -2.0, np.float32)  # best known child for the mover (-2: none)
        self.n_depth = np.zeros(node_capacity, np.int16)      # plies to the end once known (a lower bound)
        self.n_floored = np.zeros(node_capacity, np.int8)     # 1: some child has a known child (a floor)
        self.n_visits = np.zeros(node_capacity, np.float32)
        self.n_wsum = np.zeros(node_capacity, np.float32)
        self.states: list = []
        self.pending: set[int] = set()
        self.num_nodes = 0
        # edge arrays
        self.e_prior = np.zeros(edge_capacity, np.float16)
        self.e_child = np.full(edge_capacity, -1, np.int32)
        self.num_edges = 0
        # the root has no parent edge: its visits and value sum live here
        self.root_n = 0.0
        self.root_w = 0.0   # from the root player's point of view
        self.noised = False
        self.defended = False   # `restrict_root` has run
        self.root_win = -1   # a root child known won for the root's mover, else -1
        #: a finished, drawn game's value for the side that drew it (the search's contempt):
        #: how the root weighs a known draw against an open move
        self.draw_value = 0.0
        #: `SearchConfig.select_lcb` of the search that last ran on this tree
        self.select_lcb = 0.0
        #: a finished, drawn game scored as won by this player (0 or 1), -1: a draw
        #: (`SearchConfig.draw_winner`); set before the search creates nodes below the root
        self.draw_winner = -1
        #: `SearchConfig.proof_effort`, passed to the game's slower proofs
        self.proof_effort = 1
        #: how the root chooses its child, when not by PUCT (`engine.core.gumbel.GumbelRoot`)
        self.root_rule = None
        #: forced playouts' k (self-play's full searches; 0: off): `_forced_root_child`
        self.forced_k = 0.0
        self._new_node(root_state, -1)

    _NODE_FILLS = (("n_start", 0), ("n_count", 0), ("n_player", 0), ("n_owner", 0), ("n_term", np.nan),
                   ("n_done", 0), ("n_best", -2.0), ("n_floored", 0), ("n_visits", 0), ("n_wsum", 0),
                   ("n_depth", 0))
    _EDGE_FILLS = (("e_prior", 0), ("e_child", -1))

    # --- storage ----------------------------------------------------------
    def _grow_nodes(self):
        cap = len(self.n_start) * 2
        for name, fill in self._NODE_FILLS:
            old = getattr(self, name)
            new = np.full(cap, fill, old.dtype)
            new[:self.num_nodes] = old[:self.num_nodes]
            setattr(self, name, new)

    def _grow_edges(self, need: int):
        cap = len(self.e_prior)
        while cap < need:
            cap = cap * 2 if cap < (1 << 20) else cap + cap // 8   # large trees grow by an eighth
        for name, fill in self._EDGE_FILLS:
            old = getattr(self, name)
            new = np.full(cap, fill, old.dtype)
            new[:len(old)] = old
            setattr(self, name, new)

    def _new_node(self, state, parent_node: int) -> int:
        if self.num_nodes >= len(self.n_start) - 1:   # keep the spare slot at the end
            self._grow_nodes()
        n = self.num_nodes
        self.num_nodes += 1
        self.states.append(state)
        self.n_player[n] = state.current_player
        self.n_owner[n] = self.n_player[parent_node] if parent_node >= 0 else state.current_player
        if state.is_terminal():
            v = state.terminal_value()
            if v == 0.0 and self.draw_winner >= 0:
                v = 1.0 if state.current_player == self.draw_winner else -1.0
            self.n_term[n] = v
        elif parent_node >= 0 and self._proven is not None:
            # a result the rules prove at once (a win in one, or two threats against the mover):
            # scored like a finished game, never expanded (the root always is searched); right
            # below the root, where the choice is made, the game's slower proof if it has one
            v = self._proven(state)
            depth = 1 if v is None or self._plies is None else self._plies(state)
            if v is None and parent_node == 0 and self._deep is not None:
                v = self._deep(state, self.proof_effort)
                depth = DEEP_PROOF_PLIES
            if v is not None:
                self.n_term[n] = v
                self.n_depth[n] = depth
        return n

    def _settle(self, path: list[int]) -> None:
        """``path[-1]`` (walked to through ``path``) just got a known value (finished, or
        proven): count it on its parent and pass the result up for as long as it decides the
        position above. Each node is counted on its parent once, when it becomes known."""
        nodes = [0] + path
        for i in range(len(nodes) - 1, 0, -1):
            child, parent = nodes[i], nodes[i - 1]
            t = float(self.n_term[child])
            v = t if self.n_player[child] == self.n_player[parent] else -t   # for the parent's mover
            self.n_done[parent] += 1
            if i >= 2:
                self.n_floored[nodes[i - 2]] = 1
            if v > self.n_best[parent]:
                self.n_best[parent] = v
            if v >= 1.0:
                value = 1.0           # a winning move decides the position
                depth = int(self.n_depth[child]) + 1
            elif self.n_done[parent] >= self.n_count[parent]:
                value = float(self.n_best[parent])   # every move known: the best of them
                depth = self._known_depth(parent, value)
            else:
                return                # the mover still has open moves
            if parent == 0:
                if value >= 1.0:
                    self.root_win = child
                return                # the root stays open: it must still choose a move
            if not math.isnan(self.n_term[parent]):
                return                # already decided (another leaf got there first)
            self.n_term[parent] = value
            self.n_depth[parent] = depth

    def _known_depth(self, node: int, value: float) -> int:
        """Plies to the end of ``node`` once all its children are known and the best is worth
        ``value``: a loser holds out as long as it can, anyone else takes the shortest way."""
        s, k = int(self.n_start[node]), int(self.n_count[node])
        kids = self.e_child[s:s + k]
        kids = kids[kids >= 0]
        t = self.n_term[kids]
        v = np.where(self.n_player[kids] == self.n_player[node], t, -t)
        depths = self.n_depth[kids][v == value]
        if not len(depths):
            return 1
        return int(depths.max() if value <= -1.0 else depths.min()) + 1

    def expand(self, node: int, actions: list[int], priors: np.ndarray) -> None:
        """Give ``node`` one edge per legal action (``actions`` is its state's legal_actions())."""
        k = len(actions)
        s = self.num_edges
        if s + k > len(self.e_prior):
            self._grow_edges(s + k)
        self.e_prior[s:s + k] = priors
        self.n_start[node] = s
        self.n_count[node] = k
        self.num_edges = s + k
        if node == 0:
            self._find_root_win()

    def _find_root_win(self) -> None:
        """Find a root move that wins at once (where the game has the ``proven_value`` hook, only
        when it proves the root won), or that the game's ``winning_action`` proves winning,
        instead of waiting for the search to visit it: a move the network gives little prior
        could go unvisited in a short search, and the AI would miss a win."""
        if self.root_win >= 0 or self.n_count[0] == 0:
            return
        root = self.states[0]
        s = int(self.n_start[0])
        if self._winner is not None:
            action = self._winner(root, self.proof_effort)
            if action is not None:
                j = root.legal_actions().index(action)
                child = int(self.e_child[s + j])
                if child < 0:
                    child = self._new_node(root.apply(action), 0)
                    self.e_child[s + j] = child
                if math.isnan(self.n_term[child]):
                    self._prove_root_child(child, -1.0 if self.n_player[child] != self.n_player[0] else 1.0)
                if self.root_win >= 0:
                    return
        if self._proven is not None and self._proven(root) != 1.0:
            return   # without the hook, every move is tried: once a search, at the root only
        for j, action in enumerate(root.legal_actions()):
            if self.e_child[s + j] >= 0:
                continue   # already in the tree: counted when it became known
            st = root.apply(action)
            if not st.is_terminal():
                continue
            child = self._new_node(st, 0)
            self.e_child[s + j] = child
            self._settle([child])
            if self.root_win >= 0:
                return

    def restrict_root(self) -> None:
        """Once per root (`MCTS.search` calls it where the search uses the game's tactical
        hooks, ``SearchConfig.tactics``): where the game's ``threat_defence`` says the opponent
        has an attack that the side to move must answer, the root moves it proves lost get no
        prior (and a root child already in the tree, from a reused tree, is recorded as lost),
        and when some candidate may still hold, so do the moves outside its candidates, which
        the attack does not touch.
        The remaining priors are scaled to sum to what the root's priors summed to (uniform
        over the defences if the network gave them nothing). A root with a proven win, or a
        game without the hook, is left alone; so is a root where every candidate is lost:
        then the search looks for the longest resistance among all moves as before."""
        if self.defended or self.n_count[0] == 0:
            return
        self.defended = True
        if self._defence is None or self.root_win >= 0:
            return
        found = self._defence(self.states[0])
        if found is None:
            return
        defences, refuted = found
        if not defences:
            # every candidate is proven lost, and the moves outside them are presumed lost: left
            # alone, the search resists as it would have (a block that loses later, not a stone
            # far away that loses at once)
            return
        actions = self.states[0].legal_actions()
        s, k = int(self.n_start[0]), int(self.n_count[0])
        lost = set(refuted)
        keep = set(defences)
        for j, action in enumerate(actions):
            child = int(self.e_child[s + j])
            if action in lost and child >= 0 and math.isnan(self.n_term[child]):
                self._prove_root_child(child, 1.0 if self.n_player[child] != self.n_player[0] else -1.0)
        priors = self.e_prior[s:s + k].astype(np.float32)
        allowed = np.array([a in keep for a in actions])   # the defences and the refuted are apart
        if not allowed.any():
            return   # no defence is a legal move here (a hook's mistake): the root is left alone
        before = float(priors.sum())
        priors = np.where(allowed, priors, 0.0)
        total = float(priors.sum())
        if total <= 0.0:
            priors = allowed / float(allowed.sum())
            total = 1.0
        self.e_prior[s:s + k] = priors * (max(before, 1e-6) / total)

    def _deepen_root_children(self) -> None:
        """Give the open children of a root taken over from a larger tree (where they were
        grandchildren, with the plain proof) the game's slower proof for the root's children."""
        if self._deep is None or self.n_count[0] == 0:
            return
        s, k = int(self.n_start[0]), int(self.n_count[0])
        for j in range(k):
            child = int(self.e_child[s + j])
            if child < 0 or not math.isnan(self.n_term[child]) or self.states[child].is_terminal():
                continue
            v = self._deep(self.states[child], self.proof_effort)
            if v is not None:
                self._prove_root_child(child, v)
                if self.root_win >= 0:
                    return

    def _prove_root_child(self, child: int, value: float) -> None:
        """Record a slower proof's ``value`` (for the child's mover) on an open root child and
        pass it up, counted as at least `DEEP_PROOF_PLIES` plies to the end."""
        self.n_term[child] = value
        self.n_depth[child] = max(int(self.n_depth[child]), DEEP_PROOF_PLIES)
        self._settle([child])

    # --- queries --------------------------------------------------------------
    @property
    def root_expanded(self) -> bool:
        return self.n_count[0] > 0

    def is_root_terminal(self) -> bool:
        return not math.isnan(self.n_term[0])

    def root_edges(self) -> slice:
        s = int(self.n_start[0])
        return slice(s, s + int(self.n_count[0]))

    def root_value(self) -> float:
        """The root's value for its mover: +1 / -1 once proven won / lost, else the mean."""
        proof = self.root_result()
        if proof is not None:
            return proof
        mean = self.root_w / self.root_n if self.root_n > 0 else 0.0
        return max(mean, float(self.n_best[0]))   # a known draw is a floor

    def root_result(self) -> float | None:
        """The root's exact value for its mover when known: +1.0 when a root move is proven
        to win, else the best of its moves once every one is known; otherwise None."""
        if self.root_win >= 0:
            return 1.0
        k = int(self.n_count[0])
        return float(self.n_best[0]) if k and self.n_done[0] >= k else None

    def edges(self, node: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """(actions, visits, value sums, priors, child nodes) of ``node``'s edges; value sums
        are from the point of view of the player to move at ``node``; child -1: not created."""
        s, k = int(self.n_start[node]), int(self.n_count[node])
        kids = self.e_child[s:s + k]
        actions = np.asarray(self.states[node].legal_actions() if k else [], np.int64)
        return (actions, self.n_visits[kids].copy(), self.n_wsum[kids].copy(),
                self.e_prior[s:s + k].astype(np.float32), kids.copy())

    def visit_counts(self) -> tuple[np.ndarray, np.ndarray]:
        """(actions, visits) of the root's children."""
        a, n, _, _, _ = self.edges(0)
        return a, n

    def stats(self, limit: int | None = None) -> list[MoveStat]:
        """Root moves, the one to play first, then the most visited. The one to play is a
        proven win; else the best known move (a proven draw, say) when every move is known,
        or when the most visited open move is rated worse and has more visits only because
        the search stopped visiting the known one once it was known; else the most visited
        open move, or with ``select_lcb`` the open move with the best lower confidence bound."""
        a, n, w, p, kids = self.edges(0)
        won = (kids == self.root_win) if self.root_win >= 0 else np.zeros(len(kids), bool)
        order = np.lexsort((-p, -n, ~won))
        q = np.where(n > 0, w / np.maximum(n, 1.0), 0.0)
        decided = self.root_win < 0 and len(order) > 1 and self.n_done[0] > 0   # some child's result is known
        known = self._known_values(kids) if decided else np.full(len(kids), np.nan)
        is_open = np.isnan(known)
        if self.select_lcb > 0 and self.root_win < 0 and len(order) > 1 and is_open.any():
            order = self._lcb_first(order, n, q, is_open)
        if decided:
            kv = np.where(is_open, -np.inf, known)
            # ties: more visits; among losses, the one that holds out longest, then the network's favourite
            hold_out = np.where(kv <= -1.0, self.n_depth[kids], 0)
            best_known = int(max(order[~is_open[order]],
                                 key=lambda j: (kv[j], hold_out[j], p[j] if kv[j] <= -1.0 else 0.0)))
            pick = best_known
            if is_open.any():
                best_open = int(order[is_open[order]][0])
                if q[best_open] > kv[best_known] and (n[best_open] >= n[best_known] or kv[best_known] <= -1.0):
                    pick = best_open
            order = np.concatenate([[pick], order[order != pick]])
        if limit is not None:
            order = order[:limit]
        return [MoveStat(int(a[i]), int(n[i]), float(q[i]), float(p[i])) for i in order]

    def _lcb_first(self, order: np.ndarray, n: np.ndarray, q: np.ndarray, is_open: np.ndarray) -> np.ndarray:
        """``order`` with the open move of the best ``q - select_lcb / sqrt(n)`` first, among
        open moves with at least `LCB_MIN_SHARE` of the most visited open move's visits."""
        floor = max(1.0, LCB_MIN_SHARE * float(n[is_open].max()))
        bound = np.where(is_open & (n >= floor), q - self.select_lcb / np.sqrt(np.maximum(n, 1.0)), -np.inf)
        if not np.isfinite(bound).any():
            return order
        best = int(np.argmax(bound))
        return np.concatenate([[best], order[order != best]])

    def _known_values(self, kids: np.ndarray) -> np.ndarray:
        """The known values of root children for the root's mover (a draw at the search's
        ``draw_value``), nan where open."""
        t = self.n_term[kids].astype(np.float64)
        v = np.where(self.n_player[kids] == self.n_player[0], t, -t)
        v[kids < 0] = np.nan
        return np.where(v == 0.0, self.draw_value, v)

    def add_root_noise(self, alpha: float, eps: float, rng: np.random.Generator) -> None:
        sl = self.root_edges()
        k = sl.stop - sl.start
        if k > 1:
            noise = rng.dirichlet([alpha] * k)
            self.e_prior[sl] = (1 - eps) * self.e_prior[sl].astype(np.float32) + eps * noise
        self.noised = True

    def memory_bytes(self) -> int:
        arrays = [getattr(self, name) for name, _ in self._NODE_FILLS + self._EDGE_FILLS]
        return sum(a.nbytes for a in arrays)

    # --- search steps ---------------------------------------------------------
    def select_leaf(self, cfg: SearchConfig):
        """Walk down by PUCT. Returns ("eval", node, path), ("terminal", node, path) or
        ("collision", node, path); ``path`` lists the nodes below the root that were walked through.
        The compiled tree walks where it is built (`_select_leaf_compiled`), the same walk."""
        if _tree_c is not None:
            return self._select_leaf_compiled(cfg)
        e_child = self.e_child   # edges grow only in expand(), never during a walk
        node = 0
        path: list[int] = []
        parent_n = self.root_n
        q_node = self.root_w / self.root_n if self.root_n > 0 else 0.0
        while True:
            if not math.isnan(self.n_term[node]):   # self.: creating a child may have grown the arrays
                return "terminal", node, path
            k = int(self.n_count[node])
            if k == 0:
                return ("collision" if node in self.pending else "eval"), node, path
            if node == 0 and self.root_win >= 0:   # a proven win: nothing else is worth a visit
                path.append(self.root_win)
                node = self.root_win
                continue
            s = int(self.n_start[node])
            kids = e_child[s:s + k]
            j = -1
            if node == 0 and self.root_rule is not None:
                j = self.root_rule.pick(self)
            elif node == 0 and self.forced_k > 0:
                j = self._forced_root_child(s, k, kids)
            if j >= 0:
                child = int(kids[j])
                parent_n = float(self.n_visits[child]) if child >= 0 else 0.0
                q_node = float(self.n_wsum[child]) / parent_n if parent_n > 0 else q_node - cfg.fpu_reduction
            else:
                pick = self._pick_small if k <= SMALL_NODE else self._pick_wide
                j, child, parent_n, q_node = pick(node, s, k, kids, q_node - cfg.fpu_reduction, parent_n, cfg)
            if child < 0:
                child = self._new_node(self.states[node].apply_nth(j), node)
                e_child[s + j] = child
                path.append(child)
                if not math.isnan(self.n_term[child]):
                    self._settle(path)
            else:
                path.append(child)
            if self.n_player[child] != self.n_player[node]:
                q_node = -q_node
            node = child

    def _select_leaf_compiled(self, cfg: SearchConfig):
        """`select_leaf` with the compiled walk: C walks down through the children that exist,
        Python steps in where a child must be created (the game's rules) and at a root that a
        root rule or forced playouts choose for."""
        c = _tree_c
        path: list[int] = []
        node = 0
        parent_n = self.root_n
        q_node = self.root_w / self.root_n if self.root_n > 0 else 0.0
        root_python = self.root_rule is not None or self.forced_k > 0
        while True:
            code, node, j, parent_n, q_node = c.descend(self, node, parent_n, q_node, cfg.cpuct, cfg.fpu_reduction,
                                                        SMALL_NODE, self.root_win, root_python, path)
            if code == c.TERMINAL:
                return "terminal", node, path
            if code == c.LEAF:
                return ("collision" if node in self.pending else "eval"), node, path
            if code == c.ROOT:
                root_python = False   # the root is walked through once
                s, k = int(self.n_start[0]), int(self.n_count[0])
                kids = self.e_child[s:s + k]
                j = self.root_rule.pick(self) if self.root_rule is not None else self._forced_root_child(s, k, kids)
                if j < 0:
                    continue   # PUCT at the root, in C
                child = int(kids[j])
                parent_n = float(self.n_visits[child]) if child >= 0 else 0.0
                q_node = float(self.n_wsum[child]) / parent_n if parent_n > 0 else q_node - cfg.fpu_reduction
                if child >= 0:
                    path.append(child)
                    if self.n_player[child] != self.n_player[0]:
                        q_node = -q_node
                    node = child
                    continue
            # code NEW (or a root edge without a child): create the child the walk chose
            return self._create_child(node, j, path)

    def _create_child(self, node: int, j: int, path: list[int]):
        """The walk along ``path`` chose edge ``j`` of ``node``, which has no child yet: create
        it. A new node is a leaf (or known at once), never pending: where the walk would stop next."""
        child = self._new_node(self.states[node].apply_nth(j), node)
        self.e_child[int(self.n_start[node]) + j] = child
        path.append(child)
        if not math.isnan(self.n_term[child]):
            self._settle(path)
            return "terminal", child, path
        return "eval", child, path

    def settle_walks(self, cfg: SearchConfig, walks: int, lossed: list[int] | None = None):
        """Up to ``walks`` walks down in C (the compiled tree only; a root that PUCT chooses
        for): each that ends at a known position is backed up at once, as `MCTS.gather` backs
        it up, and the next one starts. Returns (the walks backed up, the first walk that ended
        elsewhere as `select_leaf` gives it, or None when every walk was backed up). First, with
        ``lossed`` (the path of the leaf gathered before), that path's virtual loss
        (`apply_virtual_loss`, ``cfg.virtual_loss``), in the same call."""
        c = _tree_c
        path: list[int] = []
        lossy = () if lossed is None else (lossed, cfg.virtual_loss)
        settled, code, node, j, parent_n, q_node = c.settle(self, cfg.cpuct, cfg.fpu_reduction, SMALL_NODE,
                                                            self.root_win, cfg.draw_value, walks, path, *lossy)
        if code == c.DONE:
            return settled, None
        if code == c.DEEP:   # deeper than C's path buffer: walked as one walk is
            return settled, self._select_leaf_compiled(cfg)
        if code == c.LEAF:
            return settled, (("collision" if node in self.pending else "eval"), node, path)
        return settled, self._create_child(node, j, path)

    def _forced_root_child(self, s: int, k: int, kids: np.ndarray) -> int:
        """Forced playouts (KataGo): the open root edge furthest below its quota of
        sqrt(forced_k * prior * root visits) visits, or -1 when every edge has its quota."""
        need = np.sqrt(self.forced_k * max(self.root_n, 0.0) * self.e_prior[s:s + k].astype(np.float32))
        short = need - self.n_visits[kids]
        short[~np.isnan(self.n_term[kids])] = 0.0   # a known child needs no more visits
        j = int(short.argmax())
        return j if short[j] > 0 else -1

    def pruned_visits(self, cpuct: float) -> tuple[np.ndarray, np.ndarray]:
        """(actions, visits) of the root's children for the policy target, with forced playouts
        taken back (KataGo's policy target pruning): every move but the most visited loses the
        visits beyond those that PUCT alone would have given it (its PUCT score with fewer visits
        would have beaten the most visited move's), at most its forced quota
        sqrt(forced_k * prior * visits); a move left with a single visit gets none. Plain
        visit counts when forced playouts are off."""
        a, n, w, p, _ = self.edges(0)
        n = n.astype(np.float64)
        total = float(n.sum())
        if self.forced_k <= 0 or total <= 0 or len(n) < 2:
            return a, n
        p = p.astype(np.float64)
        q = np.where(n > 0, w / np.maximum(n, 1.0), 0.0)
        best = int(np.argmax(n))
        root = math.sqrt(total)
        best_score = q[best] + cpuct * p[best] * root / (1.0 + n[best])
        gap = best_score - q
        with np.errstate(divide="ignore", invalid="ignore"):
            fewest = np.where(gap > 0, np.ceil(cpuct * p * root / np.where(gap > 0, gap, 1.0) - 1.0), n)
        forced = np.sqrt(self.forced_k * p * total)
        out = np.clip(np.maximum(n - forced, fewest), 0.0, n)
        out[out <= 1.0] = 0.0
        out[best] = n[best]
        return a, out

    def _pick_wide(self, node: int, s: int, k: int, kids: np.ndarray, fpu: float, parent_n: float,
                   cfg: SearchConfig) -> tuple[int, int, float, float]:
        """The PUCT choice among ``node``'s children (edges ``s``..``s+k``, child nodes ``kids``,
        unvisited ones valued ``fpu``): (edge index, child node or -1, its visits, its mean
        value for this node's mover, ``fpu`` when unvisited)."""
        n = self.n_visits[kids]
        w = self.n_wsum[kids]
        q = np.where(n > 0, w / np.maximum(n, 1.0), fpu)
        # a child whose mover has a known floor (a proven draw among its moves) is worth at
        # most minus that floor to us, whatever its average says
        if self.n_floored[node]:
            floor = self.n_best[kids]
            q = np.where(self.n_owner[kids] == self.n_player[kids], np.maximum(q, floor), np.minimum(q, -floor))
        score = q + (cfg.cpuct * math.sqrt(parent_n + 1e-8)) * self.e_prior[s:s + k] / (1.0 + n)
        # a known child (finished, or proven) is never chosen again while another is open:
        # its value is exact, and only an open move could do better. Above all, once the
        # parent's value sinks towards -1, its visited losses would outrank the unvisited
        # moves (valued below them by first-play urgency) and the one defence that holds
        # might never be tried
        if 0 < self.n_done[node] < k:
            score[~np.isnan(self.n_term[kids]) & (kids >= 0)] = -np.inf
        j = int(score.argmax())
        nj = float(n[j])
        return j, int(kids[j]), nj, (float(w[j]) / nj if nj > 0 else fpu)

    def _pick_small(self, node: int, s: int, k: int, kids: np.ndarray, fpu: float, parent_n: float,
                    cfg: SearchConfig) -> tuple[int, int, float, float]:
        """`_pick_wide`'s choice, the same rule in plain Python for a node with a few children
        (numpy's cost per call outweighs its speed on a handful of numbers; the scores are
        computed in double precision, so a near-tie may fall the other way)."""
        kl = kids.tolist()
        nl = self.n_visits[kids].tolist()
        wl = self.n_wsum[kids].tolist()
        pl = self.e_prior[s:s + k].tolist()
        c = cfg.cpuct * math.sqrt(parent_n + 1e-8)
        floors = owners_move = None
        if self.n_floored[node]:
            floors = self.n_best[kids].tolist()
            owners_move = (self.n_owner[kids] == self.n_player[kids]).tolist()
        known = None
        if 0 < self.n_done[node] < k:   # known children wait while any child is open
            known = [kid >= 0 and not math.isnan(t) for kid, t in zip(kl, self.n_term[kids].tolist())]
        best, j = -math.inf, 0
        for i in range(k):
            if known is not None and known[i]:
                continue
            ni = nl[i]
            q = wl[i] / ni if ni > 0 else fpu
            if floors is not None:
                q = max(q, floors[i]) if owners_move[i] else min(q, -floors[i])
            score = q + c * pl[i] / (1.0 + ni)
            if score > best:
                best, j = score, i
        nj = nl[j]
        return j, kl[j], nj, (wl[j] / nj if nj > 0 else fpu)

    def apply_virtual_loss(self, path: list[int], vl: float) -> None:
        """Count ``vl`` lost visits on ``path`` and the root, so other leaves of a round go elsewhere."""
        if _tree_c is not None:
            _tree_c.virtual_loss(self, path, vl)
        elif path:
            idx = np.array(path)
            self.n_visits[idx] += vl
            self.n_wsum[idx] -= vl
        self.root_n += vl

    def backup(self, path: list[int], value: float, leaf_player: int, vl: float = 0.0) -> None:
        """Add ``value`` (for ``leaf_player``) along ``path``, removing virtual loss ``vl``."""
        if _tree_c is not None:
            _tree_c.backup(self, path, value, leaf_player, vl)
        elif path:
            idx = np.array(path)
            signs = np.where(self.n_owner[idx] == leaf_player, value, -value)
            self.n_wsum[idx] += signs + vl
            self.n_visits[idx] += 1.0 - vl
        self.root_n += 1.0 - vl
        self.root_w += value if self.n_player[0] == leaf_player else -value

    # --- tree reuse -----------------------------------------------------------
    def _subtree(self, child: int) -> tuple[np.ndarray, np.ndarray]:
        """(nodes, edges): the node indices of the subtree below ``child`` in breadth-first order
        (which keeps each node's edges contiguous in a copy) and their edges' indices, in turn;
        walked in C where the compiled tree is built, the same order."""
        if _tree_c is not None:
            nodes, edges = _tree_c.subtree(self, child)
            return np.frombuffer(nodes, np.int64), np.frombuffer(edges, np.int64)
        nodes = [child]
        i = 0
        while i < len(nodes):
            n = nodes[i]
            i += 1
            k = int(self.n_count[n])
            if k:
                s = int(self.n_start[n])
                kids = self.e_child[s:s + k]
                nodes.extend(int(c) for c in kids[kids >= 0])
        node_idx = np.array(nodes, np.int64)
        counts = self.n_count[node_idx].astype(np.int64)
        edge_idx = np.concatenate([np.arange(s, s + c) for s, c in zip(self.n_start[node_idx].astype(np.int64), counts)]) \
            if counts.sum() else np.zeros(0, np.int64)
        return node_idx, edge_idx

    def _copy_arrays(self, new: "Tree", node_idx: np.ndarray, edge_idx: np.ndarray) -> None:
        """Give ``new`` this tree's node arrays at ``node_idx`` and edge arrays at ``edge_idx``
        (`_subtree`'s order), renumbered: each node's edges start where its predecessors' end,
        and each edge's child is its index in ``node_idx``. Capacities are powers of two (the
        spare node after the last); copied in C where the compiled tree is built, the same arrays."""
        cap_n = max(64, 1 << int(len(node_idx) + 1).bit_length())
        cap_e = max(512, 1 << int(len(edge_idx)).bit_length())
        if _tree_c is not None:
            for name, fill in self._NODE_FILLS + self._EDGE_FILLS:
                old = getattr(self, name)
                setattr(new, name, np.full(cap_e if name.startswith("e_") else cap_n, fill, old.dtype))
            _tree_c.copy_subtree(self, new, node_idx, edge_idx)
            return
        node_map = np.full(self.num_nodes, -1, np.int64)
        node_map[node_idx] = np.arange(len(node_idx))
        counts = self.n_count[node_idx].astype(np.int64)
        new_start = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)

        def take(arr, idx, cap, fill):
            out = np.full(cap, fill, arr.dtype)
            out[:len(idx)] = arr[idx]
            return out

        for name, fill in self._NODE_FILLS:
            setattr(new, name, take(getattr(self, name), node_idx, cap_n, fill))
        new.n_start[:len(node_idx)] = np.where(counts > 0, new_start, 0)
        new.e_prior = take(self.e_prior, edge_idx, cap_e, 0)
        ch = self.e_child[edge_idx]
        new.e_child = np.full(cap_e, -1, np.int32)
        new.e_child[:len(edge_idx)] = np.where(ch >= 0, node_map[np.maximum(ch, 0)], -1)

    def child_tree(self, action: int) -> "Tree | None":
        """The subtree after ``action`` as a new compact tree, or None when it was never visited."""
        if not self.root_expanded:
            return None
        legal = self.states[0].legal_actions()
        if action not in legal:
            return None
        child = int(self.e_child[int(self.n_start[0]) + legal.index(action)])
        if child < 0 or child in self.pending:
            return None
        node_idx, edge_idx = self._subtree(child)
        nodes = node_idx.tolist()
        new = Tree.__new__(Tree)
        self._copy_arrays(new, node_idx, edge_idx)
        new.n_visits[0] = new.n_wsum[0] = 0.0   # the new root's statistics live in root_n/root_w
        new.n_owner[0] = new.n_player[0]
        new._proven = self._proven
        new._deep = self._deep
        new._plies = self._plies
        new._winner = self._winner
        new._defence = self._defence
        if not self.states[child].is_terminal():
            new.n_term[0] = np.nan   # a proven position becomes an ordinary root, to be searched
        new.states = [self.states[n] for n in nodes]
        new.pending = set()
        new.num_nodes = len(nodes)
        new.num_edges = len(edge_idx)
        new.root_state = self.states[child]
        new.root_n = float(self.n_visits[child])
        w = float(self.n_wsum[child])  # from the point of view of the player who moved
        new.root_w = w if self.n_owner[child] == self.n_player[child] else -w
        new.noised = False
        new.defended = False
        new.root_win = -1
        new.draw_value = self.draw_value
        new.select_lcb = self.select_lcb
        new.draw_winner = self.draw_winner
        new.proof_effort = self.proof_effort
        new.root_rule = None
        new.forced_k = 0.0
        if new.num_nodes > 1 and new.n_count[0] > 0:
            kids = new.e_child[:new.n_count[0]]
            kids = kids[kids >= 0]
            t = new.n_term[kids]
            won = np.where(new.n_player[kids] == new.n_player[0], t, -t) >= 1.0
            if won.any():
                new.root_win = int(kids[int(np.argmax(won))])
        new._deepen_root_children()
        new._find_root_win()
        return new


def reuse_tree(tree: "Tree | None", state) -> Tree:
    """The subtree of ``tree`` for ``state`` when ``state`` is the root or one or two plies
    after it (tree reuse between moves), else a fresh tree."""
    if tree is not None:
        root = tree.root_state
        if root.moves == state.moves and root.key() == state.key():
            return tree
        k = len(root.moves)
        extra = state.moves[k:]
        if 0 < len(extra) <= 2 and state.moves[:k] == root.moves:
            t = tree
            for a in extra:
                t = t.child_tree(a) if t is not None else None
            if t is not None and t.root_state.key() == state.key():
                return t
    return Tree(state)


def select_action(actions: np.ndarray, visits: np.ndarray, temperature: float, rng: np.random.Generator) -> int:
    """Temperature 0: the most visited move; otherwise sample visits^(1/T)."""
    if temperature <= 1e-3 or visits.sum() <= 0:
        return int(actions[int(np.argmax(visits))])
    logv = np.log(np.maximum(visits, 1e-12)) / temperature
    p = np.exp(logv - logv.max())
    p /= p.sum()
    return int(actions[rng.choice(len(actions), p=p)])


def with_capture_gain(value: float, gain: float, scale: float) -> float:
    """The network's ``value`` for the side to move, raised by what it wins by captures."""
    if gain <= 0:
        return value
    return shifted(value, gain / scale)


def shifted(value: float, shift: float) -> float:
    """``tanh(atanh(value) + shift)``, ``value`` kept inside (-1, 1) first."""
    v = min(max(value, -0.999), 0.999)
    return math.tanh(math.atanh(v) + shift)


#: what the compiled `with_tactics` calls numpy for (a floored row's new array)
_NUMPY_FLOOR_TOOLS = (np.empty, np.exp, np.float32)


def with_floors(priors: np.ndarray, actions: list[int], floors: list[tuple[int, float]]) -> np.ndarray:
    """``priors`` over ``actions`` with each ``(action, floor)`` raised to at least ``floor``
    and the other moves scaled down to keep the sum (the floors together take at most 0.9)."""
    if not floors:
        return priors
    if (_tree_c is not None and type(actions) is list and type(floors) is list and len(floors) <= MAX_FLOORS
            and isinstance(priors, np.ndarray) and priors.dtype == np.float32 and priors.ndim == 1
            and priors.flags.c_contiguous):
        out = np.empty_like(priors)   # in C, the same operations in the same order (numpy's sums)
        return out if _tree_c.floor_priors(priors, actions, floors, out) else priors
    pri = np.array(priors, np.float64)
    raised = {}
    for action, floor in floors:
        j = _position(actions, action)
        if j >= 0 and floor > pri[j]:
            raised[j] = max(raised.get(j, 0.0), floor)
    if not raised:
        return priors
    total = sum(raised.values())
    if total > 0.9:
        raised = {j: f * 0.9 / total for j, f in raised.items()}
        total = 0.9
    mask = np.ones(len(pri), bool)
    mask[list(raised)] = False
    rest = float(pri[mask].sum())
    pri[mask] *= (1.0 - total) / rest if rest > 0 else 0.0
    for j, f in raised.items():
        pri[j] = f
    return (pri / pri.sum()).astype(np.float32)


def _position(actions, action: int) -> int:
    """Where ``action`` stands in ``actions`` (a list or an array of distinct actions), -1 if absent."""
    if isinstance(actions, list):
        try:
            return actions.index(action)
        except ValueError:
            return -1
    found = np.flatnonzero(np.asarray(actions) == action)
    return int(found[0]) if len(found) else -1


def tempered(priors, temperature: float):
    """``priors`` to the power 1/``temperature``, renormalised (all zeros stay all zeros)."""
    p = np.asarray(priors, np.float64) ** (1.0 / temperature)
    total = p.sum()
    return (p / total).astype(np.float32) if total > 0 else np.asarray(priors, np.float32)


def with_tactics(states, legal, priors, values, capture_scale: float, material_scale: float = 0.0,
                 root_leads=None):
    """Leaf priors and values with what the game knows of tactics. ``State.tactical_priors()``
    names moves that deserve a share of the prior whatever the network says (xiangqi: the
    capture that starts a winning exchange; gomoku: the points that make a four or stop the
    opponent's), so the search tries them; ``State.capture_gain()`` (xiangqi) raises the value
    by what the side to move wins by captures alone (``capture_scale``; 0: not used); with
    ``material_scale`` and ``root_leads`` (each leaf's root's ``heuristic(0)``), the value moves
    by the change in the leaf mover's ``heuristic`` since the root (`SearchConfig.material_scale`)."""
    kind = type(states[0])
    floors = getattr(kind, "tactical_priors", None)
    gains = getattr(kind, "capture_gain", None) if capture_scale > 0 else None
    lead = getattr(kind, "heuristic", None) if material_scale > 0 and root_leads is not None else None
    if floors is None and gains is None and lead is None:
        return priors, values
    if _tree_c is not None and type(priors) is list and type(legal) is list:
        # the terms asked of each state here, the arithmetic in one compiled call (the same
        # operations as the loop below, which serves what that call leaves to it)
        moved = _tree_c.tactics(priors, legal, values, None if gains is None else [gains(st) for st in states],
                                None if lead is None else [lead(st, 0) for st in states],
                                None if lead is None else list(root_leads),
                                None if lead is None else [st.current_player for st in states],
                                None if floors is None else [floors(st) for st in states],
                                capture_scale, material_scale, _NUMPY_FLOOR_TOOLS)
        if moved is not None:
            return moved
    out_p, out_v = [], []
    for i, (st, acts, pri, v) in enumerate(zip(states, legal, priors, values)):
        shift = 0.0
        if gains is not None:
            gain = gains(st)
            if gain > 0:
                shift += gain / capture_scale
        if lead is not None:
            change = lead(st, 0) - root_leads[i]   # Red's view, then the leaf mover's
            shift += (change if st.current_player == 0 else -change) / material_scale
        if shift:
            v = shifted(float(v), shift)
        if floors is not None:
            raised = floors(st)
            if raised:
                pri = with_floors(pri, acts, raised)
        out_p.append(pri)
        out_v.append(v)
    return out_p, out_v


class LeafBatch:
    """The leaves one round gathered for one evaluator call: their states, legal actions,
    where they sit (tree index, node, path below the root) and each one's root heuristic."""

    def __init__(self, with_leads: bool, recalled: bool = False):
        self.states: list = []
        self.legal: list = []
        self.owners: list[tuple[int, int, list[int]]] = []
        self.leads: list | None = [] if with_leads else None
        #: the leaves' input planes and digests, where the evaluator's memory was asked at
        #: gathering (`MCTS.recall_in_gather`)
        self.planes: list | None = [] if recalled else None
        self.keys: list | None = [] if recalled else None


class MCTS:
    """Runs searches on batches of trees with one evaluator.

    ``threads`` above 1 runs a search on that many threads sharing the trees
    (`engine.core.parallel`), for an evaluator whose work releases the GIL (``releases_gil``:
    the network runtimes); any other evaluator searches on one thread, as does ``threads`` 1,
    which is exactly the single-threaded search."""

    def __init__(self, evaluator, config: SearchConfig | None = None, seed: int | None = None, threads: int = 1):
        self.evaluator = evaluator
        self.cfg = config or SearchConfig()
        self.rng = np.random.default_rng(seed)
        #: chooses the root's children instead of PUCT when set (`engine.core.gumbel.GumbelRule`)
        self.root_rule = None
        self.threads = threads
        #: where the evaluator remembers evaluations (`BatchNetEvaluator.remember`) and this is
        #: on, a leaf it remembers is expanded and backed up as it is gathered, and the gathering
        #: goes on, so the network's batches stay full of positions it has not seen (off:
        #: remembered leaves wait in the batch, and the search is the one without the memory,
        #: visit for visit); None: as the evaluator was told (`remember`'s ``in_gather``, from
        #: the game's ``[play] memory_in_gather``)
        self.recall_in_gather: bool | None = None

    @property
    def threads(self) -> int:
        """Search threads in use: the number asked for where the evaluator releases the GIL, else 1."""
        return self._threads if getattr(self.evaluator, "releases_gil", False) else 1

    @threads.setter
    def threads(self, value: int) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ValueError(f"threads must be a whole number of at least 1, not {value!r}")
        self._threads = value

    def search(self, trees: list[Tree], visits: int | list[int], deadline: float | None = None,
               on_progress=None, should_stop=None, noise: bool = False, leaf_batch: int | None = None,
               max_rounds: int | None = None) -> int:
        """Search until each root has ``visits`` visits in all (reused visits count), the
        ``deadline`` (time.perf_counter value) passes, ``should_stop()`` says so, or
        ``max_rounds`` rounds (one network call each) have run; the garbage collector paused
        meanwhile (`collector_paused`).

        Returns the number of simulations run.
        """
        with collector_paused():
            return self._search(trees, visits, deadline, on_progress, should_stop, noise, leaf_batch, max_rounds)

    def _search(self, trees, visits, deadline, on_progress, should_stop, noise, leaf_batch, max_rounds) -> int:
        cfg = self.cfg
        batch = leaf_batch or cfg.leaf_batch
        targets = visits if isinstance(visits, list) else [visits] * len(trees)
        for t in trees:
            t.draw_value = cfg.draw_value
            t.select_lcb = cfg.select_lcb
            t.draw_winner = cfg.draw_winner
            t.proof_effort = cfg.proof_effort
            if not cfg.proofs:   # the threat defence proves with the same search
                t._deep = t._winner = t._defence = None
        if cfg.tactics:   # a root taken over from an earlier search
            for t in trees:
                t.restrict_root()
        active = [i for i, t in enumerate(trees) if not t.is_root_terminal()]
        lead = getattr(type(trees[0].states[0]), "heuristic", None) if trees else None
        root_leads = ([lead(t.states[0], 0) for t in trees] if cfg.tactics and cfg.material_scale > 0
                      and lead is not None else None)
        if self.threads > 1 and active:
            from .parallel import threaded_search
            return threaded_search(self, trees, targets, active, root_leads, batch, deadline, on_progress,
                                   should_stop, noise, max_rounds)
        sims = 0
        rounds = 0
        last_report = time.perf_counter()
        while active:
            if max_rounds is not None and rounds >= max_rounds:
                break
            rounds += 1
            leaves = self.new_leaves(root_leads)
            for i in active:
                t = trees[i]
                room = int(targets[i] - t.root_n)
                want = min(batch, room) if t.root_expanded else 1
                sims += self.gather(trees, i, want, root_leads, leaves, room)
            if leaves.states:
                priors, values = self.evaluate(leaves)
                sims += self.expand(trees, leaves, priors, values, targets, noise)
            if noise and cfg.dirichlet_alpha:
                self.noise_roots(trees, active)
            active = [i for i in active if trees[i].root_n < targets[i]]
            now = time.perf_counter()
            if deadline is not None and now >= deadline and all(trees[i].root_expanded for i in active):
                break
            if should_stop is not None and should_stop():
                break
            if on_progress is not None and now - last_report >= 0.1:
                last_report = now
                on_progress()
        return sims

    # --- the phases of a round (`engine.core.parallel` runs them on several threads) ---
    def _recalling(self) -> bool:
        """Whether gathering asks the evaluator's memory (`recall_in_gather`)."""
        wanted = self.recall_in_gather
        if wanted is None:
            wanted = getattr(self.evaluator, "in_gather", False)
        return bool(wanted) and getattr(self.evaluator, "remembering", False)

    def new_leaves(self, root_leads) -> LeafBatch:
        """An empty batch of leaves, with room for their roots' heuristic where ``root_leads``."""
        return LeafBatch(root_leads is not None, self._recalling())

    def gather(self, trees: list[Tree], i: int, want: int, root_leads, leaves: LeafBatch,
               room: int | None = None) -> int:
        """Walk ``trees[i]`` down to up to ``want`` leaves and add those to evaluate to
        ``leaves`` (virtual loss on their paths, marked pending); finished and proven ones are
        backed up at once. Stops at the first collision. Returns the simulations backed up.

        Where the evaluator's memory is asked (``leaves.keys``; `recall_in_gather`), a leaf it
        remembers is expanded and backed up at once too, and the walks go on until ``want``
        leaves wait for the network, ``room`` walks (the visits the tree still lacks) or
        `RECALL_WALKS` times ``want`` walks have been made."""
        cfg = self.cfg
        t = trees[i]
        recall = self.evaluator.recall if leaves.keys is not None else None
        walks = max(want, 0) if recall is None else min(want if room is None else room, RECALL_WALKS * want)
        sims = queued = 0
        # the compiled tree backs up the walks that end at known positions without coming back
        # here (`Tree.settle_walks`), where PUCT chooses at the root; the same walks and backups
        settling = _tree_c is not None and t.root_rule is None and t.forced_k <= 0
        lossed = None   # a queued leaf's path whose virtual loss the next settle_walks puts on
        left = walks
        while left > 0:
            if settling:
                settled, step = t.settle_walks(cfg, left, lossed)
                lossed = None
                sims += settled
                left -= settled
                if step is None:
                    break
                kind, node, path = step
            else:
                kind, node, path = t.select_leaf(cfg)
            left -= 1
            if kind == "terminal":
                v = float(t.n_term[node])
                if v == 0.0 and cfg.draw_value:
                    t.backup(path, cfg.draw_value, int(t.n_owner[node]))
                else:
                    t.backup(path, v, int(t.n_player[node]))
                sims += 1
                continue
            if kind == "collision":
                break
            st = t.states[node]
            acts = st.legal_actions()
            if recall is not None:
                entry, planes, key = recall(st, acts)
                if entry is not None and node != 0:   # the root goes to the network: `expand` sets it up
                    lead = None if leaves.leads is None else [root_leads[i]]
                    priors, values = self.shaped([st], [acts], [entry[0]], np.array([entry[1]]), lead)
                    t.expand(node, acts, priors[0])
                    t.backup(path, float(values[0]), int(t.n_player[node]))
                    sims += 1
                    continue
                leaves.planes.append(planes)
                leaves.keys.append(key)
            if settling:
                lossed = path   # put on by the next walk's call, or below
            else:
                t.apply_virtual_loss(path, cfg.virtual_loss)
            t.pending.add(node)
            leaves.states.append(st)
            leaves.legal.append(acts)
            leaves.owners.append((i, node, path))
            if leaves.leads is not None:
                leaves.leads.append(root_leads[i])
            queued += 1
            if queued >= want:
                break
        if lossed is not None:
            t.apply_virtual_loss(lossed, cfg.virtual_loss)
        return sims

    def evaluate(self, leaves: LeafBatch):
        """(priors, values) of the gathered leaves: the evaluator's, tempered and with the
        game's tactics. Reads only the leaves' states, so it needs no lock on the trees."""
        if leaves.keys is not None:
            priors, values = self.evaluator.evaluate_recalled(leaves.states, leaves.legal, leaves.planes, leaves.keys)
        else:
            priors, values = self.evaluator.evaluate(leaves.states, leaves.legal)
        return self.shaped(leaves.states, leaves.legal, priors, values, leaves.leads)

    def shaped(self, states, legal, priors, values, leads):
        """The evaluator's ``priors`` and ``values`` of ``states`` tempered and with the game's
        tactics (``leads``: each one's root heuristic, or None)."""
        cfg = self.cfg
        if cfg.policy_temperature != 1.0:
            priors = [tempered(p, cfg.policy_temperature) for p in priors]
        if cfg.tactics:
            priors, values = with_tactics(states, legal, priors, values, cfg.capture_scale,
                                          cfg.material_scale, leads)
        return priors, values

    def expand(self, trees: list[Tree], leaves: LeafBatch, priors, values, targets, noise: bool) -> int:
        """Expand the evaluated leaves and back their values up, taking their virtual loss
        off. Returns the simulations backed up."""
        if _tree_c is not None:
            return self._expand_compiled(trees, leaves, priors, values, targets, noise)
        return self._expand_each(trees, leaves, priors, values, targets, noise)

    def _expand_each(self, trees, leaves, priors, values, targets, noise: bool) -> int:
        """`expand` leaf by leaf (the Python tree's way, and the reference `_expand_compiled` keeps to)."""
        for (i, node, path), acts, pri, v in zip(leaves.owners, leaves.legal, priors, values):
            t = trees[i]
            t.pending.discard(node)
            if node == 0:
                self._expand_root(t, acts, pri, v, targets[i], noise, path)
            else:
                self._expand_below(t, node, acts, pri, v, path)
        return len(leaves.states)

    def _expand_below(self, t: Tree, node: int, acts, pri, v, path) -> None:
        """`expand` of a leaf below the root: its edges, then its value backed up, virtual loss off."""
        t.expand(node, acts, pri)
        t.backup(path, float(v), int(t.n_player[node]), self.cfg.virtual_loss)

    def _expand_compiled(self, trees, leaves, priors, values, targets, noise: bool) -> int:
        """`expand` with the compiled tree: each tree's leaves below the root expanded and backed
        up in one call (`_tree_c.expand_many`, in their order: the same arrays bit for bit); a
        root, and a batch the call leaves alone (edge arrays to grow, a NaN prior), as `expand`
        does it."""
        groups: dict[int, list[int]] = {}
        for k, (i, node, _) in enumerate(leaves.owners):
            trees[i].pending.discard(node)
            groups.setdefault(i, []).append(k)
        owners, legal = leaves.owners, leaves.legal
        for i, ks in groups.items():
            t = trees[i]
            below = [k for k in ks if owners[k][1] != 0]
            if below:
                done = _tree_c.expand_many(t, [owners[k][1] for k in below], [owners[k][2] for k in below],
                                           [legal[k] for k in below], [priors[k] for k in below],
                                           [values[k] for k in below], self.cfg.virtual_loss)
                if done is None:
                    for k in below:
                        self._expand_below(t, owners[k][1], legal[k], priors[k], values[k], owners[k][2])
                else:
                    t.num_edges = done
            for k in ks:
                if owners[k][1] == 0:
                    self._expand_root(t, legal[k], priors[k], values[k], targets[i], noise, owners[k][2])
        return len(leaves.states)

    def _expand_root(self, t: Tree, acts, pri, v, target, noise: bool, path) -> None:
        """`expand` of a tree's root leaf: its edges, the root's tactics, rule and noise, its backup."""
        cfg = self.cfg
        t.expand(0, acts, pri)
        if cfg.tactics:
            t.restrict_root()
        if self.root_rule is not None and t.root_rule is None:
            self.root_rule.attach(t, float(v), int(target), self.rng)
        if noise and cfg.dirichlet_alpha and not t.noised:
            t.add_root_noise(cfg.dirichlet_alpha, cfg.dirichlet_eps, self.rng)
        t.backup(path, float(v), int(t.n_player[0]), cfg.virtual_loss)

    def noise_roots(self, trees: list[Tree], active: list[int]) -> None:
        """Dirichlet noise on every expanded root of ``active`` that has none yet."""
        cfg = self.cfg
        for i in active:
            t = trees[i]
            if t.root_expanded and not t.noised:
                t.add_root_noise(cfg.dirichlet_alpha, cfg.dirichlet_eps, self.rng)
