"""Static int8 (QDQ, per-channel weights, calibrated on the network's own positions): the
quantized network loads and plays the float network's first moves, it is cached beside the
float export and rebuilt with its checkpoint, and the runtime choice takes it only where it is
faster and passes the accuracy bar. Also: denormal weights are zeroed in the inference copy."""
from __future__ import annotations

import json

import numpy as np
import pytest
import torch

from engine.core import int8, onnxnet, runtime
from engine.core.checkpoint import save_checkpoint
from engine.core.network import inference_copy
from games import get_game
from test_runtime import checkpoint, trained_looking_net  # noqa: F401  (checkpoint: a fixture)


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ZEROBOARD_RUNTIME", raising=False)


def clear_first_choices(game, evaluator, count: int, margin: float = 0.1) -> list:
    """Positions of the network's own games whose best legal move leads the second by ``margin``
    logits or more: a first choice that quantization noise alone should not flip."""
    out = []
    for s in runtime.policy_game_positions(game, evaluator, 4 * count, seed=3):
        legal = s.legal_actions()
        logits = np.sort(evaluator.infer(evaluator.encode(s)[None])[0][0][legal])
        if len(legal) == 1 or logits[-1] - logits[-2] >= margin:
            out.append(s)
    return out[:count]


def test_the_inference_copy_zeroes_denormal_weights_without_changing_an_output():
    game = get_game("othello")
    net = trained_looking_net(game, 2)
    with torch.no_grad():
        w = net.tower[0].conv1.weight
        w.view(-1)[::3] = 1e-40   # a third of a convolution's weights denormal, as decay leaves them
    fast = inference_copy(net)
    tiny = torch.finfo(torch.float32).tiny
    assert all(not ((p != 0) & (p.abs() < tiny)).any() for p in fast.parameters())
    x = torch.rand(4, *[net.cfg.in_planes, net.cfg.height, net.cfg.width]).round()
    with torch.inference_mode():
        a, b = net(x), fast(x.contiguous(memory_format=torch.channels_last))
    assert all(torch.allclose(p, q, atol=1e-5) for p, q in zip(a, b))


def test_the_quantized_session_loads_is_int8_and_plays_the_float_networks_first_moves():
    game = get_game("connect4")
    net = trained_looking_net(game, 4)
    model = onnxnet.export_bytes(net, "a" * 64, {"game_key": game.key})
    fp32 = onnxnet.OrtEvaluator(onnxnet.session(model))
    quantized = int8.quantize_for(model, game, fp32, count=128)
    sess = onnxnet.session(quantized)
    onnxnet.check_session(sess, game, "quantized")
    import onnx
    proto = onnx.load_from_string(quantized)
    ops = {n.op_type for n in proto.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert any(i.data_type == onnx.TensorProto.INT8 for i in proto.graph.initializer)
    assert int8.is_current(sess, "a" * 64)
    ev = runtime.build_evaluator(runtime.INT8_STATIC, int8_sess=sess)
    positions = clear_first_choices(game, fp32, 8)
    assert len(positions) == 8
    legal = [s.legal_actions() for s in positions]
    p_float, v_float = fp32.evaluate(positions, legal)
    p_int8, v_int8 = ev.evaluate(positions, legal)
    assert [int(np.argmax(p)) for p in p_int8] == [int(np.argmax(p)) for p in p_float]
    assert np.abs(v_int8 - v_float).mean() < 0.05


def test_the_quantized_copy_is_cached_beside_the_export_and_rebuilt_when_the_checkpoint_changes(checkpoint,
                                                                                                   monkeypatch):
    game, path = checkpoint
    from engine.core.checkpoint import load_network
    net, meta = load_network(path, game)
    digest = onnxnet.file_sha256(path)
    sess = int8.load_or_build(path, game, lambda: onnxnet.export_bytes(net, digest, meta), digest)
    cached = path.with_suffix(".int8.onnx")
    assert cached.is_file() and int8.is_current(sess, digest)
    real = int8.quantize_for
    monkeypatch.setattr(int8, "quantize_for", lambda *a, **k: pytest.fail("quantized again"))
    assert int8.load_cached(path, game) is not None
    int8.load_or_build(path, game, lambda: pytest.fail("exported again"), digest)
    # a new checkpoint in the same file: the old copy carries the old hash, so it is rebuilt
    new_net = trained_looking_net(game, 9)
    save_checkpoint(path, new_net, game, generation=4)
    assert int8.load_cached(path, game) is None
    monkeypatch.setattr(int8, "quantize_for", real)
    new_digest = onnxnet.file_sha256(path)
    sess = int8.load_or_build(path, game, lambda: onnxnet.export_bytes(new_net, new_digest, meta))
    assert int8.is_current(sess, new_digest) and int8.load_cached(path, game) is not None


@pytest.mark.parametrize("content", [b"", b"not an onnx model"])
def test_a_damaged_quantized_copy_is_ignored(checkpoint, content):
    game, path = checkpoint
    path.with_suffix(".int8.onnx").write_bytes(content)
    assert int8.load_cached(path, game) is None


def test_a_float_export_is_not_taken_for_a_quantized_copy(checkpoint):
    game, path = checkpoint
    from engine.core.checkpoint import load_network
    net, meta = load_network(path, game)
    digest = onnxnet.file_sha256(path)
    path.with_suffix(".int8.onnx").write_bytes(onnxnet.export_bytes(net, digest, meta))   # same hash, no recipe
    assert int8.load_cached(path, game) is None


def perturbed_session(net, game, digest: str):
    """A "quantized" session that is really the float network with its policy and value
    layers scrambled: fast in the mocked timing, and far from the float outputs (its first
    choices reversed and far apart, so that the checked form seldom looks again)."""
    bad = trained_looking_net(game, 1)
    bad.load_state_dict(net.state_dict())
    with torch.no_grad():
        for m in (bad.value_fc[0], bad.value_fc[2]):
            m.weight.mul_(-3.0)
        bad.policy_conv[0].weight.mul_(-50.0)
    return onnxnet.session(onnxnet.export_bytes(bad, digest, {"game_key": game.key}))


def test_the_runtime_choice_rejects_static_int8_that_fails_the_accuracy_bar(monkeypatch):
    game = get_game("connect4")
    net = trained_looking_net(game, 5)
    cfg = net.cfg.to_dict()
    monkeypatch.setattr(runtime, "ACCURACY_POSITIONS", 200)
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {"torch-fp32": 1.0, "ort-fp32": 2.0, runtime.INT8_CHECKED: 6.0})
    candidates = runtime.candidates_for("play")
    assert runtime.INT8_CHECKED in candidates and runtime.INT8_STATIC not in candidates
    bad = perturbed_session(net, game, "b" * 64)
    chosen, ev = runtime.choose(net, cfg, 8, "play", candidates, game=game, digest="b" * 64, int8_sess=bad)
    assert chosen == "ort-fp32" and ev.runtime == "ort-fp32"
    assert runtime.accuracy_verdict(runtime.INT8_CHECKED, "b" * 64) is False
    # the same choice with a copy that passes (the float model itself), the shape's verdict expired: taken
    # -1, not 0: a verdict's checked_at is rounded to the second, so it can lie up to half a second ahead
    monkeypatch.setattr(runtime, "ACCURACY_RECHECK_S", -1.0)
    good = onnxnet.session(onnxnet.export_bytes(net))
    chosen, ev = runtime.choose(net, cfg, 8, "play", candidates, game=game, digest="c" * 64, int8_sess=good)
    assert chosen == runtime.INT8_CHECKED and ev.runtime == runtime.INT8_CHECKED
    assert runtime.accuracy_verdict(runtime.INT8_CHECKED, "c" * 64) is True


def test_static_int8_is_not_taken_or_checked_where_it_is_slower(monkeypatch):
    """A processor without fast integer kernels: int8 measures slower, and the float runtime stays."""
    game = get_game("connect4")
    net = trained_looking_net(game, 6)
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {"torch-fp32": 1.0, "ort-fp32": 2.0, runtime.INT8_CHECKED: 1.5})
    monkeypatch.setattr(runtime, "accurate_enough", lambda *a, **k: pytest.fail("checked"))
    good = onnxnet.session(onnxnet.export_bytes(net))
    chosen, _ = runtime.choose(net, net.cfg.to_dict(), 8, "play", runtime.candidates_for("play"), game=game,
                               digest="d" * 64, int8_sess=good)
    assert chosen == "ort-fp32"


def test_a_quantization_failure_leaves_the_float_runtimes(monkeypatch, capsys):
    game = get_game("connect4")
    net = trained_looking_net(game, 7)

    def broken():
        raise RuntimeError("calibration broke")
    chosen, _ = runtime.choose(net, net.cfg.to_dict(), 8, "play", runtime.candidates_for("play"), game=game,
                               digest="e" * 64, int8_sess=broken)
    assert chosen in ("torch-fp32", "ort-fp32", runtime.WINOGRAD)    # the float32 runtimes, whichever is faster here
    assert "calibration broke" in capsys.readouterr().err


def test_a_remembered_int8_choice_plays_from_the_cached_copy_without_loading_the_checkpoint(checkpoint,
                                                                                             monkeypatch):
    game, path = checkpoint
    monkeypatch.setattr(runtime, "matched_runtimes", lambda game: {runtime.INT8_CHECKED})
    monkeypatch.setattr(runtime, "ACCURACY_POSITIONS", 100)
    monkeypatch.setattr(runtime, "accuracy", lambda *a, **k: {"mean_value_diff": 0.001, "max_value_diff": 0.01,
                                                              "same_top_move": 1.0})
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {"torch-fp32": 1.0, "ort-fp32": 2.0, runtime.INT8_CHECKED: 6.0})
    ev, meta = runtime.load_model_evaluator(path, game)
    assert ev.runtime == runtime.INT8_CHECKED and meta["generation"] == 3
    assert path.with_suffix(".int8.onnx").is_file()
    from engine.core import checkpoint as ckpt
    monkeypatch.setattr(ckpt, "load_network", lambda *a, **k: pytest.fail("checkpoint loaded"))
    again, _ = runtime.load_model_evaluator(path, game)
    assert again.runtime == runtime.INT8_CHECKED
    choices = json.loads(runtime._choice_path().read_text())
    assert [c["runtime"] for k, c in choices.items() if "runtime" in c] == [runtime.INT8_CHECKED]


def test_models_with_their_int8_copy_beside_them_are_timed_in_onnx_runtime_without_torch(checkpoint, monkeypatch):
    """The shipped models (their float and int8 exports beside them, nothing timed yet on this
    machine): ONNX Runtime's runtimes are timed and the checked int8 form checked without loading
    the checkpoint, on the network's own positions, and the choice is remembered."""
    game, path = checkpoint
    from engine.core import winograd
    monkeypatch.setattr(winograd, "load", lambda: None)   # ONNX Runtime's alone (tests/test_winograd.py: with it)
    monkeypatch.setattr(runtime, "matched_runtimes", lambda game: {runtime.INT8_CHECKED})
    runtime.load_named_evaluator(path, game, runtime.INT8_STATIC)   # both exports beside the checkpoint
    assert path.with_suffix(".onnx").is_file() and path.with_suffix(".int8.onnx").is_file()
    from engine.core import checkpoint as ckpt
    monkeypatch.setattr(ckpt, "load_network", lambda *a, **k: pytest.fail("checkpoint loaded"))
    monkeypatch.setattr(runtime, "ACCURACY_POSITIONS", 100)
    timed = []

    def fake_timing(evs, planes, *a, batch=None, **k):
        timed.append((sorted(evs), len(planes), batch))
        return {"ort-fp32": 2.0, runtime.INT8_CHECKED: 3.0}
    monkeypatch.setattr(runtime, "time_runtimes", fake_timing)
    ev, _ = runtime.load_model_evaluator(path, game)
    assert timed == [(["ort-fp32", runtime.INT8_CHECKED], runtime.TIMING_POSITIONS, 8)]
    verdict = runtime.accuracy_verdict(runtime.INT8_CHECKED, onnxnet.file_sha256(path))
    assert ev.runtime == (runtime.INT8_CHECKED if verdict else "ort-fp32")
    again, _ = runtime.load_model_evaluator(path, game)
    assert again.runtime == ev.runtime and len(timed) == 1


@pytest.mark.parametrize("report,offered", [(None, False), ({"runtime_matches": {}}, False),
                                            ({"runtime_matches": {"ort-int8-checked": {"passed": False}}}, False),
                                            ({"runtime_matches": {"ort-int8-checked": {"passed": "yes"}}}, False),
                                            ({"runtime_matches": {"ort-int8-checked": {"passed": True}}}, True)])
def test_the_checked_int8_form_is_offered_only_for_games_whose_equal_visits_match_passed(checkpoint, monkeypatch,
                                                                                         tmp_path, report, offered):
    game, path = checkpoint
    shipped = tmp_path / "shipped"
    shipped.mkdir()
    if report is not None:
        (shipped / f"{game.key}.json").write_text(json.dumps(report))
    from engine.core import paths
    monkeypatch.setattr(paths, "models_dir", lambda: shipped)
    assert (runtime.INT8_CHECKED in runtime.matched_runtimes(game)) is offered
    seen = []

    def fake_timing(evs, planes, *a, **k):
        seen.append(sorted(evs))
        return {name: {runtime.INT8_CHECKED: 9.0, "ort-fp32": 2.0}.get(name, 1.0) for name in evs}
    monkeypatch.setattr(runtime, "time_runtimes", fake_timing)
    monkeypatch.setattr(runtime, "accurate_enough", lambda *a, **k: True)
    ev, _ = runtime.load_model_evaluator(path, game)
    assert (runtime.INT8_CHECKED in seen[0]) is offered
    assert ev.runtime == (runtime.INT8_CHECKED if offered else "ort-fp32")


def test_the_checked_int8_form_takes_float32s_outputs_exactly_where_int8s_first_two_are_near():
    game = get_game("othello")
    net = trained_looking_net(game, 8)
    model = onnxnet.export_bytes(net)
    float_sess = onnxnet.session(model)
    int8_sess = onnxnet.session(int8.quantize_for(model, game))
    plain, exact = onnxnet.OrtEvaluator(int8_sess), onnxnet.OrtEvaluator(float_sess)
    planes = np.stack([exact.encode(s) for s in runtime.policy_game_positions(game, exact, 64, seed=5)])
    q_logits, q_values = plain.infer(planes)
    f_logits, f_values = exact.infer(planes)
    top2 = np.sort(q_logits, axis=1)[:, -2:]
    gaps = top2[:, 1] - top2[:, 0]
    middle = float(np.median(gaps))
    assert 0 < int((gaps < middle).sum()) < len(planes)   # a margin that splits the batch
    for margin in (0.0, middle, np.inf):
        checked = onnxnet.CheckedInt8Evaluator(int8_sess, float_sess, margin)
        logits, values = checked.infer(planes)
        near = gaps < margin
        assert checked.looked_again == int(near.sum()) and checked.looked == len(planes)
        np.testing.assert_array_equal(logits[near], f_logits[near])
        np.testing.assert_array_equal(values[near], f_values[near])
        np.testing.assert_array_equal(logits[~near], q_logits[~near])
        np.testing.assert_array_equal(values[~near], q_values[~near])


def test_an_arena_model_spec_can_name_the_runtime(checkpoint):
    from engine.commands.specs import SpecError, player_from_spec
    game, path = checkpoint
    p8 = player_from_spec(game, f"model:{path}@8?rt=int8", seed=1)
    p8c = player_from_spec(game, f"model:{path}@8?rt=int8-checked", seed=1)
    assert p8c.mcts.evaluator.runtime == runtime.INT8_CHECKED
    p32 = player_from_spec(game, f"model:{path}@8?rt=fp32", seed=1)
    assert p8.mcts.evaluator.runtime == "ort-int8-static" and p8.name.endswith(" int8")
    assert p32.mcts.evaluator.runtime == "ort-fp32"
    assert path.with_suffix(".int8.onnx").is_file()
    with pytest.raises(SpecError, match="rt must be given once"):
        player_from_spec(game, f"model:{path}@8?rt=int4", seed=1)


def test_the_packaged_apps_models_folder_gets_no_quantized_copy(checkpoint, monkeypatch):
    game, path = checkpoint
    from engine.core import paths
    from engine.core.checkpoint import load_network
    monkeypatch.setattr(paths, "models_dir", lambda: path.parent)
    monkeypatch.setattr(paths, "is_frozen", lambda: True)
    net, meta = load_network(path, game)
    digest = onnxnet.file_sha256(path)
    int8.load_or_build(path, game, lambda: onnxnet.export_bytes(net, digest, meta), digest)
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    assert [p.name for p in onnxnet.cache_dir().glob("*.int8.onnx")] == [f"{digest[:32]}.int8.onnx"]
    assert int8.load_cached(path, game) is not None


@pytest.mark.parametrize("int8_rate,expected", [(6.0, runtime.INT8_STATIC), (0.5, "ort-fp32")])
def test_selfplay_precision_int8_takes_static_int8_where_it_is_faster_here(checkpoint, monkeypatch, int8_rate,
                                                                            expected):
    from engine.core.config import SelfPlaySettings
    from engine.training.workers import selfplay_evaluator
    game, path = checkpoint
    monkeypatch.setattr(runtime, "accuracy", lambda *a, **k: pytest.fail("the settings waive the accuracy check"))
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {"torch-fp32": 1.0, "ort-fp32": 2.0, runtime.INT8_STATIC: int8_rate})
    ev, meta = selfplay_evaluator(path, game, SelfPlaySettings(precision="int8", parallel_games=4))
    assert ev.runtime == expected and meta["generation"] == 3
    # a run's many checkpoints get no exports or quantized copies beside them
    assert sorted(p.name for p in path.parent.iterdir()) == [path.name]
    state = game.initial_state()
    priors, values = ev.evaluate([state], [state.legal_actions()])
    assert priors[0].shape == (len(state.legal_actions()),) and -1.0 <= values[0] <= 1.0


def test_selfplay_int8_that_cannot_be_built_runs_in_float32_with_a_note(checkpoint, monkeypatch, capsys):
    game, path = checkpoint

    def broken(*a, **k):
        raise RuntimeError("calibration broke")
    monkeypatch.setattr(int8, "quantize_for", broken)
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {name: {"torch-fp32": 1.0, "ort-fp32": 2.0, runtime.WINOGRAD: 1.5}.get(name, 9.0) for name in evs})
    ev, _ = runtime.load_model_evaluator(path, game, purpose="selfplay", batch=8, precision="int8",
                                         keep_export=False)
    assert ev.runtime == "ort-fp32"
    assert "calibration broke" in capsys.readouterr().err


def test_selfplay_precision_must_be_a_known_format(tmp_path):
    from engine.core.config import load_config
    game = get_game("connect4")
    bad = tmp_path / "bad.toml"
    bad.write_text('[selfplay]\nprecision = "int4"\n', encoding="utf-8")
    with pytest.raises(ValueError, match="int8"):
        load_config(game, bad)
    good = tmp_path / "good.toml"
    good.write_text('[selfplay]\nprecision = "int8"\n', encoding="utf-8")
    assert load_config(game, good).selfplay.precision == "int8"
