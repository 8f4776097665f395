"""What the learning-step benchmarks share (training_denormals.py, training_threads.py): a batch
of a network's own positions with targets made from the network itself, and one Adam step on it.

The positions are ``positions`` of the network's own games (every move sampled from its priors,
seed 0); the policy target is its own priors sharpened (logits doubled), the value target a
seeded ±1 result. Nothing here is a real training target: the steps cost what real ones cost,
which is all these benchmarks measure.
"""
from __future__ import annotations


def own_batch(game, net, positions: int):
    """(planes, policy target, value target) as torch tensors, for ``net`` (put in eval mode)."""
    import numpy as np
    import torch
    import torch.nn.functional as F

    from engine.core.evaluators import NetworkEvaluator, policy_game_positions
    net.eval()
    evaluator = NetworkEvaluator(net)
    states = policy_game_positions(game, evaluator, positions, seed=0)
    planes = torch.from_numpy(np.stack([evaluator.encode(s) for s in states]).astype(np.float32))
    with torch.no_grad():
        target = F.softmax(2.0 * net(planes)[0], dim=1)
    z = torch.from_numpy(np.random.default_rng(1).choice([-1.0, 1.0], size=len(states)).astype(np.float32))
    return planes, target, z


def step(net, opt, batch_tensors, batch: int, i: int) -> float:
    """The ``i``-th Adam step over ``batch_tensors`` (from `own_batch`), ``batch`` positions
    at a time, cycling through them; returns the loss (cross-entropy plus squared value error)."""
    import torch.nn.functional as F
    planes, target, z = batch_tensors
    at = (i * batch) % max(1, len(planes) - batch + 1)
    logits, value = net(planes[at:at + batch])[:2]
    loss = (-(target[at:at + batch] * F.log_softmax(logits, dim=1)).sum(1).mean()
            + F.mse_loss(value.reshape(-1), z[at:at + batch]))
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
    return loss.item()
