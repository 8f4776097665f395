"""The residual policy/value network (AlphaGo Zero shape), sized per game.

The policy head is convolutional where the game lays its actions out on the
board grid (``game.policy_planes``): a 1x1 convolution produces one logit per
(plane, cell), and any extra actions (othello's pass) come from a linear layer
over the pooled features. Games whose actions are not cells (connect4's
columns) get the classic head: 1x1 conv to two planes, then a linear layer.

``global_pool`` residual blocks at the end of the tower carry global pooling (KataGo's
global pooling bias, Wu 2019): the mean and maximum of each channel over the whole board,
after the block's first convolution, feed a linear layer whose output is added to every
cell's channels before the second, so a cell's features can depend on the whole board
(a four far away, the material balance) and not only on its receptive field. The linear
layer starts at zero, so adding pooling to a trained network leaves it computing exactly
what it did (``with_global_pool``).

With ``ownership`` the network also predicts, for every cell, who will hold it when the game
ends (KataGo's ownership head: a 1x1 convolution of the tower, tanh): an auxiliary target
for training only, which play never asks for (``forward(x, ownership=True)``).

With ``material`` it also predicts the material balance when the game ends (the game's
``State.material()`` of the final position, for the player to move): one linear output of the
value head's hidden layer, tanh, so that the features the value is read from must carry the
material (KataGo's auxiliary score target, for games whose strength is largely material:
xiangqi). For training only (``forward(x, material=True)``).

With ``opponent_policy`` it also predicts the opponent's reply: the policy target of the next
position (KataGo's auxiliary opponent-move target), from a second policy head shaped like the
first. It too is for training only (``forward(x, opponent=True)``).
"""
from __future__ import annotations

from dataclasses import asdict, dataclass

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


def configure_threads(n: int = 1) -> None:
    """One intra-op thread per process: parallelism comes from processes, not from torch. And
    denormal floats flushed to zero (on processors that can): trained weights decay towards
    zero, and every convolution that meets a denormal weight, activation or gradient runs about
    15x slower here. Training othello's shipped network from its checkpoint took 8x the CPU
    without this for the same losses (docs/training.md, "Denormals in training", 2026-11-29).
    Threads take the setting from the thread that starts them, so call this before torch's
    own threads start."""
    torch.set_flush_denormal(True)
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass  # already set once in this process


@dataclass(frozen=True)
class NetConfig:
    """Network shape; stored in every checkpoint so the file can rebuild its network."""
    in_planes: int
    height: int
    width: int
    action_size: int
    policy_planes: int | None
    blocks: int = 4
    channels: int = 64
    value_hidden: int = 64
    #: the last this many residual blocks carry global pooling (0: none, the plain tower)
    global_pool: int = 0
    #: an ownership head for the auxiliary final-ownership target (training only)
    ownership: bool = False
    #: a second policy head for the auxiliary opponent's-reply target (training only)
    opponent_policy: bool = False
    #: a win/draw/loss value head: three logits instead of one number. The value every
    #: caller reads is still one number, P(win) - P(loss); the draw share is there for
    #: self-play that scores draws differently from the real rules (``[selfplay] draw_winner``)
    wdl: bool = False
    #: a material head for the auxiliary final-material target (training only)
    material: bool = False

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict) -> "NetConfig":
        """The config a checkpoint describes; ValueError/KeyError/TypeError when it is not one."""
        fields = {k: d[k] for k in ("in_planes", "height", "width", "action_size", "policy_planes",
                                    "blocks", "channels", "value_hidden")}
        fields["global_pool"] = d.get("global_pool", 0)   # absent from files written before it existed
        ownership = d.get("ownership", False)
        opponent_policy = d.get("opponent_policy", False)   # absent from older files, as is wdl
        wdl = d.get("wdl", False)
        material = d.get("material", False)
        for name, flag in (("ownership", ownership), ("opponent_policy", opponent_policy), ("wdl", wdl),
                           ("material", material)):
            if type(flag) is not bool:
                raise ValueError(f"{name} must be true or false, not {flag!r}")
        for k, v in fields.items():
            if v is None and k == "policy_planes":
                continue
            least = 0 if k in ("blocks", "global_pool") else 1
            if type(v) is not int or v < least:
                raise ValueError(f"{k} must be a whole number of at least {least}, not {v!r}")
        if fields["global_pool"] > fields["blocks"]:
            raise ValueError(f"global_pool ({fields['global_pool']}) cannot exceed blocks ({fields['blocks']})")
        return cls(**fields, ownership=ownership, opponent_policy=opponent_policy, wdl=wdl, material=material)

    @classmethod
    def for_game(cls, game, blocks: int = 4, channels: int = 64, value_hidden: int = 64,
                 global_pool: int = 0, ownership: bool = False, opponent_policy: bool = False,
                 wdl: bool = False, material: bool = False) -> "NetConfig":
        h, w = game.board_shape
        return cls(game.num_planes, h, w, game.action_size, game.policy_planes, blocks, channels, value_hidden,
                   global_pool, ownership, opponent_policy, wdl, material)


class ResidualBlock(nn.Module):
    """Two 3x3 convolutions and a skip connection; with ``global_pool``, the channel means
    and maxima over the board after the first one add a per-channel bias before the second."""

    def __init__(self, channels: int, global_pool: bool = False):
        super().__init__()
        self.conv1 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn1 = nn.BatchNorm2d(channels)
        self.conv2 = nn.Conv2d(channels, channels, 3, padding=1, bias=False)
        self.bn2 = nn.BatchNorm2d(channels)
        self.pool_fc = None
        if global_pool:
            self.pool_fc = nn.Linear(2 * channels, channels)
            nn.init.zeros_(self.pool_fc.weight)
            nn.init.zeros_(self.pool_fc.bias)

    def forward(self, x):
        a = self.bn1(self.conv1(x))
        y = F.relu(a)
        if self.pool_fc is not None:
            pooled = torch.cat([y.mean(dim=(2, 3)), y.amax(dim=(2, 3))], dim=1)
            y = F.relu(a + self.pool_fc(pooled)[:, :, None, None])
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class PolicyValueNet(nn.Module):
    """forward(x: (B, planes, H, W)) -> (policy logits (B, action_size), value (B,) in [-1, 1]).

    The value is for the player to move: tanh of one output, or with ``cfg.wdl`` P(win) -
    P(loss) from three (win, draw, loss) logits, which ``forward(x, wdl=True)`` also returns."""

    def __init__(self, cfg: NetConfig):
        super().__init__()
        self.cfg = cfg
        c, h, w = cfg.channels, cfg.height, cfg.width
        self.stem = nn.Sequential(nn.Conv2d(cfg.in_planes, c, 3, padding=1, bias=False),
                                  nn.BatchNorm2d(c), nn.ReLU(inplace=True))
        self.tower = nn.Sequential(*[ResidualBlock(c, global_pool=i >= cfg.blocks - cfg.global_pool)
                                     for i in range(cfg.blocks)])
        spatial = cfg.policy_planes is not None
        self.spatial_policy = spatial
        if spatial:
            self.n_spatial = cfg.policy_planes * h * w
            if cfg.action_size < self.n_spatial:
                raise ValueError("action_size is smaller than policy_planes * H * W")
            self.policy_conv, self.policy_extra = self._policy_layers()
        else:
            self.policy_conv, self.policy_fc = self._policy_layers()
        #: the opponent's-reply head (training only): layers shaped like the policy head's
        self.opponent_layers = nn.ModuleList(self._policy_layers()) if cfg.opponent_policy else None
        self.value_conv = nn.Sequential(nn.Conv2d(c, 1, 1, bias=False), nn.BatchNorm2d(1), nn.ReLU(inplace=True))
        self.value_fc = nn.Sequential(nn.Linear(h * w, cfg.value_hidden), nn.ReLU(inplace=True),
                                      nn.Linear(cfg.value_hidden, 3 if cfg.wdl else 1))
        self.ownership_conv = nn.Conv2d(c, 1, 1) if cfg.ownership else None
        self.material_fc = nn.Linear(cfg.value_hidden, 1) if cfg.material else None

    def _policy_layers(self) -> tuple[nn.Module, nn.Module | None]:
        """A policy head's (convolution, then linear layer or None): spatial games get a 1x1
        convolution to a logit per (plane, cell) and a linear layer over the pooled features for
        the actions beyond the grid (othello's pass); the others two planes and a linear layer."""
        cfg, c = self.cfg, self.cfg.channels
        if self.spatial_policy:
            hidden = max(16, c // 2)
            conv = nn.Sequential(nn.Conv2d(c, hidden, 1, bias=False), nn.BatchNorm2d(hidden),
                                 nn.ReLU(inplace=True), nn.Conv2d(hidden, cfg.policy_planes, 1))
            extra = cfg.action_size - self.n_spatial
            return conv, (nn.Linear(c, extra) if extra else None)
        conv = nn.Sequential(nn.Conv2d(c, 2, 1, bias=False), nn.BatchNorm2d(2), nn.ReLU(inplace=True))
        return conv, nn.Linear(2 * cfg.height * cfg.width, cfg.action_size)

    def _policy(self, x, conv, linear):
        if self.spatial_policy:
            logits = conv(x).flatten(1)
            if linear is not None:
                logits = torch.cat([logits, linear(x.mean(dim=(2, 3)))], dim=1)
            return logits
        return linear(conv(x).flatten(1))

    def _heads(self, x):
        """(policy logits, value, the value head's hidden layer, its raw output) of the tower's output ``x``."""
        logits = self._policy(x, self.policy_conv, self.policy_extra if self.spatial_policy else self.policy_fc)
        hidden = self.value_fc[1](self.value_fc[0](self.value_conv(x).flatten(1)))
        raw = self.value_fc[2](hidden)
        if self.cfg.wdl:
            p = torch.softmax(raw, dim=1)
            return logits, p[:, 0] - p[:, 2], hidden, raw
        return logits, torch.tanh(raw).squeeze(1), hidden, raw

    def heads(self, x):
        """(policy logits, value) of the tower's output ``x``: the network after its tower
        (quantization-aware fine-tuning computes the tower its own way)."""
        return self._heads(x)[:2]

    def forward(self, x, ownership: bool = False, opponent: bool = False, wdl: bool = False,
                material: bool = False):
        """(policy logits, value); with ``ownership`` then the ownership logits (B, H, W) (the
        predicted final owner, +1 the player to move, -1 the opponent, is their tanh); with
        ``opponent`` then the opponent's-reply logits (B, action_size); with ``wdl`` then the
        (win, draw, loss) logits (B, 3); with ``material`` then the predicted final material
        (B,), in [-1, 1] for the player to move. None for a head the network lacks."""
        x = self.tower(self.stem(x))
        logits, value, hidden, raw = self._heads(x)
        out = (logits, value)
        if ownership:
            out += (self.ownership_conv(x).squeeze(1) if self.ownership_conv is not None else None,)
        if opponent:
            layers = self.opponent_layers
            out += (self._policy(x, layers[0], layers[1]) if layers is not None else None,)
        if wdl:
            out += (raw if self.cfg.wdl else None,)
        if material:
            out += (torch.tanh(self.material_fc(hidden)).squeeze(1) if self.material_fc is not None else None,)
        return out


def _with_head(net: PolicyValueNet, flag: str, prefix: str, what: str) -> PolicyValueNet:
    """``net`` with the training-only head that ``NetConfig.<flag>`` adds (its layers, named
    ``prefix``..., freshly initialised), its policy and value unchanged."""
    import dataclasses
    if getattr(net.cfg, flag):
        return net
    wider = PolicyValueNet(dataclasses.replace(net.cfg, **{flag: True}))
    missing, unexpected = wider.load_state_dict(net.state_dict(), strict=False)
    if unexpected or any(not k.startswith(prefix) for k in missing):
        raise ValueError(f"cannot add {what}: {unexpected or missing}")
    return wider.train(net.training)


def with_ownership(net: PolicyValueNet) -> PolicyValueNet:
    """``net`` with an ownership head (freshly initialised), its policy and value unchanged."""
    return _with_head(net, "ownership", "ownership_conv.", "an ownership head")


def with_material(net: PolicyValueNet) -> PolicyValueNet:
    """``net`` with a material head (freshly initialised), its policy and value unchanged."""
    return _with_head(net, "material", "material_fc.", "a material head")


def with_opponent_policy(net: PolicyValueNet) -> PolicyValueNet:
    """``net`` with an opponent's-reply head (freshly initialised), its policy and value unchanged."""
    return _with_head(net, "opponent_policy", "opponent_layers.", "an opponent's-reply head")


#: the draw logit a converted scalar value head starts with (`with_wdl`): a small draw share
WDL_START_DRAW_LOGIT = -3.0


def with_wdl(net: PolicyValueNet) -> PolicyValueNet:
    """``net`` with a win/draw/loss value head in place of its scalar one, its policy the same
    and its value nearly so: the old output ``a`` (value tanh(a)) becomes the logits
    (a, WDL_START_DRAW_LOGIT, -a), whose P(win) - P(loss) is tanh(a) shrunk by the small
    draw share (at most 0.02 for every a): a run can switch a trained network to WDL and go on."""
    import dataclasses
    if net.cfg.wdl:
        return net
    wider = PolicyValueNet(dataclasses.replace(net.cfg, wdl=True))
    state = net.state_dict()
    last = "value_fc.2."
    w, b = state[last + "weight"], state[last + "bias"]
    state[last + "weight"] = torch.cat([w, torch.zeros_like(w), -w])
    state[last + "bias"] = torch.cat([b, torch.full_like(b, WDL_START_DRAW_LOGIT), -b])
    wider.load_state_dict(state)
    return wider.train(net.training)


def with_global_pool(net: PolicyValueNet, global_pool: int) -> PolicyValueNet:
    """``net`` with global pooling in its last ``global_pool`` blocks, the same function: the
    weights it has are kept and the pooling layers it lacks start at zero (a run that adds
    pooling to a trained network, ``[net] global_pool``). A network that already pools in
    more blocks is refused (ValueError): pooling is never taken away."""
    import dataclasses
    have = net.cfg.global_pool
    if global_pool == have:
        return net
    if global_pool < have:
        raise ValueError(f"the network already pools in {have} blocks; {global_pool} would drop trained layers")
    wider = PolicyValueNet(dataclasses.replace(net.cfg, global_pool=min(global_pool, net.cfg.blocks)))
    missing, unexpected = wider.load_state_dict(net.state_dict(), strict=False)
    if unexpected or any(".pool_fc." not in k for k in missing):
        raise ValueError(f"cannot add pooling: {unexpected or missing}")
    return wider.train(net.training)


def tower_name(name: str, old_cfg: NetConfig, new_cfg: NetConfig) -> str:
    """A tensor's name in ``old_cfg``'s network -> its name after `with_blocks` deepened it to
    ``new_cfg``: the new blocks go in before the pooling blocks, which move up."""
    added = new_cfg.blocks - old_cfg.blocks
    first_pool = old_cfg.blocks - old_cfg.global_pool
    parts = name.split(".")
    if added > 0 and parts[0] == "tower" and int(parts[1]) >= first_pool:
        parts[1] = str(int(parts[1]) + added)
    return ".".join(parts)


def with_blocks(net: PolicyValueNet, blocks: int) -> PolicyValueNet:
    """``net`` with ``blocks`` residual blocks, the same function: the new blocks go in just
    before the pooling blocks (at the end of a tower without them), each starting as the
    identity (its last batch norm's scale and shift at zero, so its branch adds nothing until
    training moves it; He et al.'s and Goyal et al.'s zero-initialised residual). A run that
    grows a trained network (``[net] blocks`` raised) goes on from what it knew. Fewer blocks
    are refused (ValueError): trained blocks are never dropped."""
    import dataclasses
    have = net.cfg.blocks
    if blocks == have:
        return net
    if blocks < have:
        raise ValueError(f"the network has {have} residual blocks; {blocks} would drop trained ones")
    new_cfg = dataclasses.replace(net.cfg, blocks=blocks)
    deeper = PolicyValueNet(new_cfg)
    state = {tower_name(k, net.cfg, new_cfg): v for k, v in net.state_dict().items()}
    first_new = have - net.cfg.global_pool
    for i in range(first_new, first_new + blocks - have):
        bn = deeper.tower[i].bn2
        state[f"tower.{i}.bn2.weight"] = torch.zeros_like(bn.weight)
        state[f"tower.{i}.bn2.bias"] = torch.zeros_like(bn.bias)
        for k, v in deeper.tower[i].state_dict().items():
            state.setdefault(f"tower.{i}.{k}", v)
    deeper.load_state_dict(state)
    return deeper.train(net.training)


def with_input_planes(net: PolicyValueNet, planes: int) -> PolicyValueNet:
    """``net`` reading ``planes`` input planes, the same function: the planes it did not read
    (a game's encoding grown since, ``Game.legacy_planes``) come after its own with zero
    weights in the first convolution, so they change nothing until training moves them (their
    gradient does not depend on those weights). Fewer planes are refused (ValueError)."""
    import dataclasses
    have = net.cfg.in_planes
    if planes == have:
        return net
    if planes < have:
        raise ValueError(f"the network reads {have} input planes; {planes} would drop trained weights")
    wider = PolicyValueNet(dataclasses.replace(net.cfg, in_planes=planes))
    state = dict(net.state_dict())
    old = state["stem.0.weight"]
    wide = torch.zeros((old.shape[0], planes) + tuple(old.shape[2:]), dtype=old.dtype)
    wide[:, :have] = old
    state["stem.0.weight"] = wide
    wider.load_state_dict(state)
    return wider.train(net.training)


def expected_shapes(cfg: NetConfig, tensors: int, weights: int) -> dict[str, tuple[int, ...]]:
    """The name -> shape of every tensor a network of ``cfg`` holds, worked out without
    allocating a weight (the network is built on torch's "meta" device). A file with
    ``tensors`` tensors of ``weights`` numbers in all cannot describe a network with more
    blocks than tensors, or any dimension above its weight count: such a ``cfg`` is refused
    (ValueError) before anything is built."""
    if cfg.blocks > tensors:
        raise ValueError(f"the file declares {cfg.blocks} residual blocks but holds only {tensors} tensors")
    for name in ("in_planes", "height", "width", "action_size", "policy_planes", "channels", "value_hidden"):
        v = getattr(cfg, name)
        if v is not None and v > weights:
            raise ValueError(f"the file declares {name} = {v} but holds only {weights} weights")
    if cfg.height * cfg.width > weights:
        raise ValueError(f"the file declares a {cfg.height}x{cfg.width} board but holds only {weights} weights")
    try:
        with torch.device("meta"):
            shell = PolicyValueNet(cfg)
    except (ValueError, RuntimeError, OverflowError) as e:
        raise ValueError(f"the file declares a network that cannot be built: {e}") from None
    return {k: tuple(t.shape) for k, t in shell.state_dict().items()}


def inference_copy(net: PolicyValueNet) -> PolicyValueNet:
    """A copy of ``net`` for inference only, the same function ~1.3x faster on a CPU: each
    batch normalisation folded into the convolution before it, and the weights in the
    channels-last layout oneDNN prefers (feed it channels-last inputs), and weights too small
    for a normal float32 (denormals, below 1.2e-38) set to zero: trained weights decay towards
    zero, and one in twenty of othello's generation-66 weights were denormal, which made every
    convolution that met them about 15x slower on this CPU (torch and ONNX Runtime alike) for
    no change in any output. ``net`` is untouched."""
    import copy

    from torch.nn.utils import fuse_conv_bn_eval
    with torch.no_grad():
        fast = copy.deepcopy(net).eval()
        fast.ownership_conv = fast.opponent_layers = fast.material_fc = None   # training-only heads: play never asks for them
        for seq in (fast.stem, fast.policy_conv, fast.value_conv):
            seq[0], seq[1] = fuse_conv_bn_eval(seq[0], seq[1]), nn.Identity()
        for block in fast.tower:
            block.conv1, block.bn1 = fuse_conv_bn_eval(block.conv1, block.bn1), nn.Identity()
            block.conv2, block.bn2 = fuse_conv_bn_eval(block.conv2, block.bn2), nn.Identity()
        for p in fast.parameters():
            p.requires_grad_(False)
            flush_denormals_(p)
    return fast.to(memory_format=torch.channels_last)


def flush_denormals_(t: torch.Tensor) -> int:
    """Set ``t``'s denormal float32 values to zero in place; returns how many there were."""
    if t.dtype != torch.float32:
        return 0
    tiny = torch.finfo(torch.float32).tiny
    mask = (t != 0) & (t.abs() < tiny)
    count = int(mask.sum())
    if count:
        t.masked_fill_(mask, 0.0)
    return count


_BF16_PAYS: dict[tuple, bool] = {}


def bf16_pays(fast: PolicyValueNet, batch: int = 32, min_speedup: float = 1.3) -> bool:
    """Whether bfloat16 runs this inference copy at least ``min_speedup`` times as fast as
    float32 on this machine, at a self-play-sized batch. CPUs with bfloat16 instructions
    (AVX512-BF16, AMX) run it about twice as fast, others far slower, and the flags do not
    say which a given torch build uses, so it is timed: best of 3 short windows each, once
    per network shape and process (about 0.1 s for connect4's 5x64 tower)."""
    import copy
    import time
    c = fast.cfg
    key = (c.in_planes, c.height, c.width, c.action_size, c.policy_planes, c.blocks, c.channels, c.value_hidden,
           torch.get_num_threads())
    if key not in _BF16_PAYS:
        x = torch.rand(batch, c.in_planes, c.height, c.width).round().contiguous(memory_format=torch.channels_last)
        half = copy.deepcopy(fast).to(torch.bfloat16)

        def best(net, inp, reps: int = 3) -> float:
            times = []
            with torch.inference_mode():
                net(inp)   # warm-up (oneDNN builds its kernels on the first call)
                for _ in range(3):
                    t = time.perf_counter()
                    for _ in range(reps):
                        net(inp)
                    times.append(time.perf_counter() - t)
            return min(times)
        _BF16_PAYS[key] = best(fast, x) >= min_speedup * best(half, x.to(torch.bfloat16))
    return _BF16_PAYS[key]


def masked_priors(logits: np.ndarray, legal: list[int]) -> np.ndarray:
    """Softmax of one state's logits restricted to its legal actions (legal-move masking)."""
    z = logits[legal]
    z = np.exp(z - z.max())
    return z / z.sum()


def count_parameters(net: nn.Module) -> int:
    return sum(p.numel() for p in net.parameters())
