"""Leaf evaluators: give MCTS priors over the legal actions and a value for the player to move.

Every evaluator takes a *batch* of states, so a search can send many leaves (of one
tree or of many games) in one call.
"""
from __future__ import annotations

import hashlib
from itertools import chain
import random
import threading
from typing import Protocol, Sequence

import numpy as np


class Evaluator(Protocol):
    def evaluate(self, states: Sequence, legal: Sequence[list[int]]) -> tuple[list[np.ndarray], np.ndarray]:
        """Priors over each state's legal actions (aligned with ``legal``) and values in [-1, 1]."""


class BatchNetEvaluator:
    """An evaluator backed by a network: subclasses give ``infer`` (stacked input planes ->
    (logits, values)); this turns its outputs into legal-move priors and counts the calls."""

    runtime = "?"
    #: the network runtimes compute without the GIL, so several search threads overlap their
    #: calls with each other's tree work (`MCTS` ``threads``)
    releases_gil = True
    #: the input planes the network reads (None: all of the game's); fewer for a network
    #: trained on an earlier encoding (``Game.legacy_planes``)
    in_planes: int | None = None

    def __init__(self):
        self.calls = 0
        self.positions = 0
        #: evaluations answered from the memory (`remember`) instead of the network
        self.recalled = 0
        self._memory: dict | None = None
        self._memory_size = 0
        #: whether a search should back a remembered leaf up as it gathers it (`remember`)
        self.in_gather = False
        self._memory_lock = threading.Lock()

    def remember(self, entries: int, in_gather: bool = False):
        """Keep the last ``entries`` evaluations (0: none, the default) and answer a position
        seen again from them instead of the network; returns ``self``. ``in_gather``: a search
        with this evaluator backs a remembered leaf up as it gathers it (`MCTS.recall_in_gather`).

        A search meets the same position again whenever moves can be played in another order
        (a transposition): in Connect Four about 40% of a 2,900-visit search's network calls
        and in xiangqi about a third of a 1,000-visit one's repeat an earlier call of the same
        search (docs/performance.md, "Remembered evaluations"). A position is recognised by
        its input planes, the player to move and its legal moves together (a 128-bit digest),
        so a remembered answer is what the network gave for exactly that input; the oldest
        entries go first once the memory is full. Use it only for one network's evaluations:
        an evaluator never changes its weights (a new network means a new evaluator)."""
        if isinstance(entries, bool) or not isinstance(entries, int) or entries < 0:
            raise ValueError(f"entries must be a whole number of at least 0, not {entries!r}")
        with self._memory_lock:
            self._memory_size = entries
            self._memory = {} if entries else None
        self.in_gather = bool(in_gather)
        return self

    @property
    def remembering(self) -> bool:
        """Whether the memory (`remember`) is on."""
        return self._memory is not None

    def recall(self, state, legal) -> tuple[tuple[np.ndarray, float] | None, np.ndarray, bytes]:
        """What the memory (`remember`, which must be on) holds for ``state``: ``(entry, planes,
        key)``, where ``entry`` is ``(priors, value)`` (priors a copy, the search may change
        them) or None, and ``planes`` and ``key`` are the position's input and digest, which
        `evaluate_recalled` takes back for a position the network must see."""
        planes = self.encode(state)
        key = _position_key(planes, state.current_player, legal)
        with self._memory_lock:
            found = self._memory.get(key)
        if found is None:
            return None, planes, key
        self.recalled += 1
        return (found[0].copy(), found[1]), planes, key

    def evaluate_recalled(self, states, legal, planes: list, keys: list):
        """`evaluate` for positions `recall` has already encoded and digested (``planes`` and
        ``keys``, as it gave them), with the memory on: the same answers, without encoding
        them twice."""
        return self._evaluate_remembering(states, legal, np.stack(planes), keys)

    def forget(self) -> None:
        """Empty the memory (`remember`), keeping its size."""
        with self._memory_lock:
            if self._memory is not None:
                self._memory = {}

    def encode(self, state) -> np.ndarray:
        """``state``'s input planes as this evaluator's network reads them."""
        return state.encode() if self.in_planes is None else state.encode_planes(self.in_planes)

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        raise NotImplementedError

    def encode_batch(self, states) -> np.ndarray:
        """The stacked `encode` of ``states`` (the game's batch encoder, `State.encode_batch`)."""
        return type(states[0]).encode_batch(states, self.in_planes)

    def evaluate(self, states, legal):
        planes = self.encode_batch(states)
        if self._memory is not None:
            return self._evaluate_remembering(states, legal, planes)
        logits, values = self._outputs(states, planes)
        self.calls += 1
        self.positions += len(states)
        return self._priors(logits, legal), np.asarray(values, dtype=np.float64)

    def _evaluate_remembering(self, states, legal, planes, keys=None):
        """`evaluate` with the memory: the network sees only the positions it does not hold
        (each once, however often it appears in the batch); ``keys``: their digests where known."""
        if keys is None:
            keys = [_position_key(p, s.current_player, acts) for p, s, acts in zip(planes, states, legal)]
        memory = self._memory
        with self._memory_lock:
            found = [memory.get(k) for k in keys]
        first: dict[bytes, int] = {}
        for i, (k, f) in enumerate(zip(keys, found)):
            if f is None and k not in first:
                first[k] = i
        if first:
            rows = list(first.values())
            logits, values = self._outputs([states[i] for i in rows], planes[rows])
            self.calls += 1
            self.positions += len(rows)
            priors = self._priors(logits, [legal[i] for i in rows])
            new = {keys[i]: (p, float(v)) for i, p, v in zip(rows, priors, np.asarray(values, np.float64))}
            with self._memory_lock:
                for k, entry in new.items():
                    memory[k] = entry
                while len(memory) > self._memory_size:
                    del memory[next(iter(memory))]   # the oldest first (dicts keep insertion order)
            found = [f if f is not None else new[k] for k, f in zip(keys, found)]
        self.recalled += len(states) - len(first)
        # copies: the search may change the priors it is given
        return [f[0].copy() for f in found], np.array([f[1] for f in found], dtype=np.float64)

    def _outputs(self, states, planes) -> tuple[np.ndarray, np.ndarray]:
        """(logits, values) for the ``states`` whose stacked planes are ``planes``: a
        subclass that values a state by more than its planes overrides this."""
        return self.infer(planes)

    @staticmethod
    def _priors(logits, legal) -> list[np.ndarray]:
        """Each row's softmax over its legal actions: ``z = row[acts]; e = exp(z - z.max());
        e / e.sum()``, with the gathering, exponentials and divisions done for the whole batch
        at once. Element-wise numpy gives each element what it gives it alone, and each row's
        sum is still that row's own ``sum()`` (numpy's pairwise order, which ``add.reduceat``
        does not keep), so the priors are those of the row-by-row loop bit for bit. Where the
        compiled tree is built, one call (`_tree_c.priors`) gathers, shifts, sums and divides
        (numpy's order, numpy's float32 operations) around numpy's own exponential and returns
        each row's view: the same bits without some thirty numpy operations and Python steps,
        which after the network's call run in a cold cache."""
        compiled = _compiled_tree()
        if compiled is not None and type(legal) is list and isinstance(logits, np.ndarray) and logits.dtype == np.float32:
            rows = compiled.priors(np.ascontiguousarray(logits), legal, _NUMPY_TOOLS)
            if rows is not None:
                return rows
        lens = np.fromiter(map(len, legal), np.int64, len(legal))
        if not len(lens) or not lens.all():
            return [BatchNetEvaluator._row_priors(row, acts) for row, acts in zip(logits, legal)]
        logits = np.ascontiguousarray(logits)
        total = int(lens.sum())
        idx = np.fromiter(chain.from_iterable(legal), np.int64, total)
        bounds = np.zeros(len(lens) + 1, np.int64)
        np.cumsum(lens, out=bounds[1:])
        b = bounds.tolist()
        idx += np.repeat(np.arange(len(lens), dtype=np.int64) * logits.shape[1], lens)
        z = logits.reshape(-1)[idx]
        z -= np.repeat(np.maximum.reduceat(z, bounds[:-1]), lens)
        np.exp(z, out=z)
        rows = [z[b[i]:b[i + 1]] for i in range(len(lens))]
        z /= np.repeat(np.array([r.sum() for r in rows], z.dtype), lens)
        return rows

    @staticmethod
    def _row_priors(row, acts) -> np.ndarray:
        """One row's softmax over its legal actions (the reference `_priors` keeps to)."""
        z = row[acts]
        z = np.exp(z - z.max())
        return z / z.sum()


#: what the compiled `_priors` calls numpy for (its exponential is numpy's own)
_NUMPY_TOOLS = (np.empty, np.exp, np.float32)


def _compiled_tree():
    """The compiled tree module (its softmax helpers), or None where the Python path runs."""
    from . import mcts
    return mcts._tree_c


def _position_key(planes: np.ndarray, player: int, legal) -> bytes:
    """A 128-bit digest of what a network evaluation of a position depends on."""
    h = hashlib.blake2b(np.ascontiguousarray(planes).data, digest_size=16)
    h.update(np.asarray(legal, dtype=np.int64).tobytes())
    h.update(bytes((int(player) & 0xFF,)))
    return h.digest()


class NetworkEvaluator(BatchNetEvaluator):
    """The policy/value network in torch, called once per batch in inference mode.

    It evaluates a frozen copy of ``net`` made for inference (`network.inference_copy`:
    batch norms folded, channels-last), run as a flat list of torch calls on prepacked
    weights (`leanforward.lean_forward`, the same outputs), so later changes to ``net``
    (training) do not reach it: make a new evaluator for new weights."""

    def __init__(self, net, device: str = "cpu", precision: str = "fp32", draw_winner: int = -1):
        """``precision``: "fp32"; "bf16" (bfloat16 weights and inputs: about twice the speed
        on a CPU with bfloat16 instructions, far slower on one without); or "auto", bf16 only
        where a quick timing on this machine shows it pays (`network.bf16_pays`).

        ``draw_winner`` (0 or 1; -1 off), for a network with a win/draw/loss head only: values
        score a draw as a win for that player, P(win) + P(draw) - P(loss) for it and P(win) -
        P(draw) - P(loss) for its opponent (self-play's ``[selfplay] draw_winner``, whose
        tree scores finished draws so), while the network keeps learning the real outcome."""
        super().__init__()
        if draw_winner not in (-1, 0, 1):
            raise ValueError(f"draw_winner must be -1, 0 or 1, not {draw_winner!r}")
        self.draw_winner = draw_winner if getattr(net.cfg, "wdl", False) else -1
        self.in_planes = net.cfg.in_planes
        import torch
        from .config import PRECISIONS
        from .network import bf16_pays, inference_copy
        if precision not in PRECISIONS:
            raise ValueError(f"precision must be one of {', '.join(PRECISIONS)}, not {precision!r}")
        self.torch = torch
        self.net = net.to(device).eval()
        self.fast_net = inference_copy(self.net)
        self.device = device
        self.dtype = torch.float32
        if precision == "bf16" or (precision == "auto" and device == "cpu" and bf16_pays(self.fast_net)):
            self.fast_net = self.fast_net.to(torch.bfloat16)
            self.dtype = torch.bfloat16
        from .leanforward import lean_forward
        self.forward = lean_forward(self.fast_net, device)
        self.runtime = "torch-bf16" if self.dtype == torch.bfloat16 else "torch-fp32"

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Raw network outputs (logits, values) for stacked input planes."""
        torch = self.torch
        with torch.inference_mode():
            x = torch.from_numpy(planes).to(self.device, self.dtype).contiguous(memory_format=torch.channels_last)
            logits, values = self.forward(x)
            return logits.float().cpu().numpy(), values.float().cpu().numpy()

    def infer_wdl(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits, (win, draw, loss) probabilities (B, 3)) for a network with a
        win/draw/loss head (ValueError for one without)."""
        if not self.net.cfg.wdl:
            raise ValueError("this network has no win/draw/loss head")
        torch = self.torch
        with torch.inference_mode():
            x = torch.from_numpy(planes).to(self.device, self.dtype).contiguous(memory_format=torch.channels_last)
            logits, _, raw = self.forward(x, wdl=True)
            return logits.float().cpu().numpy(), torch.softmax(raw.float(), dim=1).cpu().numpy()

    def _outputs(self, states, planes):
        if self.draw_winner < 0:
            return self.infer(planes)
        logits, wdl = self.infer_wdl(planes)
        sign = np.array([1.0 if s.current_player == self.draw_winner else -1.0 for s in states])
        return logits, wdl[:, 0].astype(np.float64) - wdl[:, 2] + sign * wdl[:, 1]


class RolloutEvaluator:
    """Uniform priors and the result of random playouts: an AI for games with no trained model.

    ``rollouts`` playouts per leaf, each cut off after ``max_plies`` (scored as a draw).
    """

    def __init__(self, rollouts: int = 1, max_plies: int = 200, seed: int | None = None):
        self.rollouts = rollouts
        self.max_plies = max_plies
        self.rng = random.Random(seed)

    def playout(self, state) -> float:
        """Play random moves to the end; the result for the player to move at ``state``."""
        me = state.current_player
        fast = getattr(state, "random_playout", None)   # a game's own allocation-free playout
        if fast is not None:
            finished, w = fast(self.rng, self.max_plies)
            return 0.0 if not finished or w is None else (1.0 if w == me else -1.0)
        s = state
        choice = self.rng.choice
        for _ in range(self.max_plies):
            acts = s.legal_actions()
            if not acts:
                break
            s = s.apply(choice(acts))
        if not s.is_terminal():
            return 0.0
        w = s.winner()
        return 0.0 if w is None else (1.0 if w == me else -1.0)

    def evaluate(self, states, legal):
        # near-uniform priors with a tiny random tilt: untried moves are taken in random order
        # (exact ties would make the search try moves in index order, a1 a2 a3 ...)
        priors = []
        for a in legal:
            p = 1.0 + 1e-3 * np.array([self.rng.random() for _ in a])
            priors.append(p / p.sum())
        values = np.array([sum(self.playout(s) for _ in range(self.rollouts)) / self.rollouts for s in states])
        return priors, values


class UniformEvaluator:
    """Uniform priors and value 0: pure tree search (tests, minimax convergence)."""

    def evaluate(self, states, legal):
        return [np.full(len(a), 1.0 / len(a)) for a in legal], np.zeros(len(states))


class SymmetryEvaluator(BatchNetEvaluator):
    """A network evaluator that looks at each position under several of the game's board
    symmetries and averages what it sees: the network is called on every transformed copy in
    one batch, its policy logits are turned back to the original board and averaged, and so
    are its values. A trained network is only approximately symmetric, so the average is a
    less noisy evaluation, for ``count`` times the network work per leaf (less in time: the
    copies share one call).

    ``count`` takes the first ``count`` of ``game.symmetries()`` (the first is the identity);
    a game with fewer symmetries uses all it has."""

    def __init__(self, inner: BatchNetEvaluator, game, count: int):
        super().__init__()
        syms = game.symmetries()[:max(1, count)]
        self.inner = inner
        self.in_planes = inner.in_planes
        self.count = len(syms)
        self.cell_perms = [np.asarray(c, np.int64) for c, _ in syms]
        # the network's output for a transformed board at action j is about the original
        # board's action a_perm[j]; so the original's logits are out[:, inverse[a]]
        self.action_inv = [np.argsort(a) for _, a in syms]   # a permutation's inverse
        self.runtime = f"{inner.runtime}, {self.count} symmetries averaged"

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        b, c, h, w = planes.shape
        flat = planes.reshape(b, c, h * w)
        copies = np.concatenate([flat[:, :, perm] for perm in self.cell_perms]).reshape(self.count * b, c, h, w)
        logits, values = self.inner.infer(np.ascontiguousarray(copies))
        logits = np.asarray(logits).reshape(self.count, b, -1)
        values = np.asarray(values, np.float64).reshape(self.count, b)
        back = np.mean([logits[k][:, inv] for k, inv in enumerate(self.action_inv)], axis=0)
        return back, values.mean(axis=0)


def policy_game_positions(game, evaluator, count: int, seed: int = 0, parallel: int = 64) -> list:
    """``count`` non-terminal positions drawn evenly from games in which every move is sampled
    from ``evaluator``'s priors: self-play's states without the search, the kind a search
    meets rather than random boards (``parallel`` games advance together, a network call a ply)."""
    rng = np.random.default_rng(seed)
    seen: list = []
    states = [game.initial_state() for _ in range(parallel)]
    while len(seen) < 4 * count:
        legal = [s.legal_actions() for s in states]
        priors, _ = evaluator.evaluate(states, legal)
        nxt = []
        for s, acts, p in zip(states, legal, priors):
            seen.append(s)
            child = s.apply(acts[int(rng.choice(len(acts), p=p / p.sum()))])
            nxt.append(game.initial_state() if child.is_terminal() else child)
        states = nxt
    picks = rng.choice(len(seen), size=count, replace=False)
    return [seen[int(i)] for i in sorted(picks)]
