"""The network's inference copy (batch norms folded, channels-last) computes what the network does."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.core.evaluators import NetworkEvaluator
from engine.core.network import NetConfig, PolicyValueNet, inference_copy
from games import get_game


def trained_looking_net(game, seed: int) -> PolicyValueNet:
    """A network whose batch norms have non-trivial statistics and affine weights, as after training."""
    torch.manual_seed(seed)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=2, channels=16))
    for m in net.modules():
        if isinstance(m, torch.nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.3, 3.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)
    return net.eval()


@pytest.mark.parametrize("game_id", ["tictactoe", "connect4", "othello", "gomoku", "xiangqi"])
def test_the_inference_copy_gives_the_networks_outputs(game_id):
    game = get_game(game_id)
    net = trained_looking_net(game, seed=3)
    fast = inference_copy(net)
    for batch in (1, 5, 33):
        x = torch.randn(batch, game.num_planes, *game.board_shape)
        with torch.inference_mode():
            logits, values = net(x)
            f_logits, f_values = fast(x.contiguous(memory_format=torch.channels_last))
        assert f_logits.shape == logits.shape and f_values.shape == values.shape
        assert torch.allclose(f_logits, logits, atol=1e-4, rtol=1e-4)
        assert torch.allclose(f_values, values, atol=1e-5)
    assert not any(isinstance(m, torch.nn.BatchNorm2d) for m in fast.modules())


def test_the_copy_leaves_the_network_trainable_and_unchanged():
    game = get_game("connect4")
    net = trained_looking_net(game, seed=4)
    before = {k: v.clone() for k, v in net.state_dict().items()}
    inference_copy(net)
    after = net.state_dict()
    assert before.keys() == after.keys() and all(torch.equal(before[k], after[k]) for k in before)
    assert all(p.requires_grad for p in net.parameters())


def test_the_evaluator_uses_the_copy_and_matches_the_network_on_real_positions():
    game = get_game("othello")
    net = trained_looking_net(game, seed=5)
    ev = NetworkEvaluator(net)
    states = [game.initial_state()]
    for _ in range(3):
        states.append(states[-1].apply(states[-1].legal_actions()[0]))
    legal = [s.legal_actions() for s in states]
    priors, values = ev.evaluate(states, legal)
    with torch.inference_mode():
        logits, v = net(torch.from_numpy(np.stack([s.encode() for s in states])))
    np.testing.assert_allclose(values, v.numpy(), atol=1e-5)
    for p, row, acts in zip(priors, logits.numpy(), legal):
        z = np.exp(row[acts] - row[acts].max())
        np.testing.assert_allclose(p, z / z.sum(), atol=1e-5)


def test_bf16_inference_stays_close_to_fp32_on_real_positions():
    """The bfloat16 evaluator (self-play's choice where it pays) gives nearly the float32
    values and priors, and the same network's outputs whatever the machine picks."""
    game = get_game("connect4")
    net = trained_looking_net(game, seed=7)
    exact, half = NetworkEvaluator(net), NetworkEvaluator(net, precision="bf16")
    assert half.dtype == torch.bfloat16 and exact.dtype == torch.float32
    rng = np.random.default_rng(2)
    states = []
    while len(states) < 200:
        s = game.initial_state()
        for _ in range(int(rng.integers(2, 30))):
            if s.is_terminal():
                break
            s = s.apply(s.legal_actions()[rng.integers(len(s.legal_actions()))])
        if not s.is_terminal():
            states.append(s)
    legal = [s.legal_actions() for s in states]
    p32, v32 = exact.evaluate(states, legal)
    p16, v16 = half.evaluate(states, legal)
    assert np.abs(v32 - v16).mean() < 0.01 and np.abs(v32 - v16).max() < 0.06
    assert max(np.abs(a - b).max() for a, b in zip(p32, p16)) < 0.05
    assert all(abs(p.sum() - 1) < 1e-5 for p in p16)
    auto = NetworkEvaluator(net, precision="auto")
    assert auto.dtype in (torch.float32, torch.bfloat16)
    with pytest.raises(ValueError, match="precision"):
        NetworkEvaluator(net, precision="fp16")


def test_a_config_with_an_unknown_precision_is_refused(tmp_path):
    from engine.core.config import load_config
    bad = tmp_path / "bad.toml"
    bad.write_text('[selfplay]\nprecision = "fp16"\n')
    with pytest.raises(ValueError, match="precision must be one of auto, fp32, bf16"):
        load_config(get_game("connect4"), bad)
    good = tmp_path / "good.toml"
    good.write_text('[selfplay]\nprecision = "fp32"\n')
    assert load_config(get_game("connect4"), good).selfplay.precision == "fp32"


@pytest.mark.parametrize("section, setting, value", [
    ("selfplay", "leaf_batch", "0"), ("selfplay", "parallel_games", "0"),   # self-play waited forever
    ("train", "lr", "nan"), ("train", "batch_size", "0"),                     # tracebacks from torch and numpy
    ("net", "value_hidden", "99999999999"), ("net", "channels", "0"),         # terabytes asked for; a bad checkpoint
])
def test_a_config_number_a_run_cannot_use_is_refused_naming_the_setting(tmp_path, section, setting, value):
    from engine.core.config import load_config
    bad = tmp_path / "bad.toml"
    bad.write_text(f"[{section}]\n{setting} = {value}\n")
    with pytest.raises(ValueError, match=rf"\[{section}\]: {setting} must be between"):
        load_config(get_game("tictactoe"), bad)


@pytest.mark.parametrize("section, setting, value", [
    ("play", "leaf_batch", "true"), ("play", "proof_effort", "true"), ("train", "lr", "false"),
    ("play", "proof_effort", "2.5"), ("play", "proof_effort", "0"), ("play", "proof_effort", "4"),
])
def test_a_config_value_of_the_wrong_kind_is_refused_naming_the_setting(tmp_path, section, setting, value):
    """A yes/no where a number is asked was taken as 1 or 0 (bool is an int to Python)."""
    from engine.core.config import load_config
    bad = tmp_path / "bad.toml"
    bad.write_text(f"[{section}]\n{setting} = {value}\n")
    with pytest.raises(ValueError, match=rf"\[{section}\]: {setting} must be"):
        load_config(get_game("gomoku"), bad)
    good = tmp_path / "good.toml"
    good.write_text("[play]\nproof_effort = 2\n")
    assert load_config(get_game("gomoku"), good).play.proof_effort == 2


@pytest.mark.parametrize("game_id", ["connect4", "othello", "gomoku", "xiangqi"])
def test_adding_global_pooling_keeps_the_function_and_the_copy_matches(game_id):
    """Pooling layers start at zero, so a trained network given them computes what it did;
    once they have weights the inference copy (and a save and load) still agree with it."""
    from engine.core.network import with_global_pool
    game = get_game(game_id)
    net = trained_looking_net(game, seed=8)
    pooled = with_global_pool(net, 1).eval()
    assert pooled.cfg.global_pool == 1 and sum(b.pool_fc is not None for b in pooled.tower) == 1
    assert pooled.tower[0].pool_fc is None and pooled.tower[1].pool_fc is not None   # the last blocks pool
    x = torch.randn(7, game.num_planes, *game.board_shape)
    with torch.inference_mode():
        a, b = net(x), pooled(x)
    assert torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    torch.manual_seed(1)
    with torch.no_grad():
        for blk in pooled.tower:
            if blk.pool_fc is not None:
                blk.pool_fc.weight.normal_(0, 0.3)
                blk.pool_fc.bias.normal_(0, 0.3)
    with torch.inference_mode():
        logits, values = pooled(x)
        f_logits, f_values = inference_copy(pooled)(x.contiguous(memory_format=torch.channels_last))
    assert not torch.allclose(logits, a[0], atol=1e-3)   # the pooling now changes the outputs
    assert torch.allclose(f_logits, logits, atol=1e-4, rtol=1e-4) and torch.allclose(f_values, values, atol=1e-5)


def test_global_pooling_settings_are_checked():
    from engine.core.network import with_global_pool
    game = get_game("connect4")
    base = NetConfig.for_game(game, blocks=2, channels=8).to_dict()
    assert NetConfig.from_dict({k: v for k, v in base.items() if k != "global_pool"}).global_pool == 0  # older files
    assert NetConfig.from_dict({**base, "global_pool": 2}).global_pool == 2
    for bad in (3, -1, 1.5, "2", None):
        with pytest.raises(ValueError):
            NetConfig.from_dict({**base, "global_pool": bad})
    pooled = PolicyValueNet(NetConfig.from_dict({**base, "global_pool": 2}))
    with pytest.raises(ValueError):
        with_global_pool(pooled, 1)   # trained pooling is never dropped
    assert with_global_pool(pooled, 2) is pooled


def test_batched_priors_are_the_row_by_row_softmax_bit_for_bit():
    """The evaluator's priors, computed for the whole batch at once, are each row's own softmax
    over its legal actions exactly (the tree stores them as float16: a last-bit change could
    change a search)."""
    from engine.core.evaluators import BatchNetEvaluator
    rng = np.random.default_rng(11)
    for _ in range(200):
        batch, width = int(rng.integers(1, 50)), int(rng.integers(2, 5000))
        logits = (rng.standard_normal((batch, width)) * rng.uniform(0.1, 10)).astype(np.float32)
        legal = [sorted(rng.choice(width, size=int(rng.integers(1, min(width, 300) + 1)), replace=False).tolist())
                 for _ in range(batch)]
        got = BatchNetEvaluator._priors(logits, legal)
        for row, acts, p in zip(logits, legal, got):
            z = np.exp(row[acts] - row[acts].max())
            assert p.dtype == np.float32 and np.array_equal(p, z / z.sum())


def test_configure_threads_flushes_denormals_for_the_threads_started_after_it():
    """Training processes call configure_threads first: a denormal weight then costs no more than
    a normal one, and the threads torch starts later (the learner's) flush them too."""
    import subprocess
    import sys
    from pathlib import Path
    code = (
        "import torch\n"
        "from engine.core.network import configure_threads\n"
        "configure_threads(1)\n"
        "tiny = torch.finfo(torch.float32).tiny\n"
        "print((torch.full((4,), tiny / 4) * 2.0).abs().max().item() == 0.0)\n"
        "torch.set_num_threads(2)\n"
        "x = torch.full((64, 4096), tiny / 4)\n"
        "print(((x * 2.0).abs().max().item() == 0.0) and ((x @ torch.ones(4096, 8)).abs().max().item() == 0.0))\n"
        "print(torch.set_flush_denormal(True))\n")   # whether this processor can (asked last: it sets it)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120,
                         cwd=str(Path(__file__).resolve().parent.parent))
    assert out.returncode == 0, out.stderr
    lines = out.stdout.split()
    if lines[-1] == "False":
        pytest.skip("this processor cannot flush denormals")
    assert lines == ["True", "True", "True"]


def test_engine_makes_openmp_wait_passively_unless_the_person_chose():
    """Importing the engine before torch sets OMP_WAIT_POLICY=PASSIVE (learning threads beside
    other work no longer spin: docs/training.md, "Learning threads"), and keeps a value already set."""
    import os
    import subprocess
    import sys
    from pathlib import Path
    code = ("import os, engine, torch\n"
            "print(os.environ.get('OMP_WAIT_POLICY'))\n")
    root = str(Path(__file__).resolve().parent.parent)
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["PASSIVE"]
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=root,
                         env=env | {"OMP_WAIT_POLICY": "ACTIVE"})
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["ACTIVE"]
