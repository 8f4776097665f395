"""Quantization-aware fine-tuning (engine/training/qat.py): the simulation computes what ONNX
Runtime's static int8 model computes, the float path is the network itself, the fine-tune
brings the quantized network closer to the original, and the tool refuses bad settings."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.core import int8
from engine.core.onnxnet import OrtEvaluator, export_bytes, session
from engine.core.runtime import policy_game_positions
from engine.training import qat
from games import get_game
from engine.core.runtime import cpu_flags
from test_runtime import trained_looking_net


def exact_int8_kernels() -> bool:
    """Whether this processor has VNNI (AVX-512 or AVX), whose int8 dot products accumulate in 32
    bits: there ONNX Runtime's u8s8 convolutions are exact integer arithmetic."""
    flags = cpu_flags()
    return "avx512_vnni" in flags or "avx_vnni" in flags


def planes_of(game, evaluator, count, seed):
    return np.stack([evaluator.encode(s) for s in policy_game_positions(game, evaluator, count, seed=seed)])


@pytest.mark.parametrize("key", ["connect4", "othello"])
def test_the_simulation_computes_what_the_static_int8_model_computes(key):
    game = get_game(key)
    net = trained_looking_net(game, 4)
    model = export_bytes(net)
    fp32 = OrtEvaluator(session(model))
    calib = planes_of(game, fp32, 128, seed=5)
    quantized = OrtEvaluator(session(int8.quantize_static_int8(model, calib)))
    sim = qat.QuantSim(net)
    sim.calibrate(torch.from_numpy(calib))
    x = planes_of(game, fp32, 64, seed=6)
    ref_logits, ref_values = fp32.infer(x)
    q_logits, q_values = quantized.infer(x)
    with torch.no_grad():
        s_logits, s_values = (t.numpy() for t in sim(torch.from_numpy(x), quantize=True))
    rounding = np.abs(q_logits - ref_logits).mean()
    assert rounding > 1e-4   # int8 does round something here
    if key == "othello" and not exact_int8_kernels():
        # Without VNNI, ONNX Runtime's u8s8 kernels multiply with AVX2's VPMADDUBSW, whose 16-bit
        # pair sums saturate: where a layer's products are large (this othello network's are),
        # its int8 model is no longer exact integer arithmetic, which the simulation copies. On
        # such a processor (AMD EPYC, AVX2, 2026-11-29: 0.31 and 0.47 of int8's own rounding) the
        # simulation must still be nearer ONNX Runtime's int8 model than float32 is.
        assert np.abs(s_logits - q_logits).mean() < rounding / 2
        assert np.abs(s_values - q_values).mean() < np.abs(q_values - ref_values).mean()
        return
    assert np.abs(s_logits - q_logits).mean() < rounding / 20
    assert np.abs(s_values - q_values).mean() < np.abs(q_values - ref_values).mean() / 5 + 1e-5


def test_without_quantization_the_simulation_is_the_network():
    game = get_game("gomoku")
    net = trained_looking_net(game, 2)
    x = torch.rand(5, net.cfg.in_planes, net.cfg.height, net.cfg.width).round()
    with torch.no_grad():
        a, b = net(x), qat.QuantSim(net)(x, quantize=False)
    assert all(torch.allclose(p, q, atol=1e-5) for p, q in zip(a, b))


def test_a_quantized_forward_needs_calibration_and_pooling_is_refused():
    game = get_game("connect4")
    with pytest.raises(RuntimeError, match="calibrate"):
        qat.QuantSim(trained_looking_net(game, 1))(torch.zeros(1, game.num_planes, *game.board_shape))
    with pytest.raises(ValueError, match="global pooling"):
        qat.QuantSim(trained_looking_net(game, 1, global_pool=1))


def test_the_activation_grid_holds_zero_and_rounds_to_it():
    scale, zp = qat.act_grid(0.0, 2.55)
    assert (scale, zp) == (pytest.approx(0.01), 0)
    scale, zp = qat.act_grid(-1.0, 1.55)
    assert zp == 100 and scale == pytest.approx(0.01)
    x = torch.tensor([-5.0, -0.004, 0.0, 0.123, 9.0], requires_grad=True)
    y = qat.fake_quant_act(x, -1.0, 1.55)
    assert torch.allclose(y, torch.tensor([-1.0, 0.0, 0.0, 0.12, 1.55]), atol=1e-6)
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 1.0, 1.0, 1.0, 0.0]   # straight through inside the range only


def test_weights_round_per_channel_to_127_steps_of_their_largest():
    w = torch.tensor([[1.0, -0.5, 0.3], [0.02, 0.011, -0.004]]).view(2, 3, 1, 1)
    q = qat.fake_quant_weight(w).view(2, 3)
    assert torch.allclose(q[0], torch.round(torch.tensor([1.0, -0.5, 0.3]) * 127) / 127)
    assert torch.allclose(q[1], torch.round(torch.tensor([0.02, 0.011, -0.004]) / 0.02 * 127) * 0.02 / 127)


def test_the_margin_loss_counts_only_legal_rivals_within_the_margin():
    logits = torch.tensor([[2.0, 1.9, 5.0], [3.0, 1.0, 9.0], [1.0, 0.0, 0.0]])
    mask = torch.tensor([[True, True, False], [True, True, False], [True, False, False]])
    top = torch.tensor([0, 0, 0])
    per = [qat.margin_loss(logits[i:i + 1], mask[i:i + 1], top[i:i + 1], 0.3).item() for i in range(3)]
    assert per == [pytest.approx(0.2), 0.0, 0.0]   # an illegal 5.0 or 9.0 is no rival; a lone move has none


def test_the_agreement_loss_asks_the_quantized_forward_for_the_float_forwards_choice():
    s = qat.QatSettings(margin=0.3, value_weight=4.0)
    mask = torch.tensor([[True, True, True], [True, True, False]])
    f_logits = torch.tensor([[0.0, 2.0, 1.0], [1.0, 0.0, 9.0]], requires_grad=True)   # float's choices: 1 and 0
    f_values = torch.tensor([0.5, -0.2], requires_grad=True)
    agreeing = torch.tensor([[0.0, 1.5, 1.0], [2.0, 0.0, 0.0]])     # leads by 0.5 and 2.0
    assert qat.agreement_loss((agreeing, f_values.detach()), (f_logits, f_values), mask, s).item() == 0.0
    q_logits = torch.tensor([[0.0, 1.0, 1.1], [2.0, 0.0, 0.0]], requires_grad=True)   # row 0 flips to move 2
    q_values = torch.tensor([0.4, -0.2], requires_grad=True)
    loss = qat.agreement_loss((q_logits, q_values), (f_logits, f_values), mask, s)
    assert loss.item() == pytest.approx((0.3 + 0.1) / 2 + 4.0 * 0.01 / 2)
    loss.backward()
    assert f_logits.grad is None and f_values.grad is None   # the float forward is the target only
    assert q_logits.grad[0, 1] < 0 < q_logits.grad[0, 2]


def test_the_fine_tune_brings_the_quantized_network_closer_to_the_original():
    game = get_game("connect4")
    net = trained_looking_net(game, 3)
    fp32 = OrtEvaluator(session(export_bytes(net)))
    settings = qat.QatSettings(positions=256, calibration_positions=128, calibrate_every=20, steps=80, batch=32,
                               lr=1e-3, seed=2)
    states = qat.training_positions(game, fp32, settings)

    def quantized_loss(candidate):
        sim = qat.QuantSim(candidate)
        planes = torch.from_numpy(np.stack([fp32.encode(s) for s in states]))
        sim.calibrate(planes)
        masks = torch.from_numpy(qat.legal_masks(states, game.action_size))
        with torch.no_grad():
            t_logits, t_values = net(planes)
            t_logp = qat.masked_log_softmax(t_logits, masks)
            args = (t_logp, t_logp.exp().masked_fill(~masks, 0), t_values, masks, t_logp.argmax(1), settings)
            return qat.distillation_loss(*sim(planes, quantize=True), *args).item()
    before = quantized_loss(net)
    tuned, record = qat.finetune(net, game, states, settings, log=lambda m: None)
    assert quantized_loss(tuned) < 0.8 * before
    assert record["settings"] == settings.to_dict() and record["training_positions"] == 256
    untouched = trained_looking_net(game, 3).state_dict().values()
    assert all(torch.equal(a, b) for a, b in zip(net.state_dict().values(), untouched))   # the teacher is not changed


@pytest.mark.parametrize("argv, message", [
    (["--game", "connect4", "--out", "x.pt", "--lr", "0"], "above zero"),
    (["--game", "connect4", "--out", "x.pt", "--steps", "many"], "not a number"),
    (["--game", "connect4", "--out", "x.pt", "--positions", "100"], "calibration"),
    (["--game", "nosuchgame", "--out", "x.pt"], "unknown game"),
])
def test_the_tool_refuses_bad_settings_with_a_message(argv, message, capsys):
    from tools.qat_finetune import main
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 2 and message in capsys.readouterr().err


def test_the_tool_will_not_overwrite_the_model_it_tunes(tmp_path, capsys):
    from engine.core.checkpoint import save_checkpoint
    from tools.qat_finetune import main
    game = get_game("connect4")
    path = tmp_path / "c4.pt"
    save_checkpoint(path, trained_looking_net(game, 1), game)
    with pytest.raises(SystemExit):
        main(["--game", "connect4", "--model", str(path), "--out", str(path)])
    assert "must not be the model" in capsys.readouterr().err


def test_a_fine_tune_can_go_on_from_an_earlier_one_with_the_original_as_teacher():
    game = get_game("connect4")
    net, earlier = trained_looking_net(game, 3), trained_looking_net(game, 7)
    states = policy_game_positions(game, OrtEvaluator(session(export_bytes(net))), 64, seed=1)
    settings = qat.QatSettings(positions=64, calibration_positions=32, steps=1, batch=16, lr=1e-9)
    tuned, _ = qat.finetune(net, game, states, settings, log=lambda m: None, start=earlier)
    assert all(torch.allclose(a, b, atol=1e-6) for a, b in zip(tuned.state_dict().values(),
                                                                earlier.state_dict().values()))
