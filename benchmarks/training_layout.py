"""Learning steps in torch's default layout and in channels-last: the same losses, and their CPU.

Per game, the shipped model (or ``--model``): ``--positions`` positions of the network's own
games with targets made from the network itself (``learning_steps.own_batch``); then a fresh
copy of the network takes ``--steps`` Adam steps (batch ``--batch``, learning rate 5e-4, weight
decay 1e-4, ``--threads`` torch threads) in each layout: the default (NCHW), and channels-last,
where the network's weights and each batch of planes are stored channels-last, as
`engine.training.train` does with ``channels_last`` on. The two take turns ``--rounds`` times.
Prints, per game: the largest difference of the losses step by step (absolute and relative to
the loss), of the weights after the steps, and each layout's CPU seconds (``time.process_time``)
with the ratio of the best rounds. ``--threads-reference N`` also runs the default layout once on
``N`` threads from the same start: the loss differences another thread count makes, which the
training already accepts (it runs as many torch threads as the run has workers).

    python benchmarks/training_layout.py --games gomoku xiangqi othello connect4
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def rel(a: list[float], b: list[float]) -> float:
    """The largest difference of ``b`` from ``a``, element by element, relative to ``a``."""
    return max(abs(x - y) / max(abs(x), 1e-12) for x, y in zip(a, b))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["gomoku"])
    ap.add_argument("--model", help="a checkpoint instead of the shipped model (one game)")
    ap.add_argument("--positions", type=int, default=512)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--threads-reference", type=int, default=0,
                    help="also run the default layout on this many threads (once): the loss differences a thread count makes")
    args = ap.parse_args()
    import torch
    from learning_steps import own_batch, step

    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.paths import shipped_model_path
    from games import get_game
    configure_threads(args.threads)
    for gid in args.games:
        game = get_game(gid)
        path = Path(args.model) if args.model else shipped_model_path(game.key)
        net0, _ = load_network(path, game)
        planes, target, z = own_batch(game, net0, args.positions)

        def run(channels_last: bool, threads: int | None = None):
            torch.set_num_threads(threads or args.threads)
            net = copy.deepcopy(net0)
            tensors = (planes, target, z)
            if channels_last:
                net = net.to(memory_format=torch.channels_last)
                tensors = (planes.contiguous(memory_format=torch.channels_last), target, z)
            net.train()
            opt = torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-4)
            start = time.process_time()
            losses = [step(net, opt, tensors, args.batch, i) for i in range(args.steps)]
            cpu = time.process_time() - start
            torch.set_num_threads(args.threads)
            return losses, cpu, net

        cpu = {"default": [], "channels_last": []}
        for _ in range(args.rounds):
            default = run(False)
            last = run(True)
            cpu["default"].append(default[1])
            cpu["channels_last"].append(last[1])
        with torch.no_grad():
            weight_diff = max(float((p - q).abs().max()) for p, q in zip(default[2].parameters(), last[2].parameters()))
        extra = {}
        if args.threads_reference:
            other = run(False, args.threads_reference)
            extra = {"reference_threads": args.threads_reference,
                     "reference_loss_max_rel_diff": rel(default[0], other[0]),
                     "reference_first_loss_rel_diff": rel(default[0][:1], other[0][:1])}
        print(json.dumps({
            "game": gid, "model": path.name, "date": time.strftime("%Y-%m-%d"), "threads": args.threads,
            "loss_max_diff": max(abs(a - b) for a, b in zip(default[0], last[0])),
            "loss_max_rel_diff": rel(default[0], last[0]),
            "first_loss_rel_diff": rel(default[0][:1], last[0][:1]),
            "weight_max_diff_after_steps": weight_diff,
            "steps": args.steps, "batch": args.batch,
            "cpu_s_default": [round(c, 2) for c in cpu["default"]],
            "cpu_s_channels_last": [round(c, 2) for c in cpu["channels_last"]],
            "ratio_channels_last_to_default": round(min(cpu["channels_last"]) / min(cpu["default"]), 3)} | extra),
              flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
