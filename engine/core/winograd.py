"""The network in float32 with its 3x3 convolutions by Winograd's minimal filtering: runtime "wino-fp32".

A CPU spends almost all of a network call in the residual tower's 3x3 convolutions, and ONNX
Runtime's and torch's float32 kernels already run them near the processor's arithmetic limit
(docs/performance.md), so a faster float32 runtime has to do less arithmetic. Winograd's
minimal filtering computes each m x m patch of a convolution's output from an (m+2) x (m+2) patch
of its input with (m+2)^2 multiply-adds per channel pair instead of 9 m^2 (engine/core/csrc/winograd.h),
F(4x4, 3x3) or F(5x5, 3x3), whichever tiles the board with fewer elements: 2.6 to 4.6 times fewer
on the project's boards once the tiles' overhang is counted (gomoku's 15x15 with m = 5 4.6x,
xiangqi's 10x9 with m = 5 4.1x, othello's 8x8 with m = 4 4x, Connect Four's 6x7 with m = 4 2.6x).
It is the same function in exact arithmetic; in float32 the outputs differ from torch's by
rounding only (1e-6 to 1e-5 of their size), as torch's and ONNX Runtime's differ from each other,
so it is a float32 runtime, timed against the others on first use and taken where it is faster.

The tower runs in C (engine/core/_winograd_c.c, the stem and every block in one call, without
the GIL); the heads (1x1 convolutions and small linear layers, a few percent of the work) run
in the same module's dense kernel: numpy's BLAS would spin threads on the other cores between
calls, doubling the CPU a call costs. Activations stay channels-last in zero-bordered buffers,
kept per thread for the largest batch it has sent. Networks with global pooling in their blocks, or with channel
counts that are not multiples of 8, are not served (`Unsupported`); the other runtimes serve them.
"""
from __future__ import annotations

import json
import threading
from pathlib import Path
from types import ModuleType

import numpy as np

from games import native

from .evaluators import BatchNetEvaluator

MODULE = "engine.core._winograd_c"
#: the API_VERSION engine/core/_winograd_c.c must have
API_VERSION = 6
RUNTIME = "wino-fp32"

native.register(MODULE, "Winograd convolutions", API_VERSION,
                instead="the network without Winograd's convolutions")

#: the weight transforms G (U = G g G^T) by tile size: F(4x4, 3x3) with the points 0, 1, -1, 2, -2
#: and infinity, F(5x5, 3x3) with 0, 1, -1, 2, -2, 1/2 and infinity (the transforms of the tiles, in
#: engine/core/csrc/winograd.c, are made from the same points; tools/winograd_matrices.py derives both)
G = {4: np.array([[1 / 4, 0, 0],
                  [-1 / 6, -1 / 6, -1 / 6],
                  [-1 / 6, 1 / 6, -1 / 6],
                  [1 / 24, 1 / 12, 1 / 6],
                  [1 / 24, -1 / 12, 1 / 6],
                  [0, 0, 1]], dtype=np.float64),
     5: np.array([[-1 / 2, 0, 0],
                  [-1 / 3, -1 / 3, -1 / 3],
                  [1 / 9, -1 / 9, 1 / 9],
                  [1 / 36, 1 / 18, 1 / 9],
                  [-1 / 60, 1 / 30, -1 / 15],
                  [32 / 45, 16 / 45, 8 / 45],
                  [0, 0, 1]], dtype=np.float64)}


class Unsupported(Exception):
    """The network has a part this runtime does not compute (the other runtimes serve it)."""


def load() -> ModuleType | None:
    """The compiled convolutions, or None where they are not built (or ``ZEROBOARD_PURE_PYTHON``)."""
    return native.load(MODULE)


def available() -> bool:
    """Whether this runtime can run here: the module is built and has kernels for this compiler."""
    module = load()
    return module is not None and module.kernels() != "none"


def supports(net_cfg) -> bool:
    """Whether this runtime can serve a network of this shape here (``net_cfg``: a NetConfig or its
    dict): the module built, channels in multiples of 8, no global pooling in the blocks."""
    get = net_cfg.get if isinstance(net_cfg, dict) else (lambda k, d=None: getattr(net_cfg, k, d))
    channels, pool = get("channels"), get("global_pool", 0)
    return (type(channels) is int and channels > 0 and channels % 8 == 0 and not pool and available())


def _padded(n: int) -> int:
    return (n + 7) // 8 * 8


def transform_weights(weight: np.ndarray, in_channels: int | None = None, tile: int = 4) -> np.ndarray:
    """U = G g G^T of a 3x3 convolution's weights (out, in, 3, 3) for tiles of ``tile`` (4 or 5),
    as float32 [(tile+2)^2][in'][out] (in' the input channels rounded up to a multiple of 8, the
    extra ones zero), computed in float64 so that the transform adds no rounding of its own beyond
    float32's."""
    w = np.asarray(weight, dtype=np.float64)
    k, c = w.shape[:2]
    cp = in_channels if in_channels is not None else _padded(c)
    g = G[tile]
    e = g.shape[0] ** 2
    u = np.einsum("ia,kcab,jb->ijck", g, w, g).reshape(e, c, k)
    out = np.zeros((e, cp, k), np.float32)
    out[:, :c, :] = u
    return out


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float32)


#: the cached arrays' layout; a file of another format is rebuilt
CACHE_FORMAT = 2


class WinogradNet:
    """A `PolicyValueNet`'s inference copy (batch norms folded) as numpy arrays for the compiled
    convolutions and dense kernel; ``infer(planes)`` gives what the module's forward gives. Made
    from the torch network (`from_net`) or from its cached arrays (`load_cached`), which need no torch."""

    def __init__(self, shape: dict, arrays: dict):
        module = load()
        if module is None or module.kernels() == "none":
            raise Unsupported("the compiled Winograd convolutions are not built here")
        self._c = module
        self.shape = dict(shape)
        self.height, self.width, self.channels = shape["height"], shape["width"], shape["channels"]
        self.in_planes, self.blocks = shape["in_planes"], shape["blocks"]
        self.in_padded = _padded(self.in_planes)
        self.spatial, self.wdl = bool(shape["spatial"]), bool(shape["wdl"])
        self.policy_planes = shape.get("policy_planes")
        self.arrays = arrays

        def layer(name):
            return (arrays[name + "_w"], arrays[name + "_b"]) if name + "_w" in arrays else None
        self.p1, self.p2, self.fc, self.extra = layer("p1"), layer("p2"), layer("fc"), layer("extra")
        self.v1, self.v2, self.v3 = layer("v1"), layer("v2"), layer("v3")
        self._check()
        # the policy's and the value's first 1x1 convolutions (both with ReLU) in one pass over the
        # tower's output: the policy's hidden channels, then the value's one
        self.hidden = self.p1[0].shape[1]
        self.pv1 = (np.ascontiguousarray(np.concatenate([self.p1[0], self.v1[0]], axis=1)),
                    np.ascontiguousarray(np.concatenate([self.p1[1], self.v1[1]])))
        # the spatial heads without a win/draw/loss value run in the module's `forward`, with the
        # tower, in one call (`infer`); the others through `dense` calls from here
        self._heads = None
        if self.spatial and not self.wdl:
            extra = 0 if self.extra is None else self.extra[0].shape[1]
            self._heads = (self.hidden, self.policy_planes, self.v2[0].shape[1], extra, *self.pv1, *self.p2,
                           *self.v2, *self.v3, *(self.extra if self.extra is not None else (None, None)))
        # the tile size the module takes for this board; the transformed weights (4 to 5.4 times the
        # 3x3 weights' size) are made here, not stored
        self.tile = m = module.tile(self.height, self.width)
        self.weights = [(transform_weights(arrays[f"w{i}"], self.in_padded if i == 0 else None, m), arrays[f"b{i}"])
                        for i in range(1 + 2 * self.blocks)]
        th, tw = -(-self.height // m), -(-self.width // m)
        self.padded_shape = (th * m + 2, tw * m + 2)
        self._local = threading.local()

    @classmethod
    def from_net(cls, net) -> "WinogradNet":
        """From a `PolicyValueNet` (left untouched)."""
        from .network import inference_copy
        if load() is None:
            raise Unsupported("the compiled Winograd convolutions are not built here")
        cfg = net.cfg
        if cfg.global_pool:
            raise Unsupported("blocks with global pooling")
        if cfg.channels % 8:
            raise Unsupported(f"{cfg.channels} channels (a multiple of 8 is needed)")
        fast = inference_copy(net).float()
        arrays = {}
        convs = [fast.stem[0]] + [c for block in fast.tower for c in (block.conv1, block.conv2)]
        for i, conv in enumerate(convs):
            arrays[f"w{i}"] = _np(conv.weight)
            arrays[f"b{i}"] = (_np(conv.bias) if conv.bias is not None
                               else np.zeros(conv.out_channels, np.float32))

        def put(name, weight, bias, conv: bool = False):
            w = _np(weight)
            arrays[name + "_w"] = np.ascontiguousarray((w[:, :, 0, 0] if conv else w).T)
            arrays[name + "_b"] = _np(bias) if bias is not None else np.zeros(w.shape[0], np.float32)
        pc = fast.policy_conv
        put("p1", pc[0].weight, pc[0].bias, conv=True)
        if fast.spatial_policy:
            put("p2", pc[3].weight, pc[3].bias, conv=True)
            if fast.policy_extra is not None:
                put("extra", fast.policy_extra.weight, fast.policy_extra.bias)
        else:
            put("fc", fast.policy_fc.weight, fast.policy_fc.bias)
        put("v1", fast.value_conv[0].weight, fast.value_conv[0].bias, conv=True)
        put("v2", fast.value_fc[0].weight, fast.value_fc[0].bias)
        put("v3", fast.value_fc[2].weight, fast.value_fc[2].bias)
        shape = {"height": cfg.height, "width": cfg.width, "channels": cfg.channels, "in_planes": cfg.in_planes,
                 "blocks": cfg.blocks, "spatial": bool(fast.spatial_policy), "wdl": bool(cfg.wdl),
                 "policy_planes": cfg.policy_planes, "action_size": cfg.action_size}
        return cls(shape, arrays)

    def _check(self) -> None:
        """Every array of the shape it must have (a damaged or foreign cache file fails here)."""
        c, cells = self.channels, self.height * self.width
        want = {"w0": (c, self.in_planes, 3, 3), "b0": (c,)}
        for i in range(1, 1 + 2 * self.blocks):
            want[f"w{i}"], want[f"b{i}"] = (c, c, 3, 3), (c,)
        for key in ("height", "width", "channels", "in_planes", "blocks", "action_size"):
            if type(self.shape.get(key)) is not int or self.shape[key] < (0 if key == "blocks" else 1):
                raise ValueError(f"the shape's {key} is not a whole number")
        if self.height > 64 or self.width > 64 or self.channels % 8:
            raise ValueError("a board of more than 64 rows or columns, or channels not a multiple of 8")
        if self.p1 is None or self.v1 is None or self.v2 is None or self.v3 is None:
            raise ValueError("a head's arrays are missing")
        hidden = self.p1[0].shape[1]
        want["p1_w"], want["v1_w"] = (c, hidden), (c, 1)
        value_hidden = self.v2[0].shape[1]
        want["v2_w"], want["v3_w"] = (cells, value_hidden), (value_hidden, 3 if self.wdl else 1)
        actions = self.shape.get("action_size")
        if self.spatial:
            if self.p2 is None or not isinstance(self.policy_planes, int):
                raise ValueError("the spatial policy's arrays are missing")
            want["p2_w"] = (hidden, self.policy_planes)
            extra = actions - self.policy_planes * cells
            if (self.extra is None) != (extra == 0):
                raise ValueError("the extra actions' arrays do not match the actions")
            if self.extra is not None:
                want["extra_w"] = (c, extra)
        else:
            if self.fc is None:
                raise ValueError("the policy's arrays are missing")
            want["fc_w"] = (hidden * cells, actions)
        for name, shape in want.items():
            a = self.arrays.get(name)
            if not isinstance(a, np.ndarray) or a.dtype != np.float32 or a.shape != shape:
                raise ValueError(f"array {name} is not float32 of shape {shape}")
            bias = self.arrays.get(name[:-2] + "_b") if name.endswith("_w") else None
            if name.endswith("_w") and len(shape) == 2 and (not isinstance(bias, np.ndarray) or bias.dtype != np.float32
                                        or bias.shape != (shape[1],)):
                raise ValueError(f"array {name[:-2]}_b is not float32 of shape {(shape[1],)}")
            if not np.isfinite(a).all():
                raise ValueError(f"array {name} holds values that are not finite")

    def _buffers(self, batch: int) -> dict:
        """This thread's activation and scratch arrays for ``batch`` positions: views of arrays made
        for the largest batch this thread has sent (self-play's batches shrink as its games end,
        and each size must not keep arrays of its own)."""
        held = getattr(self._local, "buffers", None)
        if held is None or held["a"].shape[0] < batch:
            hp, wp = self.padded_shape
            c, tiles, pad, most = self.channels, self._c.TILES, self._c.PAD, self._c.ELEMENTS
            size = max(batch, 1)
            held = self._local.buffers = {
                "in": np.zeros((size, hp, wp, self.in_padded), np.float32),
                "a": np.zeros((size, hp, wp, c), np.float32),
                "b": np.zeros((size, hp, wp, c), np.float32),
                "t": np.zeros((size, hp, wp, c), np.float32),
                "vb": np.zeros(most * (tiles * max(c, self.in_padded) + pad), np.float32),
                "mb": np.zeros(most * (tiles * c + pad), np.float32)}
            if self._heads is not None:
                held["heads"] = np.zeros(self._c.heads_scratch(size, self.height, self.width, c, *self._heads[:4]),
                                         np.float32)
        # the leading rows of a C-ordered array are one contiguous block, as the module needs
        return {k: (v[:batch] if v.ndim == 4 else v) for k, v in held.items()}

    def _run_tower(self, planes: np.ndarray) -> tuple[np.ndarray, int]:
        """The tower run on input planes (B, in_planes, H, W): (its bordered output buffer (B, Hp, Wp,
        channels), B)."""
        planes = np.asarray(planes, dtype=np.float32)
        b, p, h, w = planes.shape
        if (p, h, w) != (self.in_planes, self.height, self.width):
            raise ValueError(f"planes of shape {planes.shape[1:]}, expected {(self.in_planes, self.height, self.width)}")
        buf = self._buffers(b)
        x = buf["in"]
        x[:, 1:h + 1, 1:w + 1, :p] = planes.transpose(0, 2, 3, 1)
        which = self._c.tower(b, h, w, self.in_padded, self.channels, x, self.weights, buf["a"], buf["b"], buf["t"],
                              buf["vb"], buf["mb"])
        return (buf["a"] if which == 0 else buf["b"]), b

    def tower(self, planes: np.ndarray) -> np.ndarray:
        """The tower's output for input planes (B, in_planes, H, W): (B, H, W, channels), a view."""
        cur, _ = self._run_tower(planes)
        return cur[:, 1:self.height + 1, 1:self.width + 1, :]

    def _offsets(self, batch: int) -> tuple[np.ndarray, np.ndarray]:
        """(where each board cell of ``batch`` positions starts in the tower's bordered output, in
        floats; where each row of the fused first head layer's output starts), this thread's, made
        for the largest batch it has sent and sliced."""
        held = getattr(self._local, "offsets", None)
        if held is None or held[0].shape[0] < batch * self.height * self.width:
            hp, wp = self.padded_shape
            size = max(batch, 1)
            y, x = np.meshgrid(np.arange(1, self.height + 1), np.arange(1, self.width + 1), indexing="ij")
            cells = (np.arange(size)[:, None] * (hp * wp) + (y * wp + x).ravel()[None, :]).ravel()
            held = self._local.offsets = (np.ascontiguousarray(cells * self.channels, dtype=np.int32),
                                          np.arange(cells.size, dtype=np.int32) * (self.hidden + 1))
        n = batch * self.height * self.width
        return held[0][:n], held[1][:n]

    def _dense(self, x: np.ndarray, layer: tuple, relu: bool, rows: np.ndarray | None = None) -> np.ndarray:
        w, b = layer
        n = x.shape[0] if rows is None else rows.shape[0]
        out = np.empty((n, w.shape[1]), np.float32)
        self._c.dense(n, w.shape[0], w.shape[1], x, w, b, relu, out, rows)
        return out

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """(policy logits (B, actions), values (B,)) as float32, as `PolicyValueNet.forward` gives."""
        if self._heads is not None:
            planes = np.ascontiguousarray(planes, dtype=np.float32)
            b, p, h, w = planes.shape
            if (p, h, w) != (self.in_planes, self.height, self.width):
                raise ValueError(f"planes of shape {planes.shape[1:]}, "
                                 f"expected {(self.in_planes, self.height, self.width)}")
            buf = self._buffers(b)
            logits = np.empty((b, self.policy_planes * h * w + self._heads[3]), np.float32)
            values = np.empty(b, np.float32)
            self._c.forward(b, h, w, p, self.in_padded, self.channels, planes, buf["in"], self.weights, buf["a"],
                            buf["b"], buf["t"], buf["vb"], buf["mb"], self._heads, buf["heads"], logits, values)
            return logits, values
        return self._infer_python_heads(planes)

    def _infer_python_heads(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """`infer` with the heads through `dense` calls from Python: the reference `forward`'s heads
        keep to, and the way of the heads it does not compute (a win/draw/loss value, a policy
        through a linear layer)."""
        cur, b = self._run_tower(planes)
        cells, hidden = self.height * self.width, self.hidden
        cell_rows, hidden_rows = self._offsets(b)
        # the board's cells read where they lie in the bordered buffer: the policy's hidden
        # channels and the value's channel, each after its ReLU, (B * cells, hidden + 1)
        both = self._dense(cur, self.pv1, True, cell_rows)
        if self.spatial:
            grid = self._dense(both, self.p2, False, hidden_rows).reshape(b, cells, self.policy_planes)
            logits = grid.transpose(0, 2, 1).reshape(b, self.policy_planes * cells)
            if self.extra is not None:
                flat = cur[:, 1:self.height + 1, 1:self.width + 1, :].reshape(b, cells, self.channels)
                pooled = flat.mean(axis=1, dtype=np.float32)
                logits = np.concatenate([logits, self._dense(pooled, self.extra, False)], axis=1)
        else:
            two = np.ascontiguousarray(both[:, :hidden].reshape(b, cells, hidden).transpose(0, 2, 1))
            two = two.reshape(b, cells * hidden)
            logits = self._dense(two, self.fc, False)
        v = np.ascontiguousarray(both[:, hidden]).reshape(b, cells)
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
        """``net``: a `PolicyValueNet` or a `WinogradNet`."""
        super().__init__()
        self.net = net if isinstance(net, WinogradNet) else WinogradNet.from_net(net)
        self.in_planes = self.net.in_planes

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        return self.net.infer(planes)


#: the cached arrays' name beside their checkpoint (``gomoku.pt`` -> ``gomoku.wino.npz``)
SUFFIX = ".wino.npz"


def load_cached(checkpoint, digest: str) -> WinogradNet | None:
    """``checkpoint``'s network from its cached arrays (no torch), or None: none cached, another
    checkpoint's or format's, or a damaged file (passed over with a note). The file is read as
    plain arrays: nothing in it can run code."""
    from .logsetup import first_line, note
    from .onnxnet import candidate_paths
    checkpoint = Path(checkpoint)
    if load() is None:
        return None
    for p in candidate_paths(checkpoint, digest, SUFFIX):
        if not p.is_file():
            continue
        try:
            with np.load(p, allow_pickle=False) as f:
                meta = json.loads(bytes(f["meta"]).decode("utf-8"))
                if not isinstance(meta, dict) or meta.get("format") != CACHE_FORMAT or meta.get("digest") != digest:
                    continue
                arrays = {k: f[k] for k in f.files if k != "meta"}
            return WinogradNet(meta["shape"], arrays)
        except Exception as e:   # damaged, truncated or foreign: the network is transformed again
            note(f"{p.name} cannot be read ({type(e).__name__}: {first_line(e)}); not used")
    return None


def save(checkpoint, digest: str, wnet: WinogradNet) -> Path | None:
    """Cache ``wnet``'s arrays for the checkpoint ``digest``: beside it where that folder may be written
    (not the packaged app's own models), else in the per-user cache; the path, or None if neither."""
    import io

    from .onnxnet import write_cached
    meta = json.dumps({"format": CACHE_FORMAT, "digest": digest, "shape": wnet.shape}).encode("utf-8")
    buf = io.BytesIO()
    np.savez(buf, meta=np.frombuffer(meta, dtype=np.uint8), **wnet.arrays)
    return write_cached(Path(checkpoint), digest, SUFFIX, buf.getvalue())


def load_or_build(checkpoint, digest: str, net=None, keep: bool = True) -> WinogradNet:
    """``checkpoint``'s network: the cached arrays, or transformed now from ``net`` (a
    `PolicyValueNet`, or a function giving one) and, with ``keep``, cached."""
    wnet = load_cached(checkpoint, digest) if keep else None
    if wnet is not None:
        return wnet
    if net is None:
        raise Unsupported("no cached arrays and no network to transform")
    wnet = WinogradNet.from_net(net if hasattr(net, "cfg") or not callable(net) else net())
    if keep:
        save(checkpoint, digest, wnet)
    return wnet
