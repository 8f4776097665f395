"""Is gomoku's network too small? A capacity probe on self-play positions, no games.

The shipped gomoku network (generation 115: 4 residual blocks of 48 channels) and two larger
networks grown from it without changing what it computes -- 6 blocks of 48 (`with_blocks`) and
4 blocks of 64 (`widened`, below) -- are trained alike (the same batches, steps, learning rate)
on the self-play positions of the lines that went on from 115, and scored on positions none of
them trained on: those of another line from 115 (the "novct" arm of
docs/runs/gomoku-vct-selfplay-2026-11-30, generations 3-19, copied from runs/gvct/novct/buffer
to runs/capacity-heldout/ while that line went on). If the larger networks reach a
clearly lower held-out loss, the small network's size is what holds it back; if not, it is not.

    PYTHONPATH=. python docs/runs/gomoku-capacity-2026-11-30/capacity.py STEPS LR [ARM ...] > result.txt

(ARM: small, deep, wide; all three by default.)

Self-play data only (the project's own lines); no outside engine is involved.
"""
from __future__ import annotations

import dataclasses
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import torch
import torch.nn.functional as F

from engine.core.checkpoint import load_network
from engine.core.network import PolicyValueNet, with_blocks
from engine.core.replay import ReplayBuffer
from engine.core.selfplay import SamplesBatch
from games import get_game

TRAIN = ["runs/gab/fp32/buffer", "runs/gab/int8/buffer", "runs/gomoku-line/buffer", "runs/gvct/vct/buffer"]
HELD_OUT = "runs/capacity-heldout"   # generations 3-19 of runs/gvct/novct/buffer, copied before they slid out
BATCH, LR, WD = 256, 1e-4, 1e-4   # the gomoku line's training settings (line.toml)


def widened(net: PolicyValueNet, channels: int) -> PolicyValueNet:
    """``net`` with ``channels`` channels in its tower, the same function: the weights that read
    the new channels start at zero, so whatever the new channels hold changes nothing until
    training moves those weights; the weights that write them, and their batch norms, keep the
    new network's random start. (Batch norms of the new channels at scale and shift zero would
    also keep the function, but leave those channels at zero before a ReLU, whose gradient there
    is zero: they would never learn.)"""
    old = net.cfg
    cfg = dataclasses.replace(old, channels=channels)
    wide = PolicyValueNet(cfg)
    new = wide.state_dict()
    for name, t in net.state_dict().items():
        w = new[name]
        if t.shape == w.shape:
            new[name] = t.clone()
            continue
        grown = w.clone()
        if w.dim() >= 2:                       # conv/linear: [out, in, ...]
            grown[:, t.shape[1]:] = 0          # reading the new channels
            grown[:t.shape[0], :t.shape[1]] = t
        else:                                  # batch norm vectors and biases over channels
            grown[:t.shape[0]] = t
        new[name] = grown
    wide.load_state_dict(new)
    return wide


def read_all(folder: str) -> SamplesBatch:
    """Every generation file in ``folder``, read only: `ReplayBuffer.load` would delete the
    files beyond its window, and the held-out folder's line was still writing when this ran."""
    return SamplesBatch.concat([ReplayBuffer.read(f) for f in sorted(Path(folder).glob("gen_*.npz"))])


def losses(net, buf: ReplayBuffer, idx_batches) -> tuple[float, float, float]:
    """(policy cross-entropy, value MSE, share of positions whose first choice is the target's)."""
    net.eval()
    pls, vls, top, n = 0.0, 0.0, 0, 0
    with torch.no_grad():
        for idx in idx_batches:
            sym = np.zeros(len(idx), np.int64)
            planes = buf.data.planes[idx].astype(np.float32)
            pi = torch.from_numpy(buf._dense(idx, sym))
            z = torch.from_numpy(buf.data.z[idx])
            logits, v = net(torch.from_numpy(planes))
            pls += float(-(pi * F.log_softmax(logits, 1)).sum(1).sum())
            vls += float(((v - z) ** 2).sum())
            top += int((logits.argmax(1) == pi.argmax(1)).sum())
            n += len(idx)
    net.train()
    return pls / n, vls / n, top / n


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 600
    lr = float(sys.argv[2]) if len(sys.argv) > 2 else LR
    chosen = sys.argv[3:] or ["small", "deep", "wide"]
    torch.manual_seed(0)
    torch.set_num_threads(1)
    game = get_game("gomoku")
    base, _ = load_network("models/gomoku.pt", game)
    tmp = tempfile.mkdtemp()
    train = ReplayBuffer(tmp + "/t", game, 10 ** 7)
    train.data = SamplesBatch.concat([read_all(f) for f in TRAIN])
    held = ReplayBuffer(tmp + "/h", game, 10 ** 7)
    held.data = read_all(HELD_OUT)
    rng = np.random.default_rng(1)
    full = np.flatnonzero(held.data.pw > 0)   # the positions whose policy trains (full searches)
    held_idx = rng.choice(full, size=min(4096, len(full)), replace=False)
    held_batches = [held_idx[i:i + 512] for i in range(0, len(held_idx), 512)]
    print(f"training positions {len(train.data)}, held-out {len(held_idx)} of {len(full)} with a "
          f"policy target ({len(held.data)} in all); "
          f"{steps} steps of {BATCH}, lr {lr}", flush=True)
    makers = {"small 4x48": lambda: base, "deep 6x48": lambda: with_blocks(base, 6),
              "wide 4x64": lambda: widened(base, 64)}
    arms = {name: make() for name, make in makers.items() if name.split()[0] in chosen}
    x = torch.from_numpy(held.data.planes[held_idx[:64]].astype(np.float32))
    base.eval()
    with torch.no_grad():
        ref = base(x)
    for name, net in arms.items():
        net.eval()
        with torch.no_grad():
            out = net(x)
        print(f"{name}: largest change from the shipped network at the start: policy "
              f"{float((out[0] - ref[0]).abs().max()):.2e}, value {float((out[1] - ref[1]).abs().max()):.2e}")
    for name, net in arms.items():
        p0 = losses(net, held, held_batches)
        print(f"{name}: start  held-out policy {p0[0]:.4f} value {p0[1]:.4f} top-1 {p0[2]:.3f}", flush=True)
    for name, net in arms.items():
        net.train()
        opt = torch.optim.Adam(net.parameters(), lr=lr, weight_decay=WD)
        srng = np.random.default_rng(7)
        t0 = time.process_time()
        run_p = run_v = 0.0
        for s in range(1, steps + 1):
            planes, policy, z, pw = train.sample(BATCH, srng)
            logits, v = net(torch.from_numpy(planes))
            w = torch.from_numpy(pw)
            pl = -(torch.from_numpy(policy) * F.log_softmax(logits, 1)).sum(1)
            pl = (pl * w).sum() / w.sum().clamp(min=1.0)
            vl = F.mse_loss(v, torch.from_numpy(z))
            opt.zero_grad()
            (pl + vl).backward()
            opt.step()
            run_p += float(pl)
            run_v += float(vl)
            if s % (steps // 4) == 0:
                h = losses(net, held, held_batches)
                k = steps // 4
                print(f"{name}: step {s:5d}  train policy {run_p / k:.4f} value {run_v / k:.4f}  "
                      f"held-out policy {h[0]:.4f} value {h[1]:.4f} top-1 {h[2]:.3f}  "
                      f"({time.process_time() - t0:.0f} CPU-s)", flush=True)
                run_p = run_v = 0.0


if __name__ == "__main__":
    main()
