"""Growing a trained network deeper (`[net] blocks` raised on resume or `--init`): the new
residual blocks start as identities, so the network computes what it did, and they learn."""
from __future__ import annotations

import json
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


def test_a_run_widens_a_network_from_before_the_attack_planes_unless_told_to_keep_it(tmp_path):
    """xiangqi's networks from before its attack planes read 16 of its 20 planes: a run started
    from one widens it (zero weights for the new planes) unless ``[net] in_planes = 16`` keeps
    it; a run widened on resume passes over the older encoding's samples in its buffer."""
    import numpy as np
    from engine.core.checkpoint import save_checkpoint
    game = get_game("xiangqi")
    cfg = load_config(game)

    def tiny(in_planes):
        return replace(cfg, net=replace(cfg.net, blocks=1, channels=8, in_planes=in_planes),
                       selfplay=replace(cfg.selfplay, sims=4, fast_sims=0, games_per_generation=2, parallel_games=2,
                                        leaf_batch=1, resign_threshold=0, max_plies=8, temperature_moves=8),
                       train=replace(cfg.train, batch_size=8, steps_per_generation=2, min_buffer=4, arena_games=0,
                                     baseline_games=0))

    torch.manual_seed(5)
    old = PolicyValueNet(NetConfig(16, *game.board_shape, game.action_size, game.policy_planes, 1, 8, 16))
    save_checkpoint(tmp_path / "old.pt", old, game)
    with pytest.raises(ValueError, match="in_planes = 17"):
        TrainingRun(game, tmp_path / "bad", tiny(17), workers=1, progress=False)

    def planes_of(run_dir):
        return [np.load(p)["planes"].shape[1] for p in sorted((run_dir / "buffer").glob("gen_*.npz"))]

    kept, widened = tmp_path / "kept", tmp_path / "widened"
    for run_dir, in_planes in ((kept, 16), (widened, 0)):
        run = TrainingRun(game, run_dir, tiny(in_planes), workers=1, init_model=tmp_path / "old.pt", progress=False)
        run.run(generations=1)
        run.close()
    assert load_network(kept / "latest.pt", game)[0].cfg.in_planes == 16 and planes_of(kept) == [16]
    wide = load_network(widened / "latest.pt", game)[0]
    assert wide.cfg.in_planes == 20 and planes_of(widened) == [20]
    # resumed without the setting, the kept run widens: its next games are still the 16-plane
    # network's (the checkpoint they start from), passed over; the ones after train the wider one
    run = TrainingRun(game, kept, tiny(0), workers=1, progress=False)
    run.run(generations=2)
    run.close()
    lines = [json.loads(l) for l in (kept / "metrics.jsonl").read_text().splitlines()]
    assert lines[1]["buffer_other_planes"] > 0 and "skipped" in lines[1]
    assert planes_of(kept)[-1] == 20 and lines[2]["steps"] == 2
    assert load_network(kept / "latest.pt", game)[0].cfg.in_planes == 20
    with pytest.raises(ValueError, match="cannot take"):   # trained planes are never dropped
        run = TrainingRun(game, kept, tiny(16), workers=1, progress=False)
        try:
            run.run(generations=1)
        finally:
            run.close()
