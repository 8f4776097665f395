"""Learning steps with and without denormals flushed to zero: the same losses, and their CPU.

Per game, the shipped model (or ``--model``): ``--positions`` positions of the network's own
games (every move sampled from its priors, seed 0), targets made from the network itself (its
own priors sharpened, and a seeded ±1 result); then, once with torch keeping denormal floats
and once flushing them (``torch.set_flush_denormal``), a fresh copy of the network takes
``--steps`` Adam steps (batch ``--batch``, learning rate 5e-4, weight decay 1e-4, one thread).
Prints, per game: the largest difference of the network's outputs on the positions, of the
losses step by step and of the weights after the steps, the denormal floats the checkpoint
holds (weights and batch-norm statistics), and each way's CPU seconds (``time.process_time``), the two ways taking turns
``--rounds`` times.

    python benchmarks/training_denormals.py --games othello xiangqi gomoku connect4
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", nargs="+", default=["othello"])
    ap.add_argument("--model", help="a checkpoint instead of the shipped model (one game)")
    ap.add_argument("--positions", type=int, default=512)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--steps", type=int, default=10)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    import torch
    from learning_steps import own_batch, step

    from engine.core.checkpoint import load_network
    from engine.core.network import flush_denormals_
    from engine.core.paths import shipped_model_path
    from games import get_game
    torch.set_num_threads(1)
    for gid in args.games:
        game = get_game(gid)
        path = Path(args.model) if args.model else shipped_model_path(game.key)
        net0, _ = load_network(path, game)
        tensors = [t for t in net0.state_dict().values() if t.dtype == torch.float32]   # weights and batch-norm statistics
        denormal = sum(flush_denormals_(t.clone()) for t in tensors)   # counted on copies
        weights = sum(t.numel() for t in tensors)
        torch.set_flush_denormal(True)   # the positions' source only: not measured
        batch_tensors = own_batch(game, net0, args.positions)
        planes = batch_tensors[0]

        def run(flush: bool):
            torch.set_flush_denormal(flush)
            net = copy.deepcopy(net0).eval()
            with torch.no_grad():
                out = net(planes)[:2]
            net.train()
            opt = torch.optim.Adam(net.parameters(), lr=5e-4, weight_decay=1e-4)
            losses = []
            start = time.process_time()
            for i in range(args.steps):
                losses.append(step(net, opt, batch_tensors, args.batch, i))
            return out, losses, time.process_time() - start, net

        cpu = {"keep": [], "flush": []}
        for _ in range(args.rounds):
            kept = run(False)
            flushed = run(True)
            cpu["keep"].append(kept[2])
            cpu["flush"].append(flushed[2])
        torch.set_flush_denormal(True)
        with torch.no_grad():
            weight_diff = max(float((p - q).abs().max()) for p, q in zip(kept[3].parameters(), flushed[3].parameters()))
        print(json.dumps({
            "game": gid, "model": path.name, "date": time.strftime("%Y-%m-%d"),
            "denormal_weights": denormal, "weights": weights,
            "output_max_diff": max(float((a - b).abs().max()) for a, b in zip(kept[0], flushed[0])),
            "loss_max_diff": max(abs(a - b) for a, b in zip(kept[1], flushed[1])),
            "weight_max_diff_after_steps": weight_diff,
            "steps": args.steps, "batch": args.batch,
            "cpu_s_keep": [round(c, 2) for c in cpu["keep"]], "cpu_s_flush": [round(c, 2) for c in cpu["flush"]],
            "ratio_keep_to_flush": round(min(cpu["keep"]) / min(cpu["flush"]), 2)}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
