"""Growing a trained network deeper (`[net] blocks` raised on resume or `--init`): the new
residual blocks start as identities, so the network computes what it did, and they learn."""
from __future__ import annotations

from dataclasses import replace

import pytest
import torch

from engine.core.checkpoint import load_network
from engine.core.config import load_config
from engine.core.network import NetConfig, PolicyValueNet, tower_name, with_blocks
from engine.training.train import TrainingRun
from games import get_game


def trained_like(game, blocks: int, global_pool: int = 0, seed: int = 0) -> PolicyValueNet:
    """A small network with random weights and random batch-norm statistics and scales, so
    that no layer is the identity by accident."""
    torch.manual_seed(seed)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=blocks, channels=8, global_pool=global_pool))
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.normal_(0, 0.3)
                m.running_var.uniform_(0.5, 2.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.normal_(0, 0.2)
            if isinstance(m, torch.nn.Linear) and m.weight.abs().sum() == 0:
                m.weight.normal_(0, 0.1)   # the pooling layers, which start at zero
    return net.eval()


@pytest.mark.parametrize("game_id,global_pool", [("connect4", 0), ("gomoku", 1), ("xiangqi", 2)])
def test_a_deepened_network_computes_what_it_did(game_id, global_pool):
    game = get_game(game_id)
    net = trained_like(game, blocks=3, global_pool=global_pool)
    deeper = with_blocks(net, 5)
    assert deeper.cfg.blocks == 5 and deeper.cfg.global_pool == global_pool and not deeper.training
    x = torch.randn(6, game.num_planes, *game.board_shape)
    with torch.no_grad():
        (p0, v0), (p1, v1) = net(x), deeper(x)
    assert torch.allclose(p0, p1, atol=1e-5) and torch.allclose(v0, v1, atol=1e-6)
    # the pooling blocks stay last: the old ones moved up, the new ones sit just before them
    first_new = 3 - global_pool
    for i in range(global_pool):
        old, new = net.tower[first_new + i], deeper.tower[first_new + 2 + i]
        assert new.pool_fc is not None and torch.equal(old.conv1.weight, new.conv1.weight)
    for i in (first_new, first_new + 1):
        assert deeper.tower[i].pool_fc is None and not deeper.tower[i].bn2.weight.any()


def test_the_new_blocks_learn_and_fewer_blocks_are_refused():
    game = get_game("connect4")
    net = trained_like(game, blocks=2)
    deeper = with_blocks(net, 3).train()
    x = torch.randn(8, game.num_planes, *game.board_shape)
    logits, value = deeper(x)
    (logits.square().mean() + value.square().mean()).backward()
    assert deeper.tower[2].bn2.weight.grad.abs().sum() > 0   # the zero scale is not stuck at zero
    assert with_blocks(net, 2) is net
    with pytest.raises(ValueError):
        with_blocks(net, 1)


def test_tower_names_follow_the_inserted_blocks():
    game = get_game("gomoku")
    old = NetConfig.for_game(game, blocks=4, channels=8, global_pool=2)
    new = replace(old, blocks=6)
    assert tower_name("tower.1.conv1.weight", old, new) == "tower.1.conv1.weight"
    assert tower_name("tower.2.pool_fc.bias", old, new) == "tower.4.pool_fc.bias"
    assert tower_name("value_fc.0.weight", old, new) == "value_fc.0.weight"


def test_a_run_resumed_with_more_blocks_grows_its_network_and_keeps_its_moments(tmp_path):
    game = get_game("tictactoe")
    cfg = load_config(game)

    def tiny(blocks):
        return replace(cfg, net=replace(cfg.net, blocks=blocks, channels=8, global_pool=1),
                       selfplay=replace(cfg.selfplay, sims=6, games_per_generation=4, parallel_games=4, leaf_batch=1,
                                        fast_sims=0, resign_threshold=0),
                       train=replace(cfg.train, batch_size=32, steps_per_generation=5, min_buffer=10, arena_games=0,
                                     baseline_games=0))

    torch.manual_seed(3)
    run = TrainingRun(game, tmp_path, tiny(1), workers=1, progress=False)
    run.run(generations=1)
    run.close()
    small = load_network(tmp_path / "latest.pt", game)[0]
    moments = torch.load(tmp_path / "optimizer.pt", weights_only=True)["state"]
    names = [n for n, _ in small.named_parameters()]
    before = moments[names.index("tower.0.conv1.weight")]["exp_avg"].clone()
    run = TrainingRun(game, tmp_path, tiny(3), workers=1, progress=False)
    wider = run._upgraded(small, optimizer=True)
    assert wider.cfg.blocks == 3
    renumbered = torch.load(tmp_path / "optimizer.pt", weights_only=True)["state"]
    new_names = [n for n, _ in wider.named_parameters()]
    # the pooling block moved from tower.0 to tower.2, and its Adam moments with it
    assert torch.equal(renumbered[new_names.index("tower.2.conv1.weight")]["exp_avg"], before)
    assert new_names.index("tower.0.conv1.weight") not in renumbered
    # a second renumbering (a run killed before its first deeper generation was saved, then
    # resumed) leaves the moments where the first put them
    run._upgraded(small, optimizer=True)
    again = torch.load(tmp_path / "optimizer.pt", weights_only=True)["state"]
    assert torch.equal(again[new_names.index("tower.2.conv1.weight")]["exp_avg"], before)
    run.run(generations=1)
    run.close()
    net, meta = load_network(tmp_path / "latest.pt", game)
    assert meta["generation"] == 2 and net.cfg.blocks == 3
