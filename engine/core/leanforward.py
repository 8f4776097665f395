"""The inference copy's forward pass as a flat list of torch calls, with prepacked weights.

`network.inference_copy` folds the batch norms; what is left of a call's cost on a CPU at
self-play's batches (8-50 positions of a 4x64 tower) is mostly not arithmetic: nn.Module
dispatch (every layer's ``__call__``, ``Sequential`` walks, ``__getattr__``), oneDNN reordering
each convolution's weights into its blocked layout again on every call, and a separate ReLU
pass after each convolution. `lean_forward` always removes the first (plain ``F.conv2d``
calls), and in bfloat16, where torch has oneDNN (x86 builds), the other two: the weights are
reordered once into oneDNN's layout (``mkldnn_reorder_conv2d_weight``) and each convolution
runs with its ReLU as a post-op (``mkldnn._convolution_pointwise``, the kernels torch's own
compiler uses on CPUs). The residual additions stay separate additions, as in the module, so
the outputs are the module's bit for bit (a fused addition would round once instead of twice,
which changes bfloat16's outputs: only where ``FUSE_ENV`` asks for it). Where those operators
are missing, or give other outputs than the module on a check at build time, the plain calls run.

2026-11-29, xiangqi's 20x10x9 input and 4x64 tower, one thread, against the module
(docs/performance.md, "Xiangqi self-play, second pass"): bfloat16 prepacked 1.4-1.8x at
batches 1, 8 and 48 (plain calls 1.1-1.2x); float32 plain calls 1.0-1.2x, prepacked float32
0.85-1.24x (slower at batch 1), so float32 is not prepacked.
"""
from __future__ import annotations

import functools
import os

import torch
import torch.nn.functional as F

#: the batch whose input shape the weights are prepacked for: oneDNN's blocked layout for a
#: convolution does not depend on the batch on the CPUs measured (other batches run as fast)
PACK_BATCH = 16
#: "1": bfloat16's residual additions and ReLUs fused into the convolutions before them, each
#: block's output rounded to bfloat16 once instead of twice: 1.07-1.13x the exact flat forward
#: at batches 9 and 48, but no longer the module's outputs bit for bit (xiangqi's network against
#: float32 on 2000 of its own positions: mean value difference 0.00448 against the exact path's
#: 0.00446, same first choice 98.15% against 97.15%), and no gain showed in self-play at this
#: machine's noise. Off until a match at equal visits says the rounding costs nothing.
FUSE_ENV = "ZEROBOARD_FUSED_RESIDUAL"


def _mkldnn_ops():
    """(convolution with a post-op, weight reorder, convolution with an addition and a post-op)
    where this torch has them, else None."""
    try:
        if not torch.backends.mkldnn.is_available():
            return None
        ops = torch.ops.mkldnn._convolution_pointwise
        return ops.default, torch._C._nn.mkldnn_reorder_conv2d_weight, ops.binary
    except (AttributeError, RuntimeError):
        return None


@functools.cache
def onednn_bf16() -> bool:
    """Whether torch's oneDNN convolutions take bfloat16 on this processor: they need AVX-512
    (BW, VL, DQ) or AVX-NE-CONVERT, and without them the weight reorder refuses ("bf16 path
    needs the cpu support ..."), so bfloat16 networks take the plain calls (an AVX2-only
    processor, such as the AMD EPYC of 2026-11-29). Asked once, with the reorder a 3x3
    convolution of the flat forward makes."""
    ops = _mkldnn_ops()
    if ops is None:
        return False
    try:
        conv = torch.nn.Conv2d(8, 8, 3, padding=1).to(torch.bfloat16)
        with torch.inference_mode():
            ops[1](conv.weight.to_mkldnn(), [1, 1], [1, 1], [1, 1], 1, [PACK_BATCH, 8, 6, 7])
    except RuntimeError:
        return False
    return True


class _Conv:
    """One convolution of the inference copy (batch norm folded in), optionally followed by a
    ReLU, as a plain call."""

    __slots__ = ("weight", "bias", "padding", "call", "add_relu")

    def __init__(self, conv: torch.nn.Conv2d, relu: bool, ops, in_shape: tuple[int, int, int]):
        self.bias = conv.bias
        pad = [int(p) for p in conv.padding]
        self.padding = pad
        if ops is None:
            self.weight = conv.weight
            w, b = self.weight, self.bias
            if relu:
                self.call = lambda x: F.conv2d(x, w, b, 1, pad).relu_()
            else:
                self.call = lambda x: F.conv2d(x, w, b, 1, pad)
            self.add_relu = None
            return
        pointwise, reorder, binary = ops
        self.weight = reorder(conv.weight.to_mkldnn(), pad, [1, 1], [1, 1], 1, [PACK_BATCH, *in_shape])
        w, b, one, attr = self.weight, self.bias, [1, 1], "relu" if relu else "none"
        self.call = lambda x: pointwise(x, w, b, pad, one, one, 1, attr, [], "")
        #: relu(conv(x) + skip) in one pass, rounded once (`FUSE_ENV`)
        self.add_relu = lambda x, skip: binary(x, skip, w, b, pad, one, one, 1, "add", 1.0, "relu", [], "")


def _is_plain(conv) -> bool:
    return (isinstance(conv, torch.nn.Conv2d) and tuple(conv.stride) == (1, 1) and tuple(conv.dilation) == (1, 1)
            and conv.groups == 1 and conv.padding_mode == "zeros" and not isinstance(conv.padding, str))


def _build(fast, ops, fuse_residual: bool = False):
    """The forward of the inference copy ``fast`` as closures over its layers; ``ops``: oneDNN's
    operators, or None for ``F.conv2d``; ``fuse_residual``: each block's addition and ReLU in
    its second convolution (with ``ops`` only)."""
    cfg = fast.cfg
    h, w, c = cfg.height, cfg.width, cfg.channels
    stem = _Conv(fast.stem[0], True, ops, (cfg.in_planes, h, w)).call
    blocks = []
    for b in fast.tower:
        pool = b.pool_fc
        # with pooling the first convolution's output is needed before its ReLU
        conv2 = _Conv(b.conv2, False, ops, (c, h, w))
        blocks.append((_Conv(b.conv1, pool is None, ops, (c, h, w)).call, pool, conv2.call,
                       conv2.add_relu if fuse_residual else None))
    spatial = fast.spatial_policy
    pconv = fast.policy_conv
    p1 = _Conv(pconv[0], True, ops, (c, h, w)).call
    p2 = _Conv(pconv[3], False, ops, (pconv[0].out_channels, h, w)).call if spatial else None
    plinear = fast.policy_extra if spatial else fast.policy_fc
    vconv = _Conv(fast.value_conv[0], True, ops, (c, h, w)).call
    fc1, fc2 = fast.value_fc[0], fast.value_fc[2]
    w1, b1, w2, b2 = fc1.weight, fc1.bias, fc2.weight, fc2.bias
    wdl_head = cfg.wdl

    def forward(x, wdl: bool = False):
        y = stem(x)
        for conv1, pool, conv2, add_relu in blocks:
            a = conv1(y)
            if pool is not None:
                r = F.relu(a)
                pooled = torch.cat([r.mean(dim=(2, 3)), r.amax(dim=(2, 3))], dim=1)
                a = F.relu(a + F.linear(pooled, pool.weight, pool.bias)[:, :, None, None])
            if add_relu is not None:
                y = add_relu(a, y)
            else:
                y = conv2(a).add_(y).relu_()   # y + conv2(a) as the module adds, in place
        if spatial:
            logits = p2(p1(y)).flatten(1)
            if plinear is not None:
                logits = torch.cat([logits, F.linear(y.mean(dim=(2, 3)), plinear.weight, plinear.bias)], dim=1)
        else:
            logits = F.linear(p1(y).flatten(1), plinear.weight, plinear.bias)
        raw = F.linear(F.linear(vconv(y).flatten(1), w1, b1).relu_(), w2, b2)
        if wdl_head:
            p = torch.softmax(raw, dim=1)
            value = p[:, 0] - p[:, 2]
        else:
            value = torch.tanh(raw).squeeze(1)
        return (logits, value, raw if wdl_head else None) if wdl else (logits, value)
    return forward


def _agrees(forward, fast, dtype) -> bool:
    """Whether ``forward`` gives ``fast``'s outputs on a random batch, each output to within
    float32's rounding (or bfloat16's) of its own scale: a broken or differently-behaving
    operator is caught before any use. (bfloat16's fused residuals move xiangqi's logits,
    which reach 50, by up to 0.5: a few units in the last place, within 0.05 of that scale.)"""
    cfg = fast.cfg
    gen = torch.Generator().manual_seed(0)
    x = torch.rand(5, cfg.in_planes, cfg.height, cfg.width, generator=gen).round()
    x = x.to(dtype).contiguous(memory_format=torch.channels_last)
    tol = 1e-4 if dtype == torch.float32 else 0.05
    with torch.inference_mode():
        want, got = fast(x), forward(x)
        for a, b in zip(want, got):
            a, b = a.float(), b.float()
            if a.shape != b.shape or not bool(torch.isfinite(b).all()):
                return False
            if float((a - b).abs().max()) > tol * max(1.0, float(a.abs().max())):
                return False
        return True


def fused_residual() -> bool:
    """Whether ``FUSE_ENV`` asks for the residual additions fused into the convolutions."""
    return os.environ.get(FUSE_ENV, "").strip() == "1"


def lean_forward(fast, device: str = "cpu"):
    """``forward(x, wdl=False)`` computing what the inference copy ``fast`` (float32 or
    bfloat16, its weights not to change afterwards) computes for channels-last input ``x``:
    (logits, value), or with ``wdl`` (logits, value, raw win/draw/loss logits or None); its
    ``path`` says which calls run ("onednn", "onednn-fused" or "plain"). A network of a shape
    it does not know gets the module itself."""
    convs = [m for m in fast.modules() if isinstance(m, torch.nn.Conv2d)]
    if not all(_is_plain(m) for m in convs) or any(isinstance(m, torch.nn.BatchNorm2d) for m in fast.modules()):
        return fast
    dtype = next(fast.parameters()).dtype
    # oneDNN's bfloat16 path only where the processor has it (`onednn_bf16`): elsewhere the
    # build would be refused, once per network
    ops = _mkldnn_ops() if device == "cpu" and dtype == torch.bfloat16 and onednn_bf16() else None
    if ops is not None:
        fuse = fused_residual()
        try:
            with torch.inference_mode():
                forward = _build(fast, ops, fuse_residual=fuse)
            if _agrees(forward, fast, dtype):
                forward.path = "onednn-fused" if fuse else "onednn"
                return forward
        except RuntimeError:
            pass   # an operator this build lacks for this type: the plain calls below
    forward = _build(fast, None)
    if not _agrees(forward, fast, dtype):
        return fast
    forward.path = "plain"
    return forward


__all__ = ["lean_forward", "fused_residual", "onednn_bf16", "PACK_BATCH", "FUSE_ENV"]
