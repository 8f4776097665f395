"""The final-material auxiliary target (``[net] material``): xiangqi's material balance, the
samples that carry it from each mover's side, the replay buffer, the network head, and training
runs that start with it or gain it on resume."""
from __future__ import annotations

import json
import math
from dataclasses import replace

import numpy as np
import pytest
import torch

from engine.core.checkpoint import load_network
from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.network import NetConfig, PolicyValueNet, inference_copy, with_material, with_ownership
from engine.core.replay import ReplayBuffer
from engine.core.selfplay import GameRecord, SamplesBatch, play_games
from engine.training.train import TrainingRun
from games import get_game

SETTINGS = dict(sims=6, games_per_generation=4, parallel_games=4, leaf_batch=1, temperature_moves=60,
                resign_threshold=0, dirichlet_alpha=0.3)


def test_xiangqi_material_is_reds_balance_squashed_and_the_heuristic_is_unchanged():
    game = get_game("xiangqi")
    start = game.initial_state()
    assert start.material() == 0.0 and start.heuristic(0) == 0.0
    # Black's chariot on a9 gone: Red is a chariot up
    no_chariot = game.state_from_text("1nbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    assert no_chariot.material() == pytest.approx(math.tanh(9 / 8))
    assert no_chariot.heuristic(0) == 9.0 and no_chariot.heuristic(1) == -9.0
    # Red's e-soldier across the river in place of Black's: it counts 2, as the heuristic counts it
    crossed = game.state_from_text("rnbakabnr/9/1c5c1/p1p1P1p1p/9/9/P1P3P1P/1C5C1/9/RNBAKABNR w - - 0 1")
    assert crossed.heuristic(0) == 2.0 and crossed.material() == pytest.approx(math.tanh(2 / 8))


def record(players, material, game):
    c, h, w = game.num_planes, *game.board_shape
    r = GameRecord(winner=0, material=material)
    for i, player in enumerate(players):
        r.planes.append(np.zeros((c, h, w), np.float32))
        r.policy_idx.append(np.array([i], np.int16))
        r.policy_val.append(np.array([1.0], np.float16))
        r.players.append(player)
        r.policy_weight.append(1.0)
        r.plies.append(i)
    return r


def test_samples_carry_the_final_material_from_each_movers_side_and_the_buffer_keeps_it(tmp_path):
    game = get_game("xiangqi")
    shape = (game.num_planes, *game.board_shape)
    batch = SamplesBatch.from_records([record([0, 1, 0], 0.5, game), record([0, 1], -0.25, game)], shape)
    np.testing.assert_allclose(batch.mat, [0.5, -0.5, 0.5, -0.25, 0.25])
    np.testing.assert_array_equal(batch.mat_w, [1, 1, 1, 1, 1])
    assert SamplesBatch.from_records([record([0, 1], None, game)], shape).mat is None
    # samples from before the head (no material) weigh 0 beside those with it
    older = SamplesBatch.from_records([record([0, 1], None, game)], shape)
    both = SamplesBatch.concat([older, batch])
    np.testing.assert_array_equal(both.mat_w, [0, 0, 1, 1, 1, 1, 1])
    np.testing.assert_allclose(both.tail(3).mat, [0.5, -0.25, 0.25])
    buf = ReplayBuffer(tmp_path, game, capacity=100)
    buf.save(1, older)
    buf.save(2, batch)
    assert ReplayBuffer.read(buf.path_for(2)).mat is not None and ReplayBuffer.read(buf.path_for(1)).mat is None
    fresh = ReplayBuffer(tmp_path, game, capacity=100)
    assert fresh.load() == 7
    sample = fresh.sample(64, np.random.default_rng(1), reply=True, material=True)
    assert len(sample) == 8   # planes, policy, z, weights, material and its weight, reply and its weight
    mt, mw = sample[4], sample[5]
    assert set(np.round(mt[mw > 0], 3)) <= {0.5, -0.5, -0.25, 0.25} and not mt[mw == 0].any()
    assert 0 < mw.sum() < 64
    # with ownership asked too, the material targets follow the ownership ones
    assert len(fresh.sample(8, np.random.default_rng(2), ownership=True, material=True)) == 8


def test_self_play_records_the_final_positions_material_only_when_asked():
    game = get_game("xiangqi")
    settings = SelfPlaySettings(**SETTINGS, max_plies=12)
    records, _ = play_games(game, UniformEvaluator(), settings, 2, seed=4, material=True)
    for r in records:
        state = game.initial_state()
        for a in r.moves:
            state = state.apply(a)
        assert r.material == pytest.approx(state.material())
    records, _ = play_games(game, UniformEvaluator(), settings, 2, seed=4)
    assert all(r.material is None for r in records)
    # a game without material() records none even when asked
    c4 = get_game("connect4")
    records, _ = play_games(c4, UniformEvaluator(), replace(settings, max_plies=6), 2, seed=4, material=True)
    assert all(r.material is None for r in records)


def test_the_head_leaves_policy_and_value_unchanged_and_play_never_runs_it():
    game = get_game("xiangqi")
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)).eval()
    x = torch.from_numpy(np.stack([game.initial_state().encode()] * 2))
    wide = with_material(net).eval()
    assert wide.cfg.material and with_material(wide) is wide
    with torch.no_grad():
        p0, v0 = net(x)
        p1, v1, m = wide(x, material=True)
        _, _, own, m2 = with_ownership(wide).eval()(x, ownership=True, material=True)
    assert torch.equal(p0, p1) and torch.equal(v0, v1)
    assert m.shape == (2,) and bool((m.abs() <= 1).all()) and torch.equal(m, m2) and own.shape == (2, 10, 9)
    assert net(x, material=True)[2] is None
    assert inference_copy(wide).material_fc is None
    with pytest.raises(ValueError):
        NetConfig.from_dict({**wide.cfg.to_dict(), "material": "yes"})
    assert NetConfig.from_dict(wide.cfg.to_dict()) == wide.cfg


def test_a_negative_material_weight_is_refused(tmp_path):
    game = get_game("xiangqi")
    bad = tmp_path / "bad.toml"
    bad.write_text("[train]\nmaterial_weight = -1.0\n")
    with pytest.raises(ValueError, match="material_weight"):
        load_config(game, bad)


def tiny_config(game, **net):
    cfg = load_config(game)
    return replace(cfg, net=replace(cfg.net, blocks=1, channels=8, **net),
                   selfplay=replace(cfg.selfplay, **SETTINGS, fast_sims=0, max_plies=16, tactics=False),
                   train=replace(cfg.train, batch_size=32, steps_per_generation=5, min_buffer=10, arena_games=0,
                                 baseline_games=0))


def test_a_run_learns_the_material_and_a_resumed_run_gains_the_head(tmp_path):
    game = get_game("xiangqi")
    torch.manual_seed(3)
    run = TrainingRun(game, tmp_path, tiny_config(game), workers=1, progress=False)
    run.run(generations=1)
    run.close()
    assert not load_network(tmp_path / "latest.pt", game)[0].cfg.material
    run = TrainingRun(game, tmp_path, tiny_config(game, material=True), workers=1, progress=False)
    run.run(generations=1)   # one more
    run.close()
    net, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 2 and net.cfg.material
    lines = [json.loads(l) for l in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert "material_loss" not in lines[0]
    assert np.isfinite(lines[1]["material_loss"]) and lines[1]["material_loss"] >= 0
