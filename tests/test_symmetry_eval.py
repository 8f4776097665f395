"""Symmetry-averaged evaluation (`engine.core.evaluators.SymmetryEvaluator`): the network looks
at each position under the game's board symmetries and the results are turned back and
averaged, so the evaluation is exactly symmetric even when the network is not."""
from __future__ import annotations

import numpy as np
import pytest
import torch

from engine.core.evaluators import NetworkEvaluator, SymmetryEvaluator
from engine.core.network import NetConfig, PolicyValueNet
from games import get_game


def lopsided_net(game) -> PolicyValueNet:
    """A random network: nothing in it is symmetric."""
    torch.manual_seed(4)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=16))
    for m in net.modules():
        if isinstance(m, (torch.nn.Linear, torch.nn.Conv2d)):
            with torch.no_grad():
                m.weight.normal_(0, 0.3)
    return net.eval()


def some_planes(game, n: int = 6) -> np.ndarray:
    rng = np.random.default_rng(1)
    out, s = [], game.initial_state()
    while len(out) < n:
        out.append(s.encode())
        acts = s.legal_actions()
        s = s.apply(acts[int(rng.integers(len(acts)))])
        if s.is_terminal():
            s = game.initial_state()
    return np.stack(out).astype(np.float32)


@pytest.mark.parametrize("game_id", ["connect4", "gomoku", "othello", "xiangqi"])
def test_the_average_over_the_whole_group_is_exactly_symmetric(game_id):
    game = get_game(game_id)
    inner = NetworkEvaluator(lopsided_net(game))
    syms = game.symmetries()
    ev = SymmetryEvaluator(inner, game, len(syms))
    x = some_planes(game)
    y, v = ev.infer(x)
    b, c, h, w = x.shape
    raw_y, raw_v = inner.infer(x)
    assert not np.allclose(raw_y, y, atol=1e-3)          # the network alone is not symmetric
    for cells, actions in syms[1:]:
        xt = x.reshape(b, c, h * w)[:, :, cells].reshape(b, c, h, w)
        yt, vt = ev.infer(np.ascontiguousarray(xt))
        # the transformed board's action j is the original's actions[j]
        assert np.allclose(yt, y[:, actions], atol=1e-4)
        assert np.allclose(vt, v, atol=1e-5)


def test_a_mirrored_connect4_position_gets_mirrored_priors_and_the_same_value():
    game = get_game("connect4")
    ev = SymmetryEvaluator(NetworkEvaluator(lopsided_net(game)), game, 2)
    assert ev.count == 2 and "2 symmetries" in ev.runtime
    moves = "4452361"
    s = game.state_from_text(moves)
    m = game.state_from_text("".join(str(8 - int(ch)) for ch in moves))
    (ps, pm), (vs, vm) = ev.evaluate([s, m], [s.legal_actions(), m.legal_actions()])
    assert vs == pytest.approx(vm, abs=1e-5)
    prior_s = dict(zip(s.legal_actions(), ps))
    prior_m = dict(zip(m.legal_actions(), pm))
    for a, p in prior_s.items():
        mirrored = m.parse_action(str(8 - int(s.action_to_text(a))))
        assert prior_m[mirrored] == pytest.approx(p, abs=1e-5)
    assert ev.calls == 1 and ev.positions == 2


def test_one_symmetry_is_the_network_itself():
    game = get_game("gomoku")
    inner = NetworkEvaluator(lopsided_net(game))
    x = some_planes(game, 3)
    y, v = SymmetryEvaluator(inner, game, 1).infer(x)
    ry, rv = inner.infer(x)
    assert np.allclose(y, ry, atol=1e-6) and np.allclose(v, np.asarray(rv).reshape(-1), atol=1e-6)


def test_a_model_spec_can_ask_for_symmetries_and_bad_options_are_refused():
    from engine.commands.specs import SpecError, player_from_spec
    from engine.core.config import load_config
    game = get_game("connect4")
    assert load_config(game).play.symmetries >= 1
    p = player_from_spec(game, "model:models/connect4.pt@50?sym=2", seed=1)
    assert isinstance(p.mcts.evaluator, SymmetryEvaluator) and p.mcts.evaluator.count == 2
    assert p.sims == 50 and p.name.endswith("@50 sym2")
    plain = player_from_spec(game, "model:models/connect4.pt@50?sym=1", seed=1)
    assert not isinstance(plain.mcts.evaluator, SymmetryEvaluator)
    for bad in ("model:models/connect4.pt@50?sym=0", "model:models/connect4.pt@50?sym=9",
                "model:models/connect4.pt@50?sym=two", "model:models/connect4.pt@50?depth=3",
                "model:models/connect4.pt?sym"):
        with pytest.raises(SpecError):
            player_from_spec(game, bad)


def test_the_play_setting_is_checked(tmp_path):
    from engine.core.config import load_config
    bad = tmp_path / "bad.toml"
    bad.write_text("[play]\nsymmetries = 0\n")
    with pytest.raises(ValueError, match="symmetries"):
        load_config(get_game("gomoku"), bad)
