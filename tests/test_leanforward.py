"""The inference copy's flat forward (`engine.core.leanforward`) computes what the module does,
bit for bit, for every head the networks have, in float32 and bfloat16, and with or without
oneDNN's prepacked convolutions."""
from __future__ import annotations

import numpy as np
import pytest
import torch

import engine.core.leanforward as lean
from engine.core.evaluators import NetworkEvaluator
from engine.core.network import NetConfig, PolicyValueNet, inference_copy
from conftest import trained_looking
from games import get_game


def trained_looking_net(game, seed: int, **shape) -> PolicyValueNet:
    """A small network with non-trivial batch norms (and pooling weights), as after training."""
    torch.manual_seed(seed)
    return trained_looking(PolicyValueNet(NetConfig.for_game(game, blocks=2, channels=16, **shape)), seed)


def planes(game, batch: int, dtype) -> torch.Tensor:
    x = torch.rand(batch, game.num_planes, *game.board_shape, generator=torch.Generator().manual_seed(batch)).round()
    return x.to(dtype).contiguous(memory_format=torch.channels_last)


SHAPES = [("connect4", {}), ("othello", {}), ("xiangqi", {}), ("gomoku", {"global_pool": 1}),
          ("xiangqi", {"wdl": True, "global_pool": 2})]


@pytest.mark.parametrize("game_id,shape", SHAPES)
@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_the_flat_forward_gives_the_modules_outputs_exactly(game_id, shape, dtype):
    game = get_game(game_id)
    fast = inference_copy(trained_looking_net(game, 3, **shape)).to(dtype)
    forward = lean.lean_forward(fast)
    assert forward is not fast   # every network shape the project makes runs flat
    assert forward.path == ("onednn" if dtype == torch.bfloat16 and lean.onednn_bf16() else "plain")
    for batch in (1, 7, 33):
        x = planes(game, batch, dtype)
        with torch.inference_mode():
            want, got = fast(x, wdl=True), forward(x, wdl=True)
            assert all(torch.equal(a, b) for a, b in zip(fast(x), forward(x)))
        for a, b in zip(want, got):
            assert (a is None and b is None) or torch.equal(a, b)
        assert (got[2] is not None) == bool(shape.get("wdl"))


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16])
def test_without_onednn_the_plain_calls_give_the_same_outputs(monkeypatch, dtype):
    game = get_game("othello")
    fast = inference_copy(trained_looking_net(game, 4)).to(dtype)
    monkeypatch.setattr(lean, "_mkldnn_ops", lambda: None)
    forward = lean.lean_forward(fast)
    x = planes(game, 9, dtype)
    with torch.inference_mode():
        assert forward is not fast and all(torch.equal(a, b) for a, b in zip(fast(x), forward(x)))


def test_an_operator_that_computes_something_else_is_not_used(monkeypatch):
    """A oneDNN operator that misbehaves on this machine is caught by the check at build time."""
    game = get_game("connect4")
    fast = inference_copy(trained_looking_net(game, 5)).to(torch.bfloat16)
    used = []

    def wrong(x, w, b, pad, stride, dilation, groups, attr, scalars, algorithm):
        used.append(1)
        return torch.nn.functional.conv2d(x, w.to_dense(), b, 1, pad) + 1.0
    monkeypatch.setattr(lean, "_mkldnn_ops", lambda: (wrong, lambda w, *a: w, None))
    monkeypatch.setattr(lean, "onednn_bf16", lambda: True)   # tried whatever this processor has
    forward = lean.lean_forward(fast)
    assert used   # it was tried
    x = planes(game, 9, torch.bfloat16)
    with torch.inference_mode():
        assert all(torch.equal(a, b) for a, b in zip(fast(x), forward(x)))


def test_the_evaluator_runs_the_flat_forward_in_both_precisions():
    game = get_game("xiangqi")
    net = trained_looking_net(game, 6)
    states = [game.initial_state()]
    for _ in range(4):
        states.append(states[-1].apply(states[-1].legal_actions()[0]))
    x = np.stack([s.encode() for s in states])
    for precision in ("fp32", "bf16"):
        ev = NetworkEvaluator(net, precision=precision)
        assert ev.forward is not ev.fast_net
        logits, values = ev.infer(x)
        with torch.inference_mode():
            want = ev.fast_net(torch.from_numpy(x).to(ev.dtype).contiguous(memory_format=torch.channels_last))
        assert np.array_equal(logits, want[0].float().numpy()) and np.array_equal(values, want[1].float().numpy())


@pytest.mark.skipif(not lean.onednn_bf16(), reason="no oneDNN bfloat16 convolutions here (this torch lacks "
                    "them, or the processor lacks AVX-512 BW/VL/DQ and AVX-NE-CONVERT)")
def test_fused_residuals_round_once_and_only_when_asked(monkeypatch):
    """With FUSE_ENV the blocks' additions run inside the convolutions (bfloat16 only): outputs
    within bfloat16's rounding of the module's, not bit for bit; without it, exact."""
    game = get_game("xiangqi")
    fast = inference_copy(trained_looking_net(game, 8)).to(torch.bfloat16)
    x = planes(game, 9, torch.bfloat16)
    monkeypatch.setenv(lean.FUSE_ENV, "1")
    fused = lean.lean_forward(fast)
    monkeypatch.setenv(lean.FUSE_ENV, "0")
    exact = lean.lean_forward(fast)
    with torch.inference_mode():
        want, got, same = fast(x), fused(x), exact(x)
        f32 = inference_copy(trained_looking_net(game, 8))(x.float())
    assert all(torch.equal(a, b) for a, b in zip(want, same))
    assert not all(torch.equal(a, b) for a, b in zip(want, got))
    for a, b, ref in zip(want, got, f32):
        assert torch.allclose(a.float(), b.float(), atol=0.1, rtol=0.05)
        # rounding once is no further from float32 than rounding twice, on the whole
        assert (b.float() - ref).abs().mean() <= 1.1 * (a.float() - ref).abs().mean()
    float32 = inference_copy(trained_looking_net(game, 8))
    assert lean.lean_forward(float32) is not float32   # float32 is never fused (nor prepacked)
    with torch.inference_mode():
        assert all(torch.equal(a, b) for a, b in zip(float32(x.float()), lean.lean_forward(float32)(x.float())))


@pytest.mark.skipif(not lean.onednn_bf16(), reason="no oneDNN bfloat16 convolutions here (this torch lacks "
                    "them, or the processor lacks AVX-512 BW/VL/DQ and AVX-NE-CONVERT)")
def test_the_shipped_xiangqi_network_runs_prepacked_and_fuses_when_asked(monkeypatch):
    """A trained network's large logits (xiangqi's reach 50) must not send the build-time check
    to the slower plain calls: exact prepacked by default, fused with FUSE_ENV."""
    from pathlib import Path

    from engine.core.checkpoint import load_network
    game = get_game("xiangqi")
    path = Path(__file__).resolve().parent.parent / "models" / "xiangqi.pt"
    if not path.is_file():
        pytest.skip("no shipped xiangqi model")
    net, _ = load_network(path, game)
    fast = inference_copy(net.eval()).to(torch.bfloat16)
    x = planes(game, 9, torch.bfloat16)
    monkeypatch.delenv(lean.FUSE_ENV, raising=False)
    exact = lean.lean_forward(fast)
    monkeypatch.setenv(lean.FUSE_ENV, "1")
    fused = lean.lean_forward(fast)
    assert (exact.path, fused.path) == ("onednn", "onednn-fused")
    assert lean.lean_forward(inference_copy(net.eval())).path == "plain"   # float32
    with torch.inference_mode():
        assert all(torch.equal(a, b) for a, b in zip(fast(x), exact(x)))
        assert not torch.equal(fast(x)[0], fused(x)[0])
