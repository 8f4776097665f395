"""Quantization-aware fine-tuning: teach a trained network to survive static int8.

ONNX Runtime's static int8 (`engine.core.int8`) rounds the weights of the stem and the residual
tower to signed 8 bits, one scale per output channel, and every activation between them to
unsigned 8 bits with one scale per tensor, calibrated (min/max) on the float network's own
positions; the policy and value heads stay in float32. Post-training, that agrees with the float
network on the first choice in only 94-96% of positions (docs/network-int8.md). This module
fine-tunes the float network so that its quantized version agrees with it:

- `QuantSim` computes the network as the quantized ONNX model does: each batch norm folded into
  its convolution, the folded weights rounded per channel (symmetric, -127..127), the biases
  to the int32 grid of input scale x weight scale, and the input planes, every convolution's
  output and every residual sum rounded to 8 bits at the ranges the calibration would give; the
  rounding passes gradients straight through (the straight-through estimator, zero outside the
  clamped range). Where the policy has actions beyond the grid (othello's pass), the quantizer
  also rounds the logits themselves (it quantizes their Concat), and so does the simulation.
  Without quantization it is the float network itself.
- `finetune` distils the original network into its own copy on positions of the original's
  games: the loss is KL(original policy || quantized copy's) + KL(original || float copy's),
  both over the legal moves, plus the value's squared error to the original's for both. Both
  terms keep the fine-tuned float network close to the original (so its play does not change)
  and its quantized version close to both. The activation ranges are re-measured on the float
  copy every ``calibrate_every`` steps, as calibration would measure them after the change.

The fine-tuned float weights are saved as an ordinary checkpoint; the runtime then exports and
quantizes it with its unchanged recipe. `tools/qat_finetune.py` runs it and measures the result.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

#: ONNX Runtime's grids: activations unsigned 8-bit, weights signed 8-bit symmetric
ACT_LEVELS = 255
WEIGHT_MAX = 127


@dataclass(frozen=True)
class QatSettings:
    """Everything a fine-tune depends on; recorded in the checkpoint it makes."""
    positions: int = 6000        # training positions from the original network's games
    position_seed: int = 1001    # their draw (the accuracy check draws with seed 0, calibration with 7919)
    calibration_positions: int = 512   # of the training positions, used to measure activation ranges
    calibrate_every: int = 50    # steps between re-measuring the ranges
    steps: int = 1500
    batch: int = 64
    lr: float = 1e-4
    value_weight: float = 4.0    # the value's squared error against the policies' KL
    #: the original's first choice must lead every other legal move by this many logits, in the
    #: float copy and the quantized one (a hinge loss): near-ties (symmetric openings) otherwise
    #: flip under any rounding, and flip the first choice with them
    margin: float = 0.3
    margin_weight: float = 1.0
    #: weight of a term that asks the quantized copy to agree with the float copy itself (the
    #: accuracy bar compares those two, not either with the original): the float copy's first
    #: choice must lead in the quantized forward by ``margin`` (hinge), and the values match
    #: (squared error, times ``value_weight``); 0 leaves it out
    agreement_weight: float = 0.0
    seed: int = 1

    def to_dict(self) -> dict:
        return asdict(self)


def _folded(conv: nn.Conv2d, bn: nn.BatchNorm2d) -> tuple[torch.Tensor, torch.Tensor]:
    """(weight, bias) of ``conv`` followed by ``bn`` in inference, as one convolution; the
    gradient reaches the convolution's weight and the batch norm's scale and shift."""
    scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
    w = conv.weight * scale.view(-1, 1, 1, 1)
    b = bn.bias - bn.running_mean * scale
    if conv.bias is not None:
        b = b + conv.bias * scale
    return w, b


TINY = torch.finfo(torch.float32).tiny


def _flush_denormals(t: torch.Tensor) -> torch.Tensor:
    """``t`` with its denormal values zeroed, as the inference copy the export starts from has them
    (`network.flush_denormals_`); gradients pass unchanged."""
    return _round_ste(t, t.masked_fill(t.abs() < TINY, 0.0))


def _round_ste(exact: torch.Tensor, rounded: torch.Tensor) -> torch.Tensor:
    """``rounded``'s values with ``exact``'s gradient (straight-through)."""
    return exact + (rounded - exact).detach()


def weight_scales(w: torch.Tensor) -> torch.Tensor:
    """Per-output-channel scales of symmetric int8 weights, shaped to broadcast over ``w``."""
    absmax = w.detach().abs().amax(dim=tuple(range(1, w.dim())), keepdim=True)
    return torch.where(absmax > 0, absmax / WEIGHT_MAX, torch.ones_like(absmax)).clamp_min(TINY)


def fake_quant_weight(w: torch.Tensor) -> torch.Tensor:
    s = weight_scales(w)
    return _round_ste(w, torch.clamp(torch.round(w / s), -WEIGHT_MAX, WEIGHT_MAX) * s)


def act_grid(lo: float, hi: float) -> tuple[float, int]:
    """(scale, zero point) of an unsigned 8-bit tensor whose calibrated range is [lo, hi]
    (widened to hold zero, as ONNX Runtime does)."""
    lo, hi = min(float(lo), 0.0), max(float(hi), 0.0)
    if hi - lo <= 0:
        return 1.0, 0
    scale = (hi - lo) / ACT_LEVELS
    return scale, int(min(max(round(-lo / scale), 0), ACT_LEVELS))


def fake_quant_act(x: torch.Tensor, lo: float, hi: float) -> torch.Tensor:
    scale, zp = act_grid(lo, hi)
    clamped = torch.clamp(x, -zp * scale, (ACT_LEVELS - zp) * scale)
    q = (torch.clamp(torch.round(x / scale) + zp, 0, ACT_LEVELS) - zp) * scale
    return _round_ste(clamped, q)


class QuantSim(nn.Module):
    """``net`` computed as its static int8 ONNX model computes it (module docstring). The
    activation ranges come from `calibrate`; ``forward(x, quantize=False)`` is the float network.
    Only the plain tower is simulated: a network with global pooling is refused (ValueError)."""

    def __init__(self, net):
        super().__init__()
        if net.cfg.global_pool:
            raise ValueError("quantization-aware fine-tuning does not simulate global pooling blocks")
        self.net = net
        self.ranges: dict[str, tuple[float, float]] = {}
        self._seen: dict[str, tuple[float, float]] | None = None

    def _act(self, x: torch.Tensor, name: str, quantize: bool) -> torch.Tensor:
        if self._seen is not None:
            lo, hi = float(x.detach().min()), float(x.detach().max())
            old = self._seen.get(name)
            self._seen[name] = (lo, hi) if old is None else (min(old[0], lo), max(old[1], hi))
        if not quantize:
            return x
        if name not in self.ranges:
            raise RuntimeError("QuantSim: calibrate() before a quantized forward")
        return fake_quant_act(x, *self.ranges[name])

    def _conv(self, x: torch.Tensor, conv: nn.Conv2d, bn: nn.BatchNorm2d, in_name: str, quantize: bool):
        w, b = (_flush_denormals(t) for t in _folded(conv, bn))
        if quantize:
            w = fake_quant_weight(w)
            bias_scale = (act_grid(*self.ranges[in_name])[0] * weight_scales(w).flatten()).clamp_min(TINY)
            b = _round_ste(b, torch.round(b / bias_scale) * bias_scale)
        return F.conv2d(x, w, b, conv.stride, conv.padding)

    def tower(self, x: torch.Tensor, quantize: bool = True) -> torch.Tensor:
        """The tower's output as the heads receive it (rounded to 8 bits with ``quantize``)."""
        net = self.net
        x = self._act(x, "planes", quantize)
        x = self._act(F.relu(self._conv(x, net.stem[0], net.stem[1], "planes", quantize)), "stem", quantize)
        prev = "stem"
        for i, block in enumerate(net.tower):
            h = self._act(F.relu(self._conv(x, block.conv1, block.bn1, prev, quantize)), f"tower.{i}.relu", quantize)
            h = self._act(self._conv(h, block.conv2, block.bn2, f"tower.{i}.relu", quantize), f"tower.{i}.conv2",
                          quantize)
            x = self._act(F.relu(x + h), f"tower.{i}.out", quantize)
            prev = f"tower.{i}.out"
        return x

    def forward(self, x: torch.Tensor, quantize: bool = True):
        """(policy logits, value), the heads in float as in the quantized model; but where the
        policy joins its grid's logits to extra actions' (othello's pass), ONNX Runtime rounds
        both parts and the joined logits to 8 bits too (it quantizes the Concat), and so does this."""
        logits, value = self.net.heads(self.tower(x, quantize))
        net = self.net
        if net.spatial_policy and net.policy_extra is not None:
            grid = self._act(logits[:, :net.n_spatial], "policy.grid", quantize)
            extra = self._act(logits[:, net.n_spatial:], "policy.extra", quantize)
            logits = self._act(torch.cat([grid, extra], dim=1), "policy.joined", quantize)
        return logits, value

    @torch.no_grad()
    def calibrate(self, planes: torch.Tensor, batch: int = 64) -> dict:
        """Measure every activation's range on ``planes`` with the float network (min/max, as
        ONNX Runtime's calibration does); returns and keeps them."""
        self._seen = {}
        try:
            for i in range(0, len(planes), batch):
                self(planes[i:i + batch], quantize=False)
            self.ranges = dict(self._seen)
        finally:
            self._seen = None
        return self.ranges


def legal_masks(states, action_size: int) -> np.ndarray:
    masks = np.zeros((len(states), action_size), dtype=bool)
    for i, s in enumerate(states):
        masks[i, s.legal_actions()] = True
    return masks


def masked_log_softmax(logits: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.log_softmax(logits.masked_fill(~mask, -1e9), dim=1)


def margin_loss(logits, mask, top, margin: float) -> torch.Tensor:
    """Mean hinge max(0, margin - (logit of ``top`` - the best other legal logit)): zero where
    the move ``top`` leads by ``margin`` or more, or is the only legal move."""
    lead = logits.gather(1, top[:, None]).squeeze(1)
    others = logits.masked_fill(~mask, -1e9).scatter(1, top[:, None], -1e9).amax(dim=1)
    return F.relu(margin - (lead - others)).mean()


def distillation_loss(logits, values, t_logp, t_p, t_values, mask, top, s: QatSettings) -> torch.Tensor:
    """KL(teacher || student) over the legal moves, plus ``s.value_weight`` x the values' squared
    error, plus ``s.margin_weight`` x the teacher's first choice's `margin_loss`."""
    logp = masked_log_softmax(logits, mask)
    kl = (t_p * (t_logp - logp)).masked_fill(~mask, 0.0).sum(dim=1).mean()
    margin = margin_loss(logits, mask, top, s.margin)
    return kl + s.value_weight * F.mse_loss(values, t_values) + s.margin_weight * margin


def agreement_loss(q_out, f_out, mask, s: QatSettings) -> torch.Tensor:
    """How far the quantized forward ``q_out`` is from agreeing with the float forward ``f_out``
    of the same network: the hinge `margin_loss` on the float forward's first legal choice in the
    quantized logits, plus ``s.value_weight`` x the values' squared error. The float forward is
    the target only (no gradient through it)."""
    q_logits, q_values = q_out[0], q_out[1]
    f_logits, f_values = f_out[0].detach(), f_out[1].detach()
    f_top = f_logits.masked_fill(~mask, float("-inf")).argmax(dim=1)
    return margin_loss(q_logits, mask, f_top, s.margin) + s.value_weight * F.mse_loss(q_values, f_values)


def training_positions(game, evaluator, settings: QatSettings) -> list:
    """The original network's positions (its priors' games, `policy_game_positions`)."""
    from ..core.evaluators import policy_game_positions
    return policy_game_positions(game, evaluator, settings.positions, seed=settings.position_seed)


def finetune(net, game, states, settings: QatSettings, log=print, start=None) -> tuple[object, dict]:
    """A copy of ``net`` (or of ``start``, a network of the same shape: an earlier fine-tune to go
    on with) fine-tuned as the module docstring says, with ``net`` the teacher, on ``states``
    (positions of ``game``), and a record of the run (settings, the losses at the start and end,
    CPU seconds)."""
    import copy
    torch.manual_seed(settings.seed)
    rng = np.random.default_rng(settings.seed)
    teacher = net.eval()
    # eval(): the batch norms keep their running statistics, which the export folds
    student = copy.deepcopy(net if start is None else start).eval()
    for p in student.parameters():
        p.requires_grad_(True)
    sim = QuantSim(student)
    from ..core.evaluators import NetworkEvaluator
    encode = NetworkEvaluator(teacher).encode
    planes = torch.from_numpy(np.stack([encode(s) for s in states]).astype(np.float32))
    masks = torch.from_numpy(legal_masks(states, game.action_size))
    with torch.no_grad():
        t_logits, t_values = zip(*(teacher(planes[i:i + 256]) for i in range(0, len(planes), 256)))
        t_logp = masked_log_softmax(torch.cat(t_logits), masks)
        t_values = torch.cat(t_values)
    t_p = t_logp.exp().masked_fill(~masks, 0.0)
    t_top = t_logp.argmax(dim=1)
    calib = planes[torch.from_numpy(rng.choice(len(planes), size=min(settings.calibration_positions, len(planes)),
                                               replace=False))]
    opt = torch.optim.Adam([p for p in student.parameters() if p.requires_grad], lr=settings.lr)
    t0, history = time.process_time(), []
    order = rng.permutation(len(planes))
    cursor = 0
    for step in range(settings.steps):
        if step % settings.calibrate_every == 0:
            sim.calibrate(calib)
        if cursor + settings.batch > len(order):
            order, cursor = rng.permutation(len(planes)), 0
        idx = torch.from_numpy(order[cursor:cursor + settings.batch])
        cursor += settings.batch
        x, m = planes[idx], masks[idx]
        args = (t_logp[idx], t_p[idx], t_values[idx], m, t_top[idx], settings)
        q_out, f_out = sim(x, quantize=True), sim(x, quantize=False)
        q_loss = distillation_loss(*q_out, *args)
        f_loss = distillation_loss(*f_out, *args)
        loss = q_loss + f_loss
        if settings.agreement_weight:
            loss = loss + settings.agreement_weight * agreement_loss(q_out, f_out, m, settings)
        opt.zero_grad()
        loss.backward()
        opt.step()
        history.append((q_loss.item(), f_loss.item()))
        if step % 100 == 0:
            log(f"step {step}: quantized loss {np.mean([h[0] for h in history[-100:]]):.4f}, "
                f"float loss {np.mean([h[1] for h in history[-100:]]):.4f}, {time.process_time() - t0:.0f} CPU-s")
    student.eval()
    for p in student.parameters():
        p.requires_grad_(False)
    first = history[:100]
    last = history[-100:]
    record = {"settings": settings.to_dict(), "training_positions": len(states),
              "loss_first_100_steps": {"quantized": round(float(np.mean([h[0] for h in first])), 5),
                                       "float": round(float(np.mean([h[1] for h in first])), 5)},
              "loss_last_100_steps": {"quantized": round(float(np.mean([h[0] for h in last])), 5),
                                      "float": round(float(np.mean([h[1] for h in last])), 5)},
              "cpu_s": round(time.process_time() - t0, 1)}
    return student, record


__all__ = ["QatSettings", "QuantSim", "finetune", "training_positions", "distillation_loss", "margin_loss", "agreement_loss",
           "fake_quant_act", "fake_quant_weight", "act_grid", "legal_masks"]
