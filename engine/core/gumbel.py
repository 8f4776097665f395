"""Gumbel root search for self-play (Danihelka et al., "Policy improvement by planning with
Gumbel", ICLR 2022).

At the root, instead of PUCT with Dirichlet noise:

- each legal move ``a`` gets a Gumbel sample ``g(a)``; the ``m`` moves with the largest
  ``g(a) + logit(a)`` are considered (sampling without replacement from the prior);
- sequential halving spreads the ``n`` simulations over them: every considered move is
  visited equally often in a phase, then the better half by ``g + logit + sigma(q)`` goes on,
  until one or two remain;
- the move played is the best remaining one by the same score, and the policy target is
  ``softmax(logit + sigma(completed q))`` over every legal move, where a move the search did
  not visit is valued by the mix of the network's value and the visited moves' values.

This improves the policy even when ``n`` is far below the number of legal moves, so a
self-play move may cost 16-64 simulations instead of 200. Below the root the tree's usual
PUCT rule walks on. ``sigma(q) = (c_visit + max visits) * c_scale * q`` with ``q`` rescaled to
[0, 1] over the root's moves (c_visit 50 and c_scale 0.1, as in DeepMind's mctx library).
"""
from __future__ import annotations

import math

import numpy as np


def considered_visits(considered: int, sims: int) -> list[int]:
    """The visit count a considered move must have to be chosen at each of ``sims`` root
    simulations: sequential halving written as a schedule. Each phase gives every remaining
    move ``max(1, sims // (phases * remaining))`` more visits, then halves the remaining moves
    (down to two)."""
    if considered <= 1:
        return list(range(sims))
    phases = math.ceil(math.log2(considered))
    counts = [0] * considered
    remaining = considered
    out: list[int] = []
    while len(out) < sims:
        extra = max(1, sims // (phases * remaining))
        for _ in range(extra):
            out.extend(counts[:remaining])
            for i in range(remaining):
                counts[i] += 1
        remaining = max(2, remaining // 2)
    return out[:sims]


class GumbelRoot:
    """The root rule of one tree's search (`Tree.root_rule`); made when the root is expanded."""

    def __init__(self, tree, net_value: float, sims: int, considered: int, c_visit: float, c_scale: float,
                 rng: np.random.Generator):
        sl = tree.root_edges()
        prior = tree.e_prior[sl].astype(np.float64)
        self.logits = np.log(np.maximum(prior, 1e-12))
        self.logits -= self.logits.max()
        self.gumbel = rng.gumbel(size=len(prior))
        self.net_value = float(net_value)
        self.c_visit, self.c_scale = c_visit, c_scale
        self.schedule = considered_visits(min(considered, len(prior)), max(sims - 1, 1))

    # --- what the search sees at the root ---------------------------------------
    def completed_q(self, tree) -> tuple[np.ndarray, np.ndarray]:
        """(completed values for the root's mover, visits) of the root's moves: the mean value
        of a visited move, the exact value of a known one, the mixed value elsewhere."""
        _, n, w, _, kids = tree.edges(0)
        n = n.astype(np.float64)
        q = np.where(n > 0, w / np.maximum(n, 1.0), np.nan)
        known = tree._known_values(kids)   # exact results (a draw at the search's draw value)
        q = np.where(np.isnan(known), q, known)
        seen = ~np.isnan(q)
        prior = np.exp(self.logits)
        prior /= prior.sum()
        total = float(n.sum())
        if seen.any():
            mixed_q = float((prior[seen] * q[seen]).sum() / max(prior[seen].sum(), 1e-12))
            v_mix = (self.net_value + total * mixed_q) / (1.0 + total)
        else:
            v_mix = self.net_value
        return np.where(seen, q, v_mix), n

    def sigma(self, q: np.ndarray, n: np.ndarray) -> np.ndarray:
        lo, hi = float(q.min()), float(q.max())
        scaled = (q - lo) / max(hi - lo, 1e-8)
        return (self.c_visit + float(n.max())) * self.c_scale * scaled

    def pick(self, tree) -> int:
        """The root edge the next simulation goes through."""
        q, n = self.completed_q(tree)
        score = self.gumbel + self.logits + self.sigma(q, n)
        i = min(max(int(round(tree.root_n)) - 1, 0), len(self.schedule) - 1)
        due = n == self.schedule[i]
        if not due.any():          # visits that came another way (virtual loss, a proven child)
            due = n > 0 if (n > 0).any() else np.ones(len(n), bool)
        return int(np.where(due, score, -np.inf).argmax())

    def choice(self, tree) -> int:
        """The root edge to play: the best by ``g + logit + sigma(q)`` among the most visited."""
        q, n = self.completed_q(tree)
        score = self.gumbel + self.logits + self.sigma(q, n)
        return int(np.where(n == n.max(), score, -np.inf).argmax())

    def value(self, tree) -> float:
        """The root's value for its mover: the completed value of the move to play. The mean
        over all visits would be dragged down by the weak moves sequential halving must visit."""
        result = tree.root_result()
        if result is not None:
            return result
        q, _ = self.completed_q(tree)
        return float(q[self.choice(tree)])

    def improved_policy(self, tree) -> np.ndarray:
        """The policy target over the root's legal moves: softmax(logit + sigma(completed q))."""
        q, n = self.completed_q(tree)
        z = self.logits + self.sigma(q, n)
        p = np.exp(z - z.max())
        return p / p.sum()


class GumbelRule:
    """Makes a `GumbelRoot` for each tree whose root the search expands (`MCTS.root_rule`)."""

    def __init__(self, considered: int = 16, c_visit: float = 50.0, c_scale: float = 0.1):
        self.considered, self.c_visit, self.c_scale = considered, c_visit, c_scale

    def attach(self, tree, net_value: float, sims: int, rng: np.random.Generator) -> None:
        tree.root_rule = GumbelRoot(tree, net_value, sims, self.considered, self.c_visit, self.c_scale, rng)
