"""``bench``'s comparison of the network's runtimes: speed per batch, and accuracy against torch
float32 on positions of the network's own games (`runtime.policy_game_positions`)."""
from __future__ import annotations

from ..core.runtime import accuracy, is_accurate, policy_game_positions


def compare_runtimes(net, game, batches=(1, 8, 64), seconds: float = 5.0, accuracy_positions: int = 2000,
                     seed: int = 0) -> dict:
    """Positions per second of every runtime at each batch, and each runtime's accuracy against
    torch float32 on ``accuracy_positions`` positions. Speed: the best of many short windows
    (0.1 s, ``seconds`` in all per runtime and batch) on batches of the network's own positions,
    the runtimes taking turns window by window, so that a moment of other load on the machine
    costs one window, not a figure."""
    from ..core.onnxnet import export_bytes
    from ..core.runtime import RUNTIMES, build_evaluator, game_planes, time_runtimes
    model = export_bytes(net)
    evaluators = {}
    for name in RUNTIMES:
        try:
            evaluators[name] = build_evaluator(name, net, model, game=game)
        except Exception as e:   # a runtime this machine lacks is reported, not fatal
            evaluators[name] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
    usable = {k: v for k, v in evaluators.items() if not isinstance(v, str)}
    speed = {name: {} for name in usable}
    for b in batches:
        # the network's own positions, several batches in turn: static int8's checked form looks
        # again at the near ties among them, which random planes would make up
        planes = game_planes(game, usable["torch-fp32"], b, seed=seed + 1)
        for name, rate in time_runtimes(usable, planes, 0.1, rounds=max(3, round(seconds / 0.1)), batch=b).items():
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
            a["accurate"] = is_accurate(a)
            acc[name] = a
        out["accuracy_vs_torch_fp32"] = acc
        out["accuracy_positions"] = len(positions)
    return out
