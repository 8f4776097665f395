"""The network in ONNX Runtime: the same outputs as torch, an export cache that belongs to its
checkpoint, a runtime chosen by measurement and remembered, torch-free play, and torch as
the fallback for any problem."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from engine.core import onnxnet, runtime
from engine.core.checkpoint import CheckpointError, save_checkpoint
from engine.core.evaluators import NetworkEvaluator
from engine.core.network import NetConfig, PolicyValueNet
from games import get_game

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    """Every test gets its own per-user folders (cache, runtime choices)."""
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ZEROBOARD_RUNTIME", raising=False)


def trained_looking_net(game, seed: int, global_pool: int = 0) -> PolicyValueNet:
    torch.manual_seed(seed)
    net = PolicyValueNet(NetConfig.for_game(game, blocks=1, channels=16, global_pool=global_pool))
    for m in net.modules():
        if isinstance(m, torch.nn.Linear):   # pooling layers start at zero; give them a say
            with torch.no_grad():
                m.weight.normal_(0, 0.2)
        if isinstance(m, torch.nn.BatchNorm2d):
            with torch.no_grad():
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.3, 3.0)
    return net.eval()


def some_states(game, n: int = 12):
    states, s = [], game.initial_state()
    rng = np.random.default_rng(0)
    while len(states) < n:
        states.append(s)
        s = s.apply(s.legal_actions()[int(rng.integers(len(s.legal_actions())))])
        if s.is_terminal():
            s = game.initial_state()
    return states


@pytest.fixture
def checkpoint(tmp_path):
    game = get_game("connect4")
    path = tmp_path / "models" / "c4.pt"
    save_checkpoint(path, trained_looking_net(game, 1), game, generation=3)
    return game, path


@pytest.mark.parametrize("game_id,global_pool", [("tictactoe", 0), ("connect4", 0), ("othello", 0), ("xiangqi", 0),
                                                 ("gomoku", 1), ("othello", 1)])
def test_onnx_runtime_gives_the_torch_networks_priors_and_values(game_id, global_pool):
    game = get_game(game_id)
    net = trained_looking_net(game, 2, global_pool)
    torch_ev = NetworkEvaluator(net)
    ort_ev = runtime.build_evaluator("ort-fp32", net)
    states = some_states(game)
    legal = [s.legal_actions() for s in states]
    p1, v1 = torch_ev.evaluate(states, legal)
    p2, v2 = ort_ev.evaluate(states, legal)
    assert np.allclose(v1, v2, atol=1e-4)
    assert all(np.allclose(a, b, atol=1e-4) for a, b in zip(p1, p2))
    assert ort_ev.calls == 1 and ort_ev.positions == len(states)


def test_the_export_is_cached_beside_the_checkpoint_with_its_hash_and_reused(checkpoint, monkeypatch):
    game, path = checkpoint
    ev, meta = runtime.load_model_evaluator(path, game)
    onnx_file = path.with_suffix(".onnx")
    assert onnx_file.is_file() and meta["generation"] == 3
    sess = onnxnet.session(onnx_file)
    assert sess.get_modelmeta().custom_metadata_map[onnxnet.HASH_KEY] == onnxnet.file_sha256(path)
    # a second load takes the cached file: no export, no timing
    monkeypatch.setattr(onnxnet, "export_bytes", lambda *a, **k: pytest.fail("exported again"))
    monkeypatch.setattr(runtime, "time_runtimes", lambda *a, **k: pytest.fail("timed again"))
    again, meta2 = runtime.load_model_evaluator(path, game)
    assert type(again) is type(ev) and meta2["generation"] == 3


def test_a_changed_checkpoint_gets_a_new_export(checkpoint):
    game, path = checkpoint
    os.environ["ZEROBOARD_RUNTIME"] = "ort"
    try:
        runtime.load_model_evaluator(path, game)
        new_net = trained_looking_net(game, 7)
        save_checkpoint(path, new_net, game, generation=4)
        ev, meta = runtime.load_model_evaluator(path, game)
    finally:
        del os.environ["ZEROBOARD_RUNTIME"]
    assert isinstance(ev, onnxnet.OrtEvaluator) and meta["generation"] == 4
    states = some_states(game)
    legal = [s.legal_actions() for s in states]
    _, v_new = NetworkEvaluator(new_net).evaluate(states, legal)
    _, v = ev.evaluate(states, legal)
    assert np.allclose(v, v_new, atol=1e-4)


def test_a_read_only_models_folder_puts_the_export_in_the_user_cache(checkpoint, monkeypatch):
    game, path = checkpoint
    real_access = os.access
    monkeypatch.setattr(onnxnet.os, "access",
                        lambda p, mode: False if Path(p) == path.parent else real_access(p, mode))
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(path, game)
    assert not path.with_suffix(".onnx").exists()
    cached = list(onnxnet.cache_dir().glob("*.onnx"))
    assert len(cached) == 1 and cached[0].name.startswith(onnxnet.file_sha256(path)[:32])


@pytest.mark.parametrize("content", [b"", b"not an onnx model", b"\x08\x07" * 100])
def test_a_damaged_onnx_file_is_ignored_and_rebuilt(checkpoint, monkeypatch, capsys, content):
    game, path = checkpoint
    path.with_suffix(".onnx").write_bytes(content)
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, onnxnet.OrtEvaluator)
    assert onnxnet.load_cached(path, game) is not None   # the rebuilt file is now valid


def test_an_export_of_another_checkpoint_is_not_used(checkpoint, tmp_path, monkeypatch):
    game, path = checkpoint
    other = tmp_path / "other.pt"
    save_checkpoint(other, trained_looking_net(game, 9), game)
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(other, game)
    other.with_suffix(".onnx").replace(path.with_suffix(".onnx"))   # someone else's export beside ours
    assert onnxnet.load_cached(path, game) is None


def test_a_checkpoint_for_another_game_is_refused_as_before(checkpoint):
    _, path = checkpoint
    with pytest.raises(CheckpointError, match="not 'tictactoe'"):
        runtime.load_model_evaluator(path, get_game("tictactoe"))


def test_a_checkpoint_that_would_run_code_is_refused_even_with_an_onnx_cache_lookup(tmp_path):
    import pickle
    bad = tmp_path / "bad.pt"
    bad.write_bytes(pickle.dumps({"x": 1}))
    with pytest.raises(CheckpointError):
        runtime.load_model_evaluator(bad, get_game("connect4"))


def test_without_onnx_runtime_the_network_runs_in_torch_with_a_note(checkpoint, monkeypatch, capsys):
    game, path = checkpoint
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(path, game)   # an export cached beside the checkpoint
    exports = sorted(p.name for p in path.parent.iterdir())
    monkeypatch.delenv("ZEROBOARD_RUNTIME")
    monkeypatch.setitem(sys.modules, "onnxruntime", None)   # import fails
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, NetworkEvaluator)
    err = capsys.readouterr().err
    assert "runs in torch" in err
    # the export is not to blame: it stays where it was, not moved aside as a damaged file
    assert sorted(p.name for p in path.parent.iterdir()) == exports and "moved aside" not in err


def test_an_export_failure_falls_back_to_torch_with_a_note(checkpoint, monkeypatch, capsys):
    game, path = checkpoint

    def broken(*a, **k):
        raise RuntimeError("exporter broke")
    monkeypatch.setattr(onnxnet, "export_bytes", broken)
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, NetworkEvaluator)
    assert "exporter broke" in capsys.readouterr().err


@pytest.mark.parametrize("passes", [True, False])
def test_self_play_in_torch_alone_takes_bfloat16_only_where_it_passes_the_accuracy_bar(checkpoint, monkeypatch,
                                                                                        passes):
    """Where ONNX Runtime cannot serve (here: not installed), bfloat16 still only competes in self-play:
    as in the measured choice, it must pass the accuracy check against float32 on this machine."""
    game, path = checkpoint
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    # as on a processor with fast bfloat16
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k: {"torch-fp32": 1.0, "torch-bf16": 2.0})
    checked = []

    def verdict(name, evaluators, g, digest, shape=""):
        checked.append((name, evaluators["reference"].runtime, g.key, len(digest), shape))
        return passes
    monkeypatch.setattr(runtime, "accurate_enough", verdict)
    ev, meta = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=64, precision="auto")
    assert ev.runtime == ("torch-bf16" if passes else "torch-fp32")
    # checked once, against float32, for this checkpoint (its sha256) and its network's shape
    assert checked == [("torch-bf16", "torch-fp32", "connect4", 64, runtime.shape_key(meta["net"]))]
    # a check that cannot run (no per-user folder, say) leaves float32

    def broken(*a, **k):
        raise ModuleNotFoundError("No module named 'platformdirs'")
    monkeypatch.setattr(runtime, "accurate_enough", broken)
    unchecked, _ = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=64, precision="auto")
    assert unchecked.runtime == "torch-fp32"
    # asked for by name, bfloat16 is taken without the check
    monkeypatch.setattr(runtime, "accurate_enough", verdict)
    checked.clear()
    forced, _ = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=64, precision="bf16")
    assert forced.runtime == "torch-bf16" and checked == []


def test_the_runtime_choice_is_the_fastest_measured_and_remembered(checkpoint, monkeypatch):
    game, path = checkpoint
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k: {"torch-fp32": 2.0, "ort-fp32": 1.0})
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, NetworkEvaluator)
    monkeypatch.setattr(runtime, "time_runtimes", lambda *a, **k: pytest.fail("timed again"))
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, NetworkEvaluator)
    choices = json.loads((runtime._choice_path()).read_text())
    assert [c["runtime"] for c in choices.values()] == ["torch-fp32"]


def test_self_play_lets_bfloat16_compete_only_when_its_precision_is_auto():
    assert "torch-bf16" in runtime.candidates_for("selfplay", "auto")
    assert "torch-bf16" not in runtime.candidates_for("selfplay", "fp32")
    assert "torch-bf16" not in runtime.candidates_for("play")
    assert "ort-int8" not in runtime.candidates_for("selfplay", "auto")


def test_playing_from_a_cached_export_never_imports_torch(checkpoint, tmp_path):
    game, path = checkpoint
    env = {**os.environ, "ZEROBOARD_RUNTIME": "ort", "PYTHONPATH": str(ROOT)}
    script = (
        "import sys\n"
        "from games import get_game\n"
        "from engine.play.players import make_player\n"
        f"p = make_player(get_game('connect4'), 'medium', model_path={str(path)!r}, seed=1)\n"
        "r = p.choose(get_game('connect4').initial_state())\n"
        "print(type(p.mcts.evaluator).__name__, r.sims, 'torch' in sys.modules)\n")
    first = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert first.stdout.split()[0] == "OrtEvaluator"          # exported now (with torch)
    second = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
    assert second.returncode == 0, second.stderr
    name, sims, torch_loaded = second.stdout.split()
    assert name == "OrtEvaluator" and int(sims) > 0 and torch_loaded == "False"


def test_analyse_from_a_remembered_choice_never_imports_torch(checkpoint):
    game, path = checkpoint
    env = {k: v for k, v in os.environ.items() if k != "ZEROBOARD_RUNTIME"}
    env["PYTHONPATH"] = str(ROOT)
    from engine.play.players import play_leaf_batch
    key = runtime.choice_key(NetConfig.for_game(game, blocks=1, channels=16).to_dict(), play_leaf_batch(game), "play",
                             runtime.candidates_for("play"))
    runtime.remember_choice(key, "ort-fp32", {"ort-fp32": 2.0, "torch-fp32": 1.0})
    os.environ["ZEROBOARD_RUNTIME"] = "ort"
    try:
        runtime.load_model_evaluator(path, game)   # export once
    finally:
        del os.environ["ZEROBOARD_RUNTIME"]
    script = ("import sys, runpy\n"
              f"sys.argv = ['main.py', 'analyse', '--game', 'connect4', '--model', {str(path)!r}, '--sims', '50']\n"
              "try:\n    runpy.run_path('main.py', run_name='__main__')\n"
              "except SystemExit:\n    pass\n"
              "print('torch loaded:', 'torch' in sys.modules)\n")
    proc = subprocess.run([sys.executable, "-c", script], env=env, cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert json.loads(lines[0])["sims"] >= 50
    assert lines[-1] == "torch loaded: False"


def test_an_inexact_runtime_is_chosen_only_where_it_is_faster_and_passes_the_accuracy_check(monkeypatch):
    game = get_game("connect4")
    net = trained_looking_net(game, 3)
    cfg = net.cfg.to_dict()
    candidates = runtime.candidates_for("selfplay", "auto")
    monkeypatch.setattr(runtime, "time_runtimes",
                        lambda evs, planes, *a, **k: {"torch-fp32": 1.0, "torch-bf16": 3.0, "ort-fp32": 2.0})
    assert runtime.choose(net, cfg, 64, "selfplay", candidates, accurate={"torch-bf16"})[0] == "torch-bf16"
    assert runtime.choose(net, cfg, 64, "selfplay", candidates, accurate=set())[0] == "ort-fp32"
    assert runtime.choose(net, cfg, 64, "selfplay", candidates)[0] == "ort-fp32"   # nothing to check it on
    verdicts = iter([False, True])
    checked = []

    def fake_check(name, evaluators, g, digest, shape=""):
        checked.append((name, digest))
        return next(verdicts)
    monkeypatch.setattr(runtime, "accurate_enough", fake_check)
    assert runtime.choose(net, cfg, 64, "selfplay", candidates, game=game, digest="a" * 64)[0] == "ort-fp32"
    assert runtime.choose(net, cfg, 64, "selfplay", candidates, game=game, digest="b" * 64)[0] == "torch-bf16"
    assert checked == [("torch-bf16", "a" * 64), ("torch-bf16", "b" * 64)]


def test_the_accuracy_check_compares_on_positions_of_the_networks_games_and_is_remembered(monkeypatch):
    game = get_game("tictactoe")
    net = trained_looking_net(game, 4)
    evs = {"reference": runtime.build_evaluator("torch-fp32", net),
           "ort-fp32": runtime.build_evaluator("ort-fp32", net)}
    monkeypatch.setattr(runtime, "ACCURACY_POSITIONS", 100)
    assert runtime.accurate_enough("ort-fp32", evs, game, "c" * 64)
    monkeypatch.setattr(runtime, "accuracy", lambda *a, **k: pytest.fail("measured again"))
    assert runtime.accurate_enough("ort-fp32", evs, game, "c" * 64)
    positions = runtime.policy_game_positions(game, evs["reference"], 50, seed=1)
    assert len(positions) == 50 and not any(s.is_terminal() for s in positions)


def test_the_packaged_apps_models_folder_is_never_written_to(checkpoint, monkeypatch):
    game, path = checkpoint
    from engine.core import paths
    monkeypatch.setattr(paths, "models_dir", lambda: path.parent)
    monkeypatch.setattr(paths, "is_frozen", lambda: True)
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(path, game)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert onnxnet.load_cached(path, game) is not None   # from the user cache


def test_play_from_a_cached_export_with_nothing_timed_takes_onnx_runtime_without_timing(checkpoint, monkeypatch):
    """Where the Winograd module is not built (with it and its cached arrays, tests/test_winograd.py)."""
    game, path = checkpoint
    from engine.core import winograd
    monkeypatch.setattr(winograd, "load", lambda: None)
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(path, game)        # the export, as the packaged app's build makes it
    monkeypatch.delenv("ZEROBOARD_RUNTIME")
    runtime._choice_path().unlink(missing_ok=True)
    monkeypatch.setattr(runtime, "time_runtimes", lambda *a, **k: pytest.fail("timed"))
    ev, _ = runtime.load_model_evaluator(path, game)
    assert isinstance(ev, onnxnet.OrtEvaluator)


def test_self_play_writes_no_export_and_keeps_a_forced_precision_in_torch(checkpoint, monkeypatch):
    game, path = checkpoint
    ev, _ = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=64, precision="auto",
                                         keep_export=False)
    # whichever float32 runtime is faster here (the Winograd one where it is built and wins the timing)
    assert ev.runtime in ("torch-fp32", "torch-bf16", "ort-fp32", "wino-fp32")
    assert not path.with_suffix(".onnx").exists() and not list(onnxnet.cache_dir().glob("*.onnx"))
    assert not list(path.parent.glob("*.wino.npz")) and not list(onnxnet.cache_dir().glob("*.wino.npz"))
    forced, _ = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=64, precision="fp32",
                                             keep_export=False)
    assert isinstance(forced, NetworkEvaluator) and forced.runtime == "torch-fp32"


def test_the_play_leaf_batch_is_each_games_setting(tmp_path):
    from engine.core.config import load_config
    from engine.play.players import make_player, play_leaf_batch
    game = get_game("connect4")
    assert play_leaf_batch(game) == load_config(game).play.leaf_batch >= 1
    custom = tmp_path / "c.toml"
    custom.write_text("[play]\nleaf_batch = 16\n")
    assert load_config(game, custom).play.leaf_batch == 16
    custom.write_text("[play]\nleaves = 16\n")
    with pytest.raises(ValueError, match="unknown setting 'leaves'"):
        load_config(game, custom)
    player = make_player(get_game("tictactoe"), "beginner", seed=0)
    assert player.mcts.cfg.leaf_batch == play_leaf_batch(get_game("tictactoe"))


def test_an_accuracy_verdict_stands_for_other_checkpoints_of_the_shape_for_an_hour(monkeypatch):
    game = get_game("tictactoe")
    net = trained_looking_net(game, 4)
    evs = {"reference": runtime.build_evaluator("torch-fp32", net),
           "ort-fp32": runtime.build_evaluator("ort-fp32", net)}
    monkeypatch.setattr(runtime, "ACCURACY_POSITIONS", 60)
    assert runtime.accurate_enough("ort-fp32", evs, game, "d" * 64, shape="s")
    measured = []
    real = runtime.accuracy
    monkeypatch.setattr(runtime, "accuracy", lambda *a, **k: measured.append(1) or real(*a, **k))
    assert runtime.accurate_enough("ort-fp32", evs, game, "e" * 64, shape="s") and not measured
    monkeypatch.setattr(runtime.time, "time", lambda: 1e12)   # much later: checked again
    assert runtime.accurate_enough("ort-fp32", evs, game, "f" * 64, shape="s") and measured == [1]


def test_batch_priors_are_each_rows_softmax_bit_for_bit(tree_path):
    from engine.core.evaluators import BatchNetEvaluator
    rng = np.random.default_rng(21)
    for trial in range(300):
        rows = int(rng.integers(1, 17))
        logits = (rng.normal(size=(rows, 300)) * rng.uniform(0.1, 8.0)).astype(np.float32)
        legal = []
        for _ in range(rows):
            acts = sorted(rng.choice(300, size=int(rng.integers(1, 300)), replace=False).tolist())
            legal.append(acts if rng.random() < 0.7 else np.array(acts, np.int64))
        if trial % 3 == 0:   # a strided view (a wider output's first columns)
            wide = np.zeros((rows, 320), np.float32)
            wide[:, :300] = logits
            logits = wide[:, :300]
        got = BatchNetEvaluator._priors(logits, legal)
        assert len(got) == rows
        for row, acts, p in zip(logits, legal, got):
            want = BatchNetEvaluator._row_priors(row, acts)
            assert p.dtype == want.dtype and p.tobytes() == want.tobytes()


def test_the_compiled_softmax_refuses_what_it_cannot_read():
    from engine.core import mcts
    from engine.core.evaluators import _NUMPY_TOOLS
    c = mcts._tree_c
    if c is None:
        pytest.skip("the compiled tree is not built here")
    logits = np.zeros((2, 5), np.float32)
    rows = c.priors(logits, [[0, 4], [1]], _NUMPY_TOOLS)
    assert [r.tolist() for r in rows] == [[0.5, 0.5], [1.0]]
    assert c.priors(logits, [[0, 4], []], _NUMPY_TOOLS) is None   # an empty row: the Python path's
    with pytest.raises(ValueError, match="outside"):
        c.priors(logits, [[0, 5], [1]], _NUMPY_TOOLS)
    with pytest.raises(ValueError, match="outside"):
        c.priors(logits, [[0, -1], [1]], _NUMPY_TOOLS)
    with pytest.raises(TypeError, match="rows"):
        c.priors(logits, [[0]], _NUMPY_TOOLS)
    with pytest.raises(TypeError, match="float32"):
        c.priors(logits.astype(np.float64), [[0], [1]], _NUMPY_TOOLS)
    with pytest.raises(TypeError, match="float32"):
        c.priors(logits.reshape(-1), [[0], [1]], _NUMPY_TOOLS)
    with pytest.raises(TypeError):
        c.priors(logits, [[0, "a"], [1]], _NUMPY_TOOLS)
    with pytest.raises(TypeError):
        c.priors(logits, [[0], 3], _NUMPY_TOOLS)
    with pytest.raises(TypeError):
        c.priors(logits, [[0], [1]], (np.empty, np.exp))
