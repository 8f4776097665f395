"""Puts the repository root on sys.path, so tests import `games` and `engine` wherever pytest
runs from; holds brute-force helpers several game tests share, and the fixture that runs a test on the
compiled tree and on the Python path it mirrors."""
import sys
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)


def win_in_one(state) -> bool:
    """True when some legal move wins at once for the player to move (by trying them all)."""
    me = state.current_player
    return any(state.apply(a).winner() == me for a in state.legal_actions())


def lost_in_two(state) -> bool:
    """True when every legal move lets the opponent win at once (by trying them all)."""
    legal = state.legal_actions()
    return bool(legal) and all(win_in_one(state.apply(a)) for a in legal)


def quiet_moves(state) -> list[int]:
    """The moves that neither win at once nor let the opponent win at once: random games
    played with them reach the endgames a search sees."""
    return [a for a in state.legal_actions()
            if not state.apply(a).is_terminal() and not win_in_one(state.apply(a))]


def generic_playout(ev, state) -> float:
    """The rollout evaluator's playout without a game's fast path (State objects all the
    way), to check a fast ``random_playout`` hook against."""
    me, s = state.current_player, state
    for _ in range(ev.max_plies):
        acts = s.legal_actions()
        if not acts:
            break
        s = s.apply(ev.rng.choice(acts))
    if not s.is_terminal():
        return 0.0
    w = s.winner()
    return 0.0 if w is None else (1.0 if w == me else -1.0)


def tiny_model_file(folder, game_id: str, seed: int = 0, generation: int = 1):
    """A checkpoint of a 1-block, 8-channel random network for ``game_id`` in ``folder``."""
    import torch

    from engine.core.checkpoint import save_checkpoint
    from engine.core.network import NetConfig, PolicyValueNet
    from games import get_game
    game = get_game(game_id)
    torch.manual_seed(seed)
    path = folder / f"{game_id}.pt"
    save_checkpoint(path, PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8)), game, generation=generation)
    return path


def trained_looking(net, seed: int, linear_std: float = 0.3):
    """``net`` (a PolicyValueNet) given what training would leave, in eval mode: batch norms with
    non-trivial statistics and scales, and linear layers (pooling ones start at zero) with weights."""
    import torch
    torch.manual_seed(seed)
    with torch.no_grad():
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.3, 3.0)
                m.weight.uniform_(0.5, 1.5)
                m.bias.uniform_(-0.3, 0.3)
            if isinstance(m, torch.nn.Linear):
                m.weight.normal_(0, linear_std)
                m.bias.normal_(0, linear_std)
    return net.eval()


def process_running(pid: int) -> bool:
    """Whether process ``pid`` exists and is not a zombie (Linux's /proc)."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as f:
            return f.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.fixture(params=["compiled", "numpy"])
def tree_path(request, monkeypatch):
    """Runs a test once with the compiled search tree's helpers (skipped where it is not built)
    and once with the Python and numpy path they mirror; gives the path's name."""
    from engine.core import mcts
    if request.param == "compiled" and mcts._tree_c is None:
        pytest.skip("the compiled tree is not built here")
    if request.param == "numpy":
        monkeypatch.setattr(mcts, "_tree_c", None)
    return request.param
