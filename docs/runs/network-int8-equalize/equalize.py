"""Exploratory: channel equalization before static int8 (cross-layer equalization, as Nagel et
al. 2019 describe it), on a checkpoint's own games.

ONNX Runtime's static int8 rounds each activation tensor with one scale (per tensor), so a
channel whose values span a small part of the tensor's range keeps few of its 256 steps. A
ReLU network's function does not change when one channel's output is divided by s > 0 and
every weight that reads that channel is multiplied by s, so the channels can be rescaled to
spread their ranges more evenly before quantizing, and the float network stays the same
function (checked here to float rounding). Two families of channels:

- the residual stream (the stem's output, each block's second batch norm and sum, read by
  every block's first convolution and by the heads): one scale per channel for the whole tower;
- each block's inner activation (first batch norm, read by the second convolution).

Scales: s_c = (r_c / g)^alpha, r_c the channel's largest magnitude over the calibration
positions (every point it is quantized at), g their geometric mean; alpha 0 is the recipe.

    python docs/runs/network-int8-equalize/equalize.py GAME [CHECKPOINT] [--alphas 0,0.5,1]
"""
from __future__ import annotations

import argparse
import copy
import json
import sys
import time
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "docs/runs/network-int8-calibration"))


def channel_ranges(net, planes: np.ndarray) -> tuple[torch.Tensor, list[torch.Tensor]]:
    """(largest magnitude per residual-stream channel, per block the largest magnitude per
    inner channel) of ``net`` (eval mode) on ``planes``."""
    c = net.cfg.channels
    stream = torch.zeros(c)
    inner = [torch.zeros(c) for _ in net.tower]
    x = torch.as_tensor(planes, dtype=torch.float32)

    def amax(t):
        return t.abs().amax(dim=(0, 2, 3))

    with torch.no_grad():
        for i in range(0, len(x), 256):
            h = net.stem(x[i:i + 256])
            stream = torch.maximum(stream, amax(h))
            for k, block in enumerate(net.tower):
                a = block.bn1(block.conv1(h))
                inner[k] = torch.maximum(inner[k], amax(torch.relu(a)))
                y = block.bn2(block.conv2(torch.relu(a)))
                stream = torch.maximum(stream, amax(y))
                h = torch.relu(h + y)
                stream = torch.maximum(stream, amax(h))
    return stream, inner


def scales(r: torch.Tensor, alpha: float, clip: float = 32.0) -> torch.Tensor:
    live = r > 0
    if alpha == 0 or not live.any():
        return torch.ones_like(r)
    g = torch.exp(torch.log(r[live]).mean())
    s = torch.where(live, (r / g).clamp_min(1e-12) ** alpha, torch.ones_like(r))
    return s.clamp(1 / clip, clip)


def _divide_bn(bn, s):
    bn.weight.div_(s)
    bn.bias.div_(s)


def equalized(net, planes: np.ndarray, alpha_stream: float, alpha_inner: float):
    """A copy of ``net`` computing the same function with its channels rescaled."""
    if any(b.pool_fc is not None for b in net.tower):
        raise ValueError("global-pool blocks are not handled")
    out = copy.deepcopy(net).eval()
    stream_r, inner_r = channel_ranges(out, planes)
    s = scales(stream_r, alpha_stream)
    with torch.no_grad():
        _divide_bn(out.stem[1], s)
        for block, r in zip(out.tower, inner_r):
            t = scales(r, alpha_inner)
            block.conv1.weight.mul_(s[None, :, None, None])
            _divide_bn(block.bn1, t)
            block.conv2.weight.mul_(t[None, :, None, None])
            _divide_bn(block.bn2, s)
        out.policy_conv[0].weight.mul_(s[None, :, None, None])
        if out.spatial_policy and out.policy_extra is not None:
            out.policy_extra.weight.mul_(s[None, :])
        out.value_conv[0].weight.mul_(s[None, :, None, None])
        if out.ownership_conv is not None:
            out.ownership_conv.weight.mul_(s[None, :, None, None])
        if out.opponent_layers is not None:
            out.opponent_layers[0][0].weight.mul_(s[None, :, None, None])
            if out.spatial_policy and out.opponent_layers[1] is not None:
                out.opponent_layers[1].weight.mul_(s[None, :])
    return out


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("game")
    ap.add_argument("checkpoint", nargs="?")
    ap.add_argument("--alphas", default="0,0.25,0.5,0.75,1", help="stream alphas (inner alpha the same)")
    ap.add_argument("--inner", default=None, help="inner alphas, comma-separated (default: the stream's)")
    args = ap.parse_args()
    from onnxruntime.quantization import CalibrationMethod
    from engine.core.checkpoint import load_network
    from engine.core.network import configure_threads
    from engine.core.onnxnet import OrtEvaluator, export_bytes, session
    from engine.core.runtime import accuracy
    from games import get_game
    from methods import prepare, quant
    configure_threads(1)
    game = get_game(args.game)
    ckpt = args.checkpoint or str(ROOT / f"models/{args.game}.pt")
    net, _ = load_network(ckpt, game)
    net.eval()
    model = export_bytes(net)
    ref, pos, planes = prepare(game, model)
    alphas = [float(a) for a in args.alphas.split(",")]
    inners = [float(a) for a in args.inner.split(",")] if args.inner else None
    probe = torch.as_tensor(planes[:64])
    for i, a in enumerate(alphas):
        b = inners[i] if inners else a
        t0 = time.process_time()
        eq = equalized(net, planes[:512], a, b)
        with torch.no_grad():
            p0, v0 = net(probe)
            p1, v1 = eq(probe)
        same = {"logits": float((p0 - p1).abs().max()), "value": float((v0 - v1).abs().max())}
        q = quant(export_bytes(eq), planes[:512], CalibrationMethod.MinMax)
        acc = accuracy(ref, OrtEvaluator(session(q), "ort-int8-static"), pos)
        print(json.dumps({"game": args.game, "checkpoint": Path(ckpt).name, "alpha_stream": a, "alpha_inner": b,
                          "float_max_diff": same, **acc, "cpu_s": round(time.process_time() - t0, 1)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
