"""The network in float32 with its 3x3 convolutions by Winograd's F(4x4, 3x3): runtime "wino-fp32".

A CPU spends almost all of a network call in the residual tower's 3x3 convolutions, and ONNX
Runtime's and torch's float32 kernels already run them near the processor's arithmetic limit
(docs/performance.md), so a faster float32 runtime has to do less arithmetic. Winograd's
minimal filtering computes each 4x4 patch of a convolution's output from a 6x6 patch of its
input with 36 multiply-adds per channel pair instead of 144 (engine/core/csrc/winograd.h):
2.3 to 4 times fewer on the project's boards once the tiles' overhang is counted (gomoku's
15x15 3.5x, othello's 8x8 4x, xiangqi's 10x9 2.5x, Connect Four's 6x7 2.6x). It is the
same function in exact arithmetic; in float32 the outputs differ from torch's by rounding only
(about 1e-6 of their size), as torch's and ONNX Runtime's differ from each other, so it is a
float32 runtime, timed against the others on first use and taken where it is faster.

The tower runs in C (engine/core/_winograd_c.c, one call a convolution, without the GIL); the
stem is a convolution like the others; the heads (1x1 convolutions and small linear layers, a
few percent of the work) run in the same module's dense kernel: numpy's BLAS would
spin threads on the other cores between calls, doubling the CPU a call costs. Activations stay channels-last in zero-bordered buffers
kept per thread and batch size. Networks with global pooling in their blocks, or with channel
counts that are not multiples of 8, are not served (`Unsupported`); the other runtimes serve them.
"""
from __future__ import annotations

import threading
from types import ModuleType

import numpy as np

from games import native

from .evaluators import BatchNetEvaluator

MODULE = "engine.core._winograd_c"
#: the API_VERSION engine/core/_winograd_c.c must have
API_VERSION = 1
RUNTIME = "wino-fp32"

native.register(MODULE, "Winograd convolutions", API_VERSION)

#: the weight transform G of F(4x4, 3x3) (points 0, 1, -1, 2, -2 and infinity): U = G g G^T
G = np.array([[1 / 4, 0, 0],
              [-1 / 6, -1 / 6, -1 / 6],
              [-1 / 6, 1 / 6, -1 / 6],
              [1 / 24, 1 / 12, 1 / 6],
              [1 / 24, -1 / 12, 1 / 6],
              [0, 0, 1]], dtype=np.float64)


class Unsupported(Exception):
    """The network has a part this runtime does not compute (the other runtimes serve it)."""


def load() -> ModuleType | None:
    """The compiled convolutions, or None where they are not built (or ``ZEROBOARD_PURE_PYTHON``)."""
    return native.load(MODULE)


def available() -> bool:
    """Whether this runtime can run here: the module is built and has kernels for this compiler."""
    module = load()
    return module is not None and module.kernels() != "none"


def _padded(n: int) -> int:
    return (n + 7) // 8 * 8


def transform_weights(weight: np.ndarray, in_channels: int | None = None) -> np.ndarray:
    """U = G g G^T of a 3x3 convolution's weights (out, in, 3, 3), as float32 [36][in'][out]
    (in' the input channels rounded up to a multiple of 8, the extra ones zero), computed in
    float64 so that the transform adds no rounding of its own beyond float32's."""
    w = np.asarray(weight, dtype=np.float64)
    k, c = w.shape[:2]
    cp = in_channels if in_channels is not None else _padded(c)
    u = np.einsum("ia,kcab,jb->ijck", G, w, G).reshape(36, c, k)
    out = np.zeros((36, cp, k), np.float32)
    out[:, :c, :] = u
    return out


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float32)


class WinogradNet:
    """A `PolicyValueNet`'s inference copy (batch norms folded) as numpy arrays for the compiled
    convolutions and numpy heads; ``infer(planes)`` gives what the module's forward gives."""

    def __init__(self, net):
        from .network import inference_copy
        module = load()
        if module is None or module.kernels() == "none":
            raise Unsupported("the compiled Winograd convolutions are not built here")
        self._c = module
        cfg = net.cfg
        if cfg.global_pool:
            raise Unsupported("blocks with global pooling")
        if cfg.channels % 8:
            raise Unsupported(f"{cfg.channels} channels (a multiple of 8 is needed)")
        fast = inference_copy(net).float()
        self.cfg = cfg
        self.height, self.width, self.channels = cfg.height, cfg.width, cfg.channels
        self.in_planes = cfg.in_planes
        self.in_padded = _padded(cfg.in_planes)
        convs = [fast.stem[0]] + [c for block in fast.tower for c in (block.conv1, block.conv2)]
        self.weights = []
        for i, conv in enumerate(convs):
            bias = _np(conv.bias) if conv.bias is not None else np.zeros(conv.out_channels, np.float32)
            self.weights.append((transform_weights(_np(conv.weight), self.in_padded if i == 0 else None), bias))
        self.blocks = cfg.blocks
        self.spatial = fast.spatial_policy
        pc = fast.policy_conv
        self.p1 = (_np(pc[0].weight)[:, :, 0, 0].T.copy(), _np(pc[0].bias))
        if self.spatial:
            self.p2 = (_np(pc[3].weight)[:, :, 0, 0].T.copy(), _np(pc[3].bias))
            self.policy_planes = cfg.policy_planes
            self.extra = ((_np(fast.policy_extra.weight).T.copy(), _np(fast.policy_extra.bias))
                          if fast.policy_extra is not None else None)
        else:
            self.fc = (_np(fast.policy_fc.weight).T.copy(), _np(fast.policy_fc.bias))
        vc = fast.value_conv[0]
        self.v1 = (_np(vc.weight)[:, :, 0, 0].T.copy(), _np(vc.bias))
        self.v2 = (_np(fast.value_fc[0].weight).T.copy(), _np(fast.value_fc[0].bias))
        self.v3 = (_np(fast.value_fc[2].weight).T.copy(), _np(fast.value_fc[2].bias))
        self.wdl = cfg.wdl
        th, tw = (self.height + 3) // 4, (self.width + 3) // 4
        self.padded_shape = (th * 4 + 2, tw * 4 + 2)
        self._local = threading.local()

    def _buffers(self, batch: int) -> dict:
        """This thread's activation and scratch arrays for ``batch`` positions (made once)."""
        cache = getattr(self._local, "buffers", None)
        if cache is None:
            cache = self._local.buffers = {}
        buf = cache.get(batch)
        if buf is None:
            hp, wp = self.padded_shape
            c, tiles = self.channels, self._c.TILES
            buf = {"in": np.zeros((batch, hp, wp, self.in_padded), np.float32),
                   "a": np.zeros((batch, hp, wp, c), np.float32),
                   "b": np.zeros((batch, hp, wp, c), np.float32),
                   "t": np.zeros((batch, hp, wp, c), np.float32),
                   "vb": np.zeros(36 * tiles * max(c, self.in_padded), np.float32),
                   "mb": np.zeros(36 * tiles * c, np.float32)}
            if len(cache) >= 8:   # a few batch sizes recur; an unusual one does not keep its arrays
                cache.pop(next(iter(cache)))
            cache[batch] = buf
        return buf

    def tower(self, planes: np.ndarray) -> np.ndarray:
        """The tower's output for input planes (B, in_planes, H, W): (B, H, W, channels), a view."""
        planes = np.asarray(planes, dtype=np.float32)
        b, p, h, w = planes.shape
        if (p, h, w) != (self.in_planes, self.height, self.width):
            raise ValueError(f"planes of shape {planes.shape[1:]}, expected {(self.in_planes, self.height, self.width)}")
        buf = self._buffers(b)
        x = buf["in"]
        x[:, 1:h + 1, 1:w + 1, :p] = planes.transpose(0, 2, 3, 1)
        conv, c = self._c.conv, self.channels
        u, bias = self.weights[0]
        conv(b, h, w, self.in_padded, c, x, u, bias, None, True, buf["a"], buf["vb"], buf["mb"])
        cur, other, t = buf["a"], buf["b"], buf["t"]
        for i in range(self.blocks):
            u1, b1 = self.weights[1 + 2 * i]
            u2, b2 = self.weights[2 + 2 * i]
            conv(b, h, w, c, c, cur, u1, b1, None, True, t, buf["vb"], buf["mb"])
            conv(b, h, w, c, c, t, u2, b2, cur, True, other, buf["vb"], buf["mb"])
            cur, other = other, cur
        return cur[:, 1:h + 1, 1:w + 1, :]

    def _dense(self, x: np.ndarray, layer: tuple, relu: bool) -> np.ndarray:
        w, b = layer
        out = np.empty((x.shape[0], w.shape[1]), np.float32)
        self._c.dense(x.shape[0], w.shape[0], w.shape[1], x, w, b, relu, out)
        return out

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits (B, actions), values (B,)) as float32, as `PolicyValueNet.forward` gives."""
        x = self.tower(planes)
        b = x.shape[0]
        cells = self.height * self.width
        flat = np.ascontiguousarray(x).reshape(b * cells, self.channels)   # the board's cells, without the border
        hidden = self._dense(flat, self.p1, True)
        if self.spatial:
            grid = self._dense(hidden, self.p2, False).reshape(b, cells, self.policy_planes)
            logits = grid.transpose(0, 2, 1).reshape(b, self.policy_planes * cells)
            if self.extra is not None:
                pooled = flat.reshape(b, cells, self.channels).mean(axis=1, dtype=np.float32)
                logits = np.concatenate([logits, self._dense(pooled, self.extra, False)], axis=1)
        else:
            two = np.ascontiguousarray(hidden.reshape(b, cells, -1).transpose(0, 2, 1)).reshape(b, -1)
            logits = self._dense(two, self.fc, False)
        v = self._dense(flat, self.v1, True).reshape(b, cells)
        v = self._dense(v, self.v2, True)
        raw = self._dense(v, self.v3, False)
        if self.wdl:
            e = np.exp(raw - raw.max(axis=1, keepdims=True))
            p = e / e.sum(axis=1, keepdims=True)
            values = p[:, 0] - p[:, 2]
        else:
            values = np.tanh(raw[:, 0])
        return np.ascontiguousarray(logits, dtype=np.float32), values.astype(np.float32)


class WinogradEvaluator(BatchNetEvaluator):
    """The network run by `WinogradNet`; the same interface and outputs as `NetworkEvaluator`."""

    runtime = RUNTIME

    def __init__(self, net):
        super().__init__()
        self.net = WinogradNet(net)
        self.in_planes = self.net.in_planes

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.net.infer(planes)
