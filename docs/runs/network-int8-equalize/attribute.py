"""Exploratory: where static int8's error comes from. With `engine.training.qat.QuantSim` (which
computes the network as ONNX Runtime's int8 model does), round only some of the weights and
activations and measure, on 1,000 held-out positions of the network's own games (seed 0), the
share of the same first legal choice as float32, the mean value difference and the RMS
difference of the legal moves' log-probabilities.

    python docs/runs/network-int8-equalize/attribute.py GAME [--equalize A]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("--equalize", type=float, default=0.0)
    args = ap.parse_args()
    from engine.core.checkpoint import load_network
    from engine.core.evaluators import NetworkEvaluator, policy_game_positions
    from engine.core.network import configure_threads
    from engine.training import qat
    from engine.training.qat import QuantSim, legal_masks, masked_log_softmax
    from games import get_game
    from equalize import equalized
    configure_threads(1)
    game = get_game(args.game)
    net, _ = load_network(ROOT / f"models/{args.game}.pt", game)
    net.eval()
    ev = NetworkEvaluator(net)
    held = policy_game_positions(game, ev, 1000, seed=0)
    cal = policy_game_positions(game, ev, 512, seed=7919)
    planes = torch.from_numpy(np.stack([ev.encode(s) for s in held]).astype(np.float32))
    cplanes = torch.from_numpy(np.stack([ev.encode(s) for s in cal]).astype(np.float32))
    masks = torch.from_numpy(legal_masks(held, game.action_size))
    if args.equalize:
        net = equalized(net, cplanes.numpy(), args.equalize, args.equalize)
    with torch.no_grad():
        f_logits, f_values = net(planes)
    f_lp = masked_log_softmax(f_logits, masks)
    f_top = f_lp.argmax(1)

    class Partial(QuantSim):
        acts: set | None = None      # activation names rounded (None: all)
        weights: bool = True

        def _act(self, x, name, quantize):
            return super()._act(x, name, quantize and (self.acts is None or name in self.acts))

        def _conv(self, x, conv, bn, in_name, quantize):
            return super()._conv(x, conv, bn, in_name, quantize and self.weights)

    sim = Partial(net)
    with torch.no_grad():
        sim.calibrate(cplanes)
    names = list(sim.ranges)

    def measure(label, acts, weights):
        sim.acts, sim.weights = acts, weights
        with torch.no_grad():
            lg, v = sim(planes, quantize=True)
        lp = masked_log_softmax(lg, masks)
        p = f_lp.exp()
        rms = float(torch.sqrt(((lp - f_lp) ** 2 * p).sum(1).mean()))   # weighted by the float policy
        same = float((lp.argmax(1) == f_top).float().mean())
        print(json.dumps({"game": args.game, "equalize": args.equalize, "rounded": label, "same_top_move": same,
                          "mean_value_diff": round(float((v - f_values).abs().mean()), 5),
                          "logp_rms": round(rms, 4)}), flush=True)

    measure("everything", None, True)
    measure("weights only", set(), True)
    measure("activations only", None, False)
    for n in names:
        measure(f"activation {n} only", {n}, False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
