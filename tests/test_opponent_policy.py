"""The opponent's-reply auxiliary target (KataGo): which samples carry it, the replay buffer's
symmetries, the network head, and training runs that start with it or gain it on resume."""
from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
import torch

from engine.core.checkpoint import load_network, save_checkpoint
from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.network import NetConfig, PolicyValueNet, inference_copy, with_opponent_policy
from engine.core.replay import ReplayBuffer
from engine.core.selfplay import GameRecord, SamplesBatch, play_games
from engine.training.train import TrainingRun
from games import get_game

SETTINGS = dict(sims=6, games_per_generation=4, parallel_games=4, leaf_batch=1, temperature_moves=60,
                resign_threshold=0, dirichlet_alpha=0.3)


def record(plies, players, weights, game):
    """A hand-made record: one policy target per position, one-hot on the position's index."""
    c, h, w = game.num_planes, *game.board_shape
    r = GameRecord(winner=0)
    for i, (ply, player, weight) in enumerate(zip(plies, players, weights)):
        r.planes.append(np.zeros((c, h, w), np.float32))
        r.policy_idx.append(np.array([i], np.int16))
        r.policy_val.append(np.array([1.0], np.float16))
        r.players.append(player)
        r.policy_weight.append(weight)
        r.plies.append(ply)
    return r


def test_a_sample_has_a_reply_target_only_where_the_next_sample_is_the_opponents_next_move():
    game = get_game("othello")
    shape = (game.num_planes, *game.board_shape)
    # plies 0,1,2 then 4 (ply 3 unrecorded), 5 by the same player (a pass), 6; ply 1's search was cheap
    r = record([0, 1, 2, 4, 5, 6], [0, 1, 0, 1, 1, 0], [1.0, 0.0, 1.0, 1.0, 1.0, 1.0], game)
    other = record([0, 1], [0, 1], [1.0, 1.0], game)
    batch = SamplesBatch.from_records([r, other], shape)
    np.testing.assert_array_equal(batch.reply_w, [0.0, 1.0, 0.0, 0.0, 1.0, 0.0, 1.0, 0.0])
    older = GameRecord(**{**r.__dict__, "plies": []})   # records without plies: no reply targets
    assert not SamplesBatch.from_records([older], shape).reply_w.any()


def test_self_play_records_the_ply_of_each_position():
    game = get_game("connect4")
    settings = SelfPlaySettings(**SETTINGS, fast_sims=2, full_search_prob=0.5, record_fast=False, max_plies=14)
    records, _ = play_games(game, UniformEvaluator(), settings, 4, seed=2)
    for r in records:
        assert len(r.plies) == len(r.planes) and r.plies == sorted(set(r.plies))
        assert len(r.plies) < len(r.moves)    # the cheap searches' positions were not recorded
    batch = SamplesBatch.from_records(records, (game.num_planes, *game.board_shape))
    assert 0 < batch.reply_w.sum() < len(batch) - len(records)


def test_the_reply_target_turns_with_the_board():
    """Each sample's planes mark one cell; the next sample's policy is that cell's move. Under
    any of the eight symmetries the reply target must still point at the marked cell."""
    game = get_game("gomoku", size=9)
    c, h, w = game.num_planes, *game.board_shape
    rng = np.random.default_rng(0)
    cells = rng.permutation(h * w)[:40]
    r = GameRecord(winner=0)
    for i, cell in enumerate(cells):
        planes = np.zeros((c, h, w), np.float32)
        planes[0].flat[cell] = 1.0
        r.planes.append(planes)
        prev = cells[i - 1] if i else cells[-1]
        r.policy_idx.append(np.array([prev], np.int16))   # this position's move is the previous one's mark
        r.policy_val.append(np.array([1.0], np.float16))
        r.players.append(i % 2)
        r.policy_weight.append(1.0)
        r.plies.append(i)
    buffer = ReplayBuffer.__new__(ReplayBuffer)
    ReplayBuffer.__init__(buffer, "/tmp/zb-unused-buffer", game, 1000)
    buffer.data = SamplesBatch.from_records([r], (c, h, w))
    planes, policy, z, pw, reply, reply_w = buffer.sample(256, np.random.default_rng(1), reply=True)
    used = reply_w > 0
    assert used.sum() > 150   # all but the last sample (1 in 40) have one
    marked = planes[used, 0].reshape(int(used.sum()), -1).argmax(1)
    np.testing.assert_array_equal(reply[used].argmax(1), marked)
    # the policy target itself turned the same way (its move is the previous sample's mark)
    assert policy.sum(1).min() == pytest.approx(1.0)


def test_reply_weights_survive_the_replay_files(tmp_path):
    game = get_game("connect4")
    shape = (game.num_planes, *game.board_shape)
    batch = SamplesBatch.from_records([record([0, 1, 2], [0, 1, 0], [1.0, 1.0, 1.0], game)], shape)
    buffer = ReplayBuffer(tmp_path / "buffer", game, 100)
    buffer.save(1, batch)
    np.testing.assert_array_equal(ReplayBuffer.read(buffer.path_for(1)).reply_w, [1.0, 1.0, 0.0])
    # a file written before the target existed reads with no reply targets
    old = tmp_path / "old.npz"
    np.savez(old, planes=batch.planes, pi_idx=batch.pi_idx, pi_val=batch.pi_val, z=batch.z, pw=batch.pw)
    assert not ReplayBuffer.read(old).reply_w.any()
    bad = tmp_path / "bad.npz"
    np.savez(bad, planes=batch.planes, pi_idx=batch.pi_idx, pi_val=batch.pi_val, z=batch.z, pw=batch.pw,
             reply_w=np.zeros(7, np.float32))
    with pytest.raises(ValueError, match="reply_w"):
        ReplayBuffer.read(bad)
    joined = SamplesBatch.concat([ReplayBuffer.read(old), ReplayBuffer.read(buffer.path_for(1))])
    np.testing.assert_array_equal(joined.reply_w, [0, 0, 0, 1, 1, 0])
    np.testing.assert_array_equal(joined.tail(2).reply_w, [1, 0])


@pytest.mark.parametrize("game_id", ["othello", "connect4", "xiangqi"])
def test_the_reply_head_leaves_policy_and_value_alone(game_id):
    game = get_game(game_id)
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)).eval()
    wide = with_opponent_policy(net).eval()
    x = torch.randn(3, game.num_planes, *game.board_shape)
    with torch.inference_mode():
        a = net(x)
        logits, value, reply = wide(x, opponent=True)
        fast = inference_copy(wide)(x.contiguous(memory_format=torch.channels_last))
    assert torch.equal(logits, a[0]) and torch.equal(value, a[1]) and reply.shape == (3, game.action_size)
    assert torch.allclose(fast[0], a[0], atol=1e-4) and len(fast) == 2
    assert net(x, opponent=True)[2] is None and with_opponent_policy(wide) is wide
    with pytest.raises(ValueError):
        NetConfig.from_dict({**wide.cfg.to_dict(), "opponent_policy": 1})


def tiny_config(game, **net):
    cfg = load_config(game)
    return replace(cfg, net=replace(cfg.net, blocks=1, channels=8, **net),
                   selfplay=replace(cfg.selfplay, **SETTINGS, fast_sims=0),
                   train=replace(cfg.train, batch_size=32, steps_per_generation=5, min_buffer=10, arena_games=0,
                                 baseline_games=0))


def test_a_run_learns_the_reply_and_a_resumed_run_gains_the_head(tmp_path):
    game = get_game("gomoku", size=9)
    torch.manual_seed(3)
    run = TrainingRun(game, tmp_path, tiny_config(game), workers=1, progress=False)
    run.run(generations=1)
    run.close()
    assert not load_network(tmp_path / "latest.pt", game)[0].cfg.opponent_policy
    run = TrainingRun(game, tmp_path, tiny_config(game, opponent_policy=True), workers=1, progress=False)
    run.run(generations=1)   # one more
    run.close()
    net, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 2 and net.cfg.opponent_policy
    lines = [json.loads(l) for l in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert "opponent_policy_loss" not in lines[0]
    assert np.isfinite(lines[1]["opponent_policy_loss"]) and lines[1]["opponent_policy_loss"] > 0
    # the checkpoint with the head still plays (the head is never asked for)
    save_checkpoint(tmp_path / "copy.pt", net, game, generation=2)
    assert load_network(tmp_path / "copy.pt", game)[0].cfg.opponent_policy
