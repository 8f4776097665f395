"""The final-ownership auxiliary target (KataGo): games that offer it, the self-play samples
that carry it, the replay buffer's symmetries, the network head and a training run."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
import torch

from engine.core.checkpoint import load_network
from engine.core.config import SelfPlaySettings, load_config
from engine.core.evaluators import UniformEvaluator
from engine.core.network import NetConfig, PolicyValueNet, with_ownership
from engine.core.replay import ReplayBuffer
from engine.core.selfplay import SamplesBatch, play_games
from engine.training.train import TrainingRun
from games import get_game

SETTINGS = dict(sims=6, games_per_generation=6, parallel_games=6, leaf_batch=1, temperature_moves=60,
                resign_threshold=0, dirichlet_alpha=0.3)


def random_state(game, plies: int, seed: int):
    rng = np.random.default_rng(seed)
    s = game.initial_state()
    for _ in range(plies):
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.integers(len(legal)))])
    return s


@pytest.mark.parametrize("game_id,kwargs", [("gomoku", {"size": 9}), ("gomoku", {}), ("othello", {})])
def test_ownership_is_the_board_laid_out_as_the_planes(game_id, kwargs):
    game = get_game(game_id, **kwargs)
    for plies in (0, 5, 12):
        s = random_state(game, plies, plies)
        own = s.ownership()
        assert own.dtype == np.int8 and own.shape == game.board_shape
        mover = 1 if s.current_player == 0 else -1
        planes = s.encode()
        np.testing.assert_array_equal(own * mover, planes[0] - planes[1])   # the mover's, the opponent's


def test_games_without_ownership_offer_none():
    for game_id in ("connect4", "xiangqi", "tictactoe"):
        assert not hasattr(get_game(game_id).initial_state(), "ownership")


@pytest.fixture(scope="module")
def gomoku_games():
    game = get_game("gomoku", size=9)
    plain, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**SETTINGS), 2, seed=4)
    assert all(r.ownership is None for r in plain)   # kept only for a network that learns it
    records, _ = play_games(game, UniformEvaluator(), SelfPlaySettings(**SETTINGS), 6, seed=4, ownership=True)
    return game, records


def test_self_play_samples_carry_the_final_board_from_each_movers_side(gomoku_games):
    game, records = gomoku_games
    shape = (game.num_planes, *game.board_shape)
    assert all(r.ownership is not None for r in records)
    batch = SamplesBatch.from_records(records, shape)
    assert batch.own.shape == (len(batch), 81) and batch.own_w.min() == 1.0
    own = batch.own.reshape(-1, 9, 9)
    planes = batch.planes.astype(np.float32)
    # stones stay where they are put: the mover's are its own at the end, the opponent's its
    assert np.all(own[planes[:, 0] == 1] == 1) and np.all(own[planes[:, 1] == 1] == -1)
    # the last position of a game is the final board less the last move
    last = batch.own[len(records[0].planes) - 1]
    assert (last != 0).sum() == (planes[len(records[0].planes) - 1, :2] != 0).sum() + 1


def test_the_buffer_keeps_ownership_turns_it_with_the_planes_and_weighs_older_samples_zero(tmp_path, gomoku_games):
    game, records = gomoku_games
    shape = (game.num_planes, *game.board_shape)
    new = SamplesBatch.from_records(records, shape)
    old = SamplesBatch(new.planes[:10], new.pi_idx[:10], new.pi_val[:10], new.z[:10], new.pw[:10])  # written before
    buf = ReplayBuffer(tmp_path / "buf", game, 10_000)
    buf.save(1, old)
    buf.save(2, new)
    fresh = ReplayBuffer(tmp_path / "buf", game, 10_000)
    assert fresh.load() == len(new) + 10
    assert fresh.read(fresh.path_for(1)).own is None
    np.testing.assert_array_equal(fresh.read(fresh.path_for(2)).own, new.own)
    rng = np.random.default_rng(0)
    planes, policy, z, pw, own, own_w = fresh.sample(512, rng, ownership=True)
    assert own.shape == (512, 9, 9) and set(np.unique(own_w)) <= {0.0, 1.0}
    known = own_w == 1
    assert 0 < known.sum() < 512   # some samples come from the older file
    assert not own[~known].any()
    k = np.flatnonzero(known)
    assert np.all(own[k][planes[k, 0] == 1] == 1) and np.all(own[k][planes[k, 1] == 1] == -1)
    # without ownership the sample is what it was
    assert len(fresh.sample(4, rng)) == 4


def test_an_ownership_head_leaves_policy_and_value_alone():
    game = get_game("othello")
    torch.manual_seed(0)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)).eval()
    wide = with_ownership(net).eval()
    x = torch.randn(3, game.num_planes, *game.board_shape)
    with torch.inference_mode():
        a, b = net(x), wide(x)
        logits, value, own = wide(x, ownership=True)
    assert len(b) == 2 and torch.equal(a[0], b[0]) and torch.equal(a[1], b[1])
    assert torch.equal(logits, a[0]) and own.shape == (3, 8, 8)
    assert net(x, ownership=True)[2] is None
    assert with_ownership(wide) is wide
    with pytest.raises(ValueError):
        NetConfig.from_dict({**wide.cfg.to_dict(), "ownership": "yes"})


def test_a_run_with_ownership_learns_it_from_self_play(tmp_path):
    game = get_game("gomoku", size=9)
    cfg = load_config(game)
    cfg = replace(cfg, net=replace(cfg.net, blocks=1, channels=8, ownership=True),
                  selfplay=replace(cfg.selfplay, **SETTINGS, fast_sims=0),
                  train=replace(cfg.train, batch_size=32, steps_per_generation=5, min_buffer=10, arena_games=0,
                                baseline_games=0))
    torch.manual_seed(3)
    run = TrainingRun(game, tmp_path, cfg, workers=1, progress=False)
    run.run(generations=2)
    run.close()
    net, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 2 and net.cfg.ownership
    import json
    lines = [json.loads(l) for l in (tmp_path / "metrics.jsonl").read_text().splitlines()]
    assert all(np.isfinite(l["ownership_loss"]) and l["ownership_loss"] > 0 for l in lines)


def test_a_buffer_file_whose_ownership_rows_do_not_match_its_samples_is_refused(tmp_path, gomoku_games):
    game, records = gomoku_games
    batch = SamplesBatch.from_records(records, (game.num_planes, *game.board_shape))
    arrays = dict(planes=batch.planes, pi_idx=batch.pi_idx, pi_val=batch.pi_val, z=batch.z, pw=batch.pw,
                  reply_w=batch.reply_w, own_w=batch.own_w)
    np.savez(tmp_path / "short.npz", own=batch.own[:-1], **arrays)
    with pytest.raises(ValueError, match="own/own_w do not match"):
        ReplayBuffer.read(tmp_path / "short.npz")
    np.savez(tmp_path / "whole.npz", own=batch.own, **arrays)
    np.testing.assert_array_equal(ReplayBuffer.read(tmp_path / "whole.npz").own, batch.own)


def test_a_damaged_buffer_file_is_set_aside_and_the_rest_still_loads(tmp_path, gomoku_games, capsys):
    game, records = gomoku_games
    batch = SamplesBatch.from_records(records, (game.num_planes, *game.board_shape))
    buf = ReplayBuffer(tmp_path / "buf", game, 100_000)
    buf.save(1, batch)
    buf.save(2, batch)
    buf.path_for(1).write_bytes(buf.path_for(1).read_bytes()[:200])   # a truncated file
    fresh = ReplayBuffer(tmp_path / "buf", game, 100_000)
    assert fresh.load() == len(batch)
    assert not fresh.has(1) and len(list((tmp_path / "buf").glob("gen_000001.npz.bak-*"))) == 1
    assert "gen_000001.npz is unreadable" in capsys.readouterr().err
    assert fresh.load() == len(batch)   # set aside once, not read again
