"""``bench``'s comparison of the network's runtimes: speed per batch, and accuracy against torch float32.

Accuracy is measured on positions from games the network plays against itself, each move
drawn from its own priors (self-play's states without the search), so the positions are
the kind a search meets rather than random boards.
"""
from __future__ import annotations

import numpy as np


def policy_game_positions(game, evaluator, count: int, seed: int = 0, parallel: int = 64) -> list:
    """``count`` non-terminal positions, drawn evenly from games in which every move is sampled
    from ``evaluator``'s priors (``parallel`` games advance together, one network call a ply)."""
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


def accuracy(reference, other, positions: list, batch: int = 64) -> dict:
    """How far ``other``'s outputs are from ``reference``'s on ``positions``: mean and largest
    value difference, and the share of positions whose top legal move is the same."""
    diffs, same = [], 0
    for i in range(0, len(positions), batch):
        chunk = positions[i:i + batch]
        planes = np.stack([s.encode() for s in chunk])
        ref_logits, ref_values = reference.infer(planes)
        logits, values = other.infer(planes)
        diffs.extend(np.abs(np.asarray(values, np.float64) - np.asarray(ref_values, np.float64)).tolist())
        for s, a, b in zip(chunk, ref_logits, logits):
            legal = s.legal_actions()
            same += int(legal[int(np.argmax(a[legal]))] == legal[int(np.argmax(b[legal]))])
    return {"mean_value_diff": round(float(np.mean(diffs)), 5), "max_value_diff": round(float(np.max(diffs)), 5),
            "same_top_move": round(same / len(positions), 4)}


#: the accuracy a runtime needs to be used in place of float32 (issue 21)
MAX_MEAN_VALUE_DIFF = 0.01
MIN_SAME_TOP_MOVE = 0.99


def compare_runtimes(net, game, batches=(1, 8, 64), window: float = 0.2, accuracy_positions: int = 2000,
                     seed: int = 0) -> dict:
    """Positions per second of every runtime at each batch (interleaved, best of 3 windows),
    and each runtime's accuracy against torch float32 on ``accuracy_positions`` positions."""
    from ..core.onnxnet import export_bytes
    from ..core.runtime import RUNTIMES, build_evaluator, sample_planes, time_runtimes
    model = export_bytes(net)
    evaluators = {}
    for name in RUNTIMES:
        try:
            evaluators[name] = build_evaluator(name, net, model)
        except Exception as e:   # a runtime this machine lacks is reported, not fatal
            evaluators[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    usable = {k: v for k, v in evaluators.items() if not isinstance(v, str)}
    speed = {name: {} for name in usable}
    for b in batches:
        for name, rate in time_runtimes(usable, sample_planes(net.cfg.to_dict(), b, seed), window).items():
            speed[name][str(b)] = round(rate, 1)
    out = {"positions_per_s": speed, "unavailable": {k: v for k, v in evaluators.items() if isinstance(v, str)}}
    if accuracy_positions > 0:
        reference = usable["torch-fp32"]
        positions = policy_game_positions(game, reference, accuracy_positions, seed)
        acc = {}
        for name, ev in usable.items():
            if name == "torch-fp32":
                continue
            a = accuracy(reference, ev, positions)
            a["accurate"] = a["mean_value_diff"] <= MAX_MEAN_VALUE_DIFF and a["same_top_move"] >= MIN_SAME_TOP_MOVE
            acc[name] = a
        out["accuracy_vs_torch_fp32"] = acc
        out["accuracy_positions"] = len(positions)
    return out
