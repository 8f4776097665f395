"""Model files: code-running pickles are refused unrun, damaged or foreign files fail with a
CheckpointError that names the file, and an interrupted save never breaks the previous model."""
from __future__ import annotations

import os
import pickle
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest
import torch

from engine.core import checkpoint
from engine.core.checkpoint import CheckpointError, load_network, read_checkpoint, save_checkpoint
from engine.core.network import NetConfig, PolicyValueNet
from games import GAME_IDS, get_game

ROOT = Path(__file__).resolve().parent.parent


def small_net(game, seed: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    return PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=8))


def same_weights(a, b) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k], sb[k]) for k in sa)


@pytest.fixture()
def game():
    return get_game("connect2")


@pytest.fixture()
def saved(tmp_path, game):
    path = tmp_path / "model.pt"
    net = small_net(game)
    save_checkpoint(path, net, game, generation=3)
    return path, net


class RunsCode:
    """Unpickling this creates ``marker``: the kind of payload a hostile model file would carry."""

    def __init__(self, marker: Path):
        self.marker = str(marker)

    def __reduce__(self):
        return (open, (self.marker, "w"))


def assert_refused(path: Path) -> CheckpointError:
    with pytest.raises(CheckpointError) as info:
        read_checkpoint(path)
    assert str(path) in str(info.value)
    return info.value


# --- refusing code -----------------------------------------------------------------------

def test_a_checkpoint_whose_pickle_would_run_code_is_refused_without_running_it(tmp_path, saved):
    path, _ = saved
    marker = tmp_path / "pwned"
    payload = torch.load(path, weights_only=True)
    payload["extra"] = {"hook": RunsCode(marker)}
    evil = tmp_path / "evil.pt"
    torch.save(payload, evil)
    err = assert_refused(evil)
    assert "refused" in str(err)
    assert not marker.exists()
    with pytest.raises(CheckpointError):
        load_network(evil, get_game("connect2"))
    assert not marker.exists()
    # the control: an unguarded load of the same file does run the code
    control = tmp_path / "control"
    payload["extra"] = {"hook": RunsCode(control)}
    torch.save(payload, evil)
    torch.load(evil, weights_only=False)
    assert control.exists()


def test_a_bare_pickle_that_would_run_code_is_refused_without_running_it(tmp_path):
    marker = tmp_path / "pwned"
    evil = tmp_path / "evil.pt"
    evil.write_bytes(pickle.dumps({"format": checkpoint.FORMAT, "x": RunsCode(marker)}))
    assert_refused(evil)
    assert not marker.exists()


# --- damaged and foreign files ----------------------------------------------------------------

def test_a_model_for_another_game_is_refused(saved):
    path, _ = saved
    with pytest.raises(CheckpointError) as info:
        load_network(path, get_game("tictactoe"))
    assert str(path) in str(info.value) and "tictactoe" in str(info.value)


def test_the_saved_model_loads_back_with_its_metadata(saved, game):
    path, net = saved
    loaded, meta = load_network(path, game)
    assert same_weights(loaded, net)
    assert meta["generation"] == 3 and meta["game_key"] == game.key


def test_a_rule_variants_model_saves_and_loads_with_its_rule(tmp_path):
    """A renju run's checkpoints carry the rule by name (saving it once failed on int("renju"));
    the renju game plays them, the free-style game refuses them."""
    renju = get_game("gomoku", size=9, rule="renju")
    net = small_net(renju)
    path = tmp_path / "renju.pt"
    save_checkpoint(path, net, renju, generation=1)
    loaded, meta = load_network(path, renju)
    assert same_weights(loaded, net)
    assert meta["game_key"] == renju.key and meta["variant"] == {"size": 9, "rule": "renju"}
    with pytest.raises(CheckpointError):
        load_network(path, get_game("gomoku", size=9))


@pytest.mark.parametrize("fraction", [0.0005, 0.01, 0.1, 0.3, 0.5, 0.75, 0.9, 0.99, 0.9995])
def test_a_truncated_file_fails_with_a_checkpoint_error(tmp_path, saved, fraction):
    path, _ = saved
    data = path.read_bytes()
    cut = tmp_path / "cut.pt"
    cut.write_bytes(data[:max(1, int(len(data) * fraction))])
    assert_refused(cut)


@pytest.mark.parametrize("where", ["pickle", "largest tensor", "last tensor"])
def test_a_flipped_byte_fails_with_a_checkpoint_error(tmp_path, saved, where):
    """A flipped byte in what the file stores (its description, its weights) is caught. (A flip
    in the zip's bookkeeping, such as a member's timestamp, changes nothing that is loaded.)"""
    import zipfile
    path, _ = saved
    with zipfile.ZipFile(path) as zf:
        members = [i for i in zf.infolist() if i.file_size > 0]
        with open(path, "rb") as f:
            def data_start(info):   # past the member's local header (30 bytes, its name, its extra field)
                f.seek(info.header_offset + 26)
                n, m = int.from_bytes(f.read(2), "little"), int.from_bytes(f.read(2), "little")
                return info.header_offset + 30 + n + m
            tensors = [i for i in members if "/data/" in i.filename]
            info = {"pickle": next(i for i in members if i.filename.endswith("data.pkl")),
                    "largest tensor": max(tensors, key=lambda i: i.file_size),
                    "last tensor": tensors[-1]}[where]
            offset = data_start(info) + info.file_size // 2
    data = bytearray(path.read_bytes())
    data[offset] ^= 0xFF
    bad = tmp_path / "flipped.pt"
    bad.write_bytes(bytes(data))
    assert_refused(bad)


@pytest.mark.parametrize("content", [b"", b"hello, I am a text file\n", "random"], ids=["empty", "text", "random"])
def test_files_that_are_not_checkpoints_fail_with_a_checkpoint_error(tmp_path, content):
    path = tmp_path / "notamodel.pt"
    if content == "random":
        content = bytes(random.Random(1).randrange(256) for _ in range(4096))
    path.write_bytes(content)
    assert_refused(path)


def test_other_torch_files_are_not_checkpoints(tmp_path):
    for i, obj in enumerate(({"weights": torch.zeros(3)}, torch.ones(2), [1, 2, 3])):
        path = tmp_path / f"other{i}.pt"
        torch.save(obj, path)
        err = assert_refused(path)
        assert "not a ZeroBoard model file" in str(err)


def test_a_missing_file_or_a_folder_fails_with_a_checkpoint_error(tmp_path):
    assert_refused(tmp_path / "absent.pt")
    assert_refused(tmp_path)


# --- interrupted saves -----------------------------------------------------------------------------

def _interrupted_save(monkeypatch, path, game, name, replacement):
    monkeypatch.setattr(checkpoint.os, name, replacement)
    with pytest.raises(OSError):
        save_checkpoint(path, small_net(game, seed=7), game, generation=4)
    monkeypatch.undo()


def _boom(*args, **kwargs):
    raise OSError("simulated crash")


@pytest.mark.parametrize("step", ["write", "fsync", "replace"])
def test_a_save_interrupted_at_any_step_leaves_the_previous_model_intact(monkeypatch, saved, game, step):
    path, old = saved
    real_fdopen = os.fdopen

    class HalfWriter:
        """Writes the first half of the data, then fails like a full disk."""

        def __init__(self, f):
            self.f = f

        def write(self, data):
            self.f.write(data[:len(data) // 2])
            self.f.flush()
            raise OSError("No space left on device (simulated)")

        def __getattr__(self, name):
            return getattr(self.f, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

    replacement = {"write": ("fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode))),
                   "fsync": ("fsync", _boom), "replace": ("replace", _boom)}[step]
    _interrupted_save(monkeypatch, path, game, *replacement)
    loaded, meta = load_network(path, game)
    assert same_weights(loaded, old) and meta["generation"] == 3
    assert [p.name for p in path.parent.iterdir()] == [path.name]  # the temporary file was removed


_SAVER = textwrap.dedent("""
    import sys, torch
    sys.path.insert(0, {root!r})
    from engine.core.checkpoint import save_checkpoint
    from engine.core.network import NetConfig, PolicyValueNet
    from games import get_game
    game = get_game("connect4")
    nets = []
    for seed in (1, 2):
        torch.manual_seed(seed)
        nets.append(PolicyValueNet(NetConfig.for_game(game, blocks=2, channels=32)))
    print("ready", flush=True)
    i = 0
    while True:
        save_checkpoint({path!r}, nets[i % 2], game, generation=i % 2)
        i += 1
""")


def test_killing_a_process_in_the_middle_of_saves_never_breaks_the_model(tmp_path):
    game = get_game("connect4")
    path = tmp_path / "model.pt"
    torch.manual_seed(0)
    save_checkpoint(path, PolicyValueNet(NetConfig.for_game(game, blocks=2, channels=32)), game, generation=9)
    rng = random.Random(5)
    for _ in range(3):
        proc = subprocess.Popen([sys.executable, "-c", _SAVER.format(root=str(ROOT), path=str(path))],
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        try:
            assert proc.stdout.readline().strip() == "ready"
            time.sleep(rng.uniform(0.05, 0.4))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait()
        _, meta = load_network(path, game)  # the old model or one of the new ones, always whole
        assert meta["generation"] in (0, 1, 9)


# --- networks from before a game added input planes -----------------------------------------
#: every game that loads networks with fewer planes (gomoku: before its threat planes; xiangqi:
#: before its attack planes)
LEGACY = [(key, n) for key in GAME_IDS for n in get_game(key).legacy_planes]


def _saved_old_net(tmp_path, key: str, planes: int):
    """(game, network, path): a small network taking ``planes`` input planes, saved for ``key``."""
    game = get_game(key)
    torch.manual_seed(1)
    net = PolicyValueNet(NetConfig(planes, *game.board_shape, game.action_size, game.policy_planes, 1, 8, 16))
    torch.nn.init.normal_(net.stem[0].weight)
    path = tmp_path / "old.pt"
    save_checkpoint(path, net, game)
    return game, net.eval(), path


def _positions(game, count: int = 6, plies: int = 24):
    rng = random.Random(3)
    out = []
    while len(out) < count:
        s = game.initial_state()
        for _ in range(rng.randrange(plies)):
            if s.is_terminal():
                break
            s = s.apply(rng.choice(s.legal_actions()))
        if not s.is_terminal():
            out.append(s)
    return out


@pytest.mark.parametrize("with_game", [True, False])
@pytest.mark.parametrize("key,planes", LEGACY)
def test_a_network_from_before_the_added_planes_loads_and_plays_as_it_did(tmp_path, key, planes, with_game):
    from engine.core.evaluators import NetworkEvaluator
    game, old, path = _saved_old_net(tmp_path, key, planes)
    net, meta = load_network(path, game if with_game else None)   # without: as build.spec exports
    assert meta["net"]["in_planes"] == net.cfg.in_planes == planes < game.num_planes
    states = _positions(game)
    x = torch.from_numpy(np.stack([s.encode() for s in states]))
    assert x[:, planes:].abs().sum() > 0   # the added planes hold something the old network never reads
    for s in states:   # a game's shortcut for the first planes is the encoding's start
        assert np.array_equal(s.encode_planes(planes), s.encode()[:planes])
    evaluator = NetworkEvaluator(net)
    assert evaluator.in_planes == planes
    priors, values = evaluator.evaluate(states, [s.legal_actions() for s in states])
    with torch.no_grad():
        _, want = old(x[:, :planes])
    assert np.allclose(values, want.numpy().reshape(-1), atol=1e-5)


@pytest.mark.parametrize("key,planes", LEGACY)
def test_a_widened_network_computes_what_it_did_on_the_first_planes(tmp_path, key, planes):
    from engine.core.network import with_input_planes
    game, old, _ = _saved_old_net(tmp_path, key, planes)
    wide = with_input_planes(old, game.num_planes).eval()
    assert wide.cfg.in_planes == game.num_planes
    x = torch.from_numpy(np.stack([s.encode() for s in _positions(game)]))
    with torch.no_grad():
        for a, b in zip(wide(x), old(x[:, :planes])):
            assert torch.allclose(a, b, atol=1e-5)
    with pytest.raises(ValueError, match="would drop"):
        with_input_planes(wide, planes)


@pytest.mark.parametrize("key,planes", LEGACY)
def test_an_old_network_plays_on_its_own_planes_through_every_runtime(tmp_path, key, planes):
    from engine.core.runtime import load_model_evaluator
    game, old, path = _saved_old_net(tmp_path, key, planes)
    states = _positions(game, 4)
    x = np.stack([s.encode() for s in states])
    with torch.no_grad():
        _, want = old(torch.from_numpy(x[:, :planes]))
    for purpose in ("play", "selfplay"):   # whichever runtime each picks (ONNX Runtime or torch)
        evaluator, meta = load_model_evaluator(path, game, purpose=purpose, batch=4)
        assert meta["net"]["in_planes"] == evaluator.in_planes == planes
        _, values = evaluator.evaluate(states, [s.legal_actions() for s in states])
        assert np.allclose(values, want.numpy().reshape(-1), atol=1e-3)


@pytest.mark.parametrize("key", ["gomoku", "xiangqi"])
def test_other_plane_counts_are_still_refused(tmp_path, key):
    game, _, path = _saved_old_net(tmp_path, key, get_game(key).num_planes - 1)
    with pytest.raises(CheckpointError, match="input/action shape"):
        load_network(path, game)
