"""The win/draw/loss value head (`[net] wdl`): the value every caller reads stays P(win) -
P(loss); self-play with `draw_winner` steers by its own scoring of draws while the head learns
the real outcome; a trained scalar network converts with its values nearly unchanged."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from engine.core.checkpoint import load_network, save_checkpoint
from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import NetworkEvaluator
from engine.core.network import NetConfig, PolicyValueNet, inference_copy, with_wdl
from engine.core.selfplay import GameRecord, SamplesBatch, _draw_expected, play_games
from engine.training.train import TrainingRun, wdl_target
from engine.training.workers import selfplay_evaluator
from games import get_game


def positions(game, count: int, seed: int = 0) -> list:
    rng = np.random.default_rng(seed)
    out, state = [], game.initial_state()
    while len(out) < count:
        out.append(state)
        legal = state.legal_actions()
        state = state.apply(legal[rng.integers(len(legal))])
        if state.is_terminal():
            state = game.initial_state()
    return out


def trained_like(game, seed: int = 0) -> PolicyValueNet:
    """A small scalar network, randomly initialised."""
    torch.manual_seed(seed)
    return PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)).eval()


@pytest.mark.parametrize("game_id", ["connect4", "gomoku", "xiangqi"])
def test_a_converted_network_keeps_its_policy_and_nearly_its_value(game_id):
    game = get_game(game_id)
    x = torch.from_numpy(np.stack([s.encode() for s in positions(game, 24)]))
    seen = []
    for shift in (-2.5, -1.0, -0.3, 0.0, 0.5, 1.2, 3.0):   # values across (-1, 1)
        net = trained_like(game)
        with torch.no_grad():
            net.value_fc[2].bias.add_(shift)
        wdl = with_wdl(net).eval()
        assert wdl.cfg.wdl and not net.cfg.wdl and with_wdl(wdl) is wdl
        with torch.inference_mode():
            logits, value = net(x)
            logits2, value2, raw = wdl(x, wdl=True)
            fast = inference_copy(wdl)(x.contiguous(memory_format=torch.channels_last))
        assert torch.equal(logits, logits2) and raw.shape == (24, 3)
        assert (value - value2).abs().max() < 0.02
        p = torch.softmax(raw, dim=1)
        assert torch.allclose(value2, p[:, 0] - p[:, 2])
        assert torch.allclose(fast[1], value2, atol=1e-4) and len(fast) == 2
        assert net(x, wdl=True)[2] is None
        seen += value.tolist()
    assert min(seen) < -0.9 and max(seen) > 0.9 and any(abs(v) < 0.5 for v in seen)


def test_the_flag_round_trips_through_a_checkpoint_and_is_checked(tmp_path):
    game = get_game("connect4")
    net = with_wdl(trained_like(game))
    save_checkpoint(tmp_path / "w.pt", net, game, generation=3)
    back, meta = load_network(tmp_path / "w.pt", game)
    assert back.cfg.wdl and meta["net"]["wdl"] is True
    assert tuple(back.value_fc[2].weight.shape) == (3, net.cfg.value_hidden)
    with pytest.raises(ValueError, match="wdl"):
        NetConfig.from_dict({**net.cfg.to_dict(), "wdl": "yes"})
    older = {k: v for k, v in net.cfg.to_dict().items() if k != "wdl"}   # files from before the flag
    assert NetConfig.from_dict(older).wdl is False


def test_the_evaluator_scores_draws_for_draw_winner_only_when_asked():
    game = get_game("tictactoe")
    net = with_wdl(trained_like(game))
    with torch.no_grad():   # a sizeable draw share, so that the sign of the draw term shows
        net.value_fc[2].bias[1] = 1.0
    states = positions(game, 12, seed=1)
    legal = [s.legal_actions() for s in states]
    plain = NetworkEvaluator(net)
    arm = NetworkEvaluator(net, draw_winner=1)
    priors, values = plain.evaluate(states, legal)
    priors_arm, values_arm = arm.evaluate(states, legal)
    _, wdl = plain.infer_wdl(np.stack([s.encode() for s in states]))
    assert wdl[:, 1].min() > 0.1
    for s, v, va, (w, d, l) in zip(states, values, values_arm, wdl):
        assert v == pytest.approx(w - l, abs=1e-5)
        assert va == pytest.approx(w - l + (d if s.current_player == 1 else -d), abs=1e-5)
    assert all(np.allclose(a, b) for a, b in zip(priors, priors_arm))
    # a scalar network has no draw share: the option changes nothing there
    scalar = trained_like(game)
    assert NetworkEvaluator(scalar, draw_winner=1).draw_winner == -1
    with pytest.raises(ValueError):
        NetworkEvaluator(scalar).infer_wdl(np.stack([s.encode() for s in states]))
    with pytest.raises(ValueError):
        NetworkEvaluator(net, draw_winner=2)


def test_value_targets_become_win_draw_loss_shares():
    t = wdl_target(torch.tensor([1.0, -1.0, 0.0, 0.4, -0.25]))
    expected = [[1, 0, 0], [0, 0, 1], [0, 1, 0], [0.4, 0.6, 0], [0, 0.75, 0.25]]
    assert torch.allclose(t, torch.tensor(expected))


def test_games_drawn_under_draw_winner_teach_their_real_result_to_a_wdl_head():
    game = get_game("tictactoe")
    r = GameRecord(winner=1, drawn=True)
    c, h, w = game.num_planes, *game.board_shape
    for i in range(4):
        r.planes.append(np.zeros((c, h, w), np.float32))
        r.policy_idx.append(np.array([i], np.int16))
        r.policy_val.append(np.array([1.0], np.float16))
        r.players.append(i % 2)
        r.policy_weight.append(1.0)
    won = GameRecord(**{**r.__dict__, "drawn": False})
    armageddon = SamplesBatch.from_records([r, won], (c, h, w))
    real = SamplesBatch.from_records([r, won], (c, h, w), real_draws=True)
    np.testing.assert_array_equal(armageddon.z, [-1, 1, -1, 1, -1, 1, -1, 1])
    np.testing.assert_array_equal(real.z, [0, 0, 0, 0, -1, 1, -1, 1])


class FakeWdl:
    """An evaluator that sees every position as (win, draw, loss) = ``wdl``."""

    def __init__(self, wdl, draw_winner=1):
        self.wdl, self.draw_winner = np.array([wdl], np.float32), draw_winner

    def infer_wdl(self, planes):
        return np.zeros((len(planes), 9), np.float32), np.repeat(self.wdl, len(planes), axis=0)


def test_a_resignation_the_network_sees_as_a_draw_is_recorded_as_drawn():
    state = get_game("tictactoe").initial_state()
    assert _draw_expected(FakeWdl([0.0, 0.7, 0.3]), state)
    assert not _draw_expected(FakeWdl([0.0, 0.3, 0.7]), state)
    assert _draw_expected(FakeWdl([0.47, 0.06, 0.47]), state)       # a level game, as a converted head sees it
    assert not _draw_expected(FakeWdl([0.05, 0.3, 0.65]), state)
    assert not _draw_expected(FakeWdl([0.0, 0.7, 0.3], draw_winner=-1), state)   # real rules: a loss
    assert not _draw_expected(object(), state)                                   # scalar networks


def test_self_play_with_a_wdl_network_resigns_drawn_games_as_draws():
    """Every position looks lost for X under draw_winner = 1 (O wins draws) and drawn by the real
    rules, so X resigns at once, and the game is recorded as drawn."""
    game = get_game("tictactoe")
    net = with_wdl(trained_like(game))
    with torch.no_grad():
        net.value_fc[2].weight.zero_()
        net.value_fc[2].bias.copy_(torch.tensor([-9.0, 9.0, -9.0]))   # a certain draw
    settings = SelfPlaySettings(sims=8, parallel_games=4, leaf_batch=1, temperature_moves=2, dirichlet_eps=0.0,
                                resign_threshold=-0.9, resign_check_share=0.0, draw_winner=1)
    records, stats = play_games(game, NetworkEvaluator(net, draw_winner=1), settings, 4, seed=0)
    assert stats.resigned == 4 and stats.draws == 4
    assert all(r.resigned and r.drawn and r.winner == 1 for r in records)
    batch = SamplesBatch.from_records(records, (game.num_planes, *game.board_shape), real_draws=True)
    assert len(batch) > 0 and not batch.z.any()


def test_a_wdl_setting_with_a_mixed_value_target_is_refused(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("[net]\nwdl = true\n[selfplay]\ndraw_winner = 1\nvalue_q_weight = 0.5\n")
    with pytest.raises(ValueError, match="value_q_weight"):
        load_config(get_game("gomoku"), bad)


def tiny_config(game, wdl: bool, draw_winner: int = -1):
    cfg = load_config(game)
    return replace(cfg, net=replace(cfg.net, blocks=1, channels=8, wdl=wdl),
                   selfplay=replace(cfg.selfplay, sims=6, games_per_generation=4, parallel_games=4, leaf_batch=1,
                                    temperature_moves=60, resign_threshold=0, dirichlet_alpha=0.3, fast_sims=0,
                                    draw_winner=draw_winner, value_q_weight=0.0),
                   train=replace(cfg.train, batch_size=32, steps_per_generation=5, min_buffer=10, arena_games=0,
                                 baseline_games=0))


def test_a_run_gains_the_head_on_resume_and_learns_with_it(tmp_path):
    game = get_game("tictactoe")
    torch.manual_seed(5)
    run = TrainingRun(game, tmp_path, tiny_config(game, wdl=False), workers=1, progress=False)
    run.run(generations=1)
    run.close()
    assert not load_network(tmp_path / "latest.pt", game)[0].cfg.wdl
    run = TrainingRun(game, tmp_path, tiny_config(game, wdl=True, draw_winner=1), workers=1, progress=False)
    # the saved Adam moments follow the widened network: the reshaped output layer's start afresh
    opt_path = tmp_path / "optimizer.pt"
    saved = opt_path.read_bytes()
    scalar = load_network(tmp_path / "latest.pt", game)[0]
    wider = run._upgraded(scalar, optimizer=True)
    names = [n for n, _ in wider.named_parameters()]
    kept = torch.load(opt_path, weights_only=True)["state"]
    dropped = {names[i] for i in range(len(names)) if i not in kept}
    assert dropped == {"value_fc.2.weight", "value_fc.2.bias"}
    opt_path.write_bytes(saved)
    run.run(generations=1)
    run.close()
    net, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 2 and net.cfg.wdl
    lines = [json.loads(l) for l in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert "value_mse" not in lines[0]
    assert np.isfinite(lines[1]["value_mse"]) and lines[1]["value_loss"] > 0
    # self-play with this network scores draws by draw_winner, in torch
    sp = SelfPlaySettings(draw_winner=1)
    evaluator, _ = selfplay_evaluator(tmp_path / "latest.pt", game, sp)
    assert isinstance(evaluator, NetworkEvaluator) and evaluator.draw_winner == 1
