"""The Winograd runtime ("wino-fp32", engine/core/winograd.py over engine/core/csrc/winograd.c): the
same outputs as torch's module (rounding aside) for every kind of network the project builds
and every shipped model, arguments the compiled module refuses, the networks it does not serve,
threads, and its place among the runtimes the app chooses from."""
from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest
import torch

from engine.core import runtime, winograd
from engine.core.checkpoint import load_network
from engine.core.network import NetConfig, PolicyValueNet
from conftest import trained_looking
from games import get_game

ROOT = Path(__file__).resolve().parent.parent

pytestmark = pytest.mark.skipif(not winograd.available(), reason="the compiled Winograd module is not built here")


@pytest.fixture(autouse=True)
def own_home(tmp_path, monkeypatch):
    monkeypatch.setenv("ZEROBOARD_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("ZEROBOARD_RUNTIME", raising=False)


def random_net(cfg: NetConfig, seed: int) -> PolicyValueNet:
    """A network whose every layer matters: random batch-norm statistics and linear weights."""
    torch.manual_seed(seed)
    return trained_looking(PolicyValueNet(cfg), seed, linear_std=0.2)


def planes(cfg, batch: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return (rng.random((batch, cfg.in_planes, cfg.height, cfg.width)) < 0.3).astype(np.float32)


def assert_same(net, x, tol: float = 2e-4):
    with torch.no_grad():
        ref_logits, ref_values = net(torch.from_numpy(x))
    logits, values = winograd.WinogradNet.from_net(net).infer(x)
    ref_logits, ref_values = ref_logits.numpy(), ref_values.numpy()
    assert logits.shape == ref_logits.shape and values.shape == ref_values.shape
    assert logits.dtype == np.float32 and values.dtype == np.float32
    scale = max(1.0, float(np.abs(ref_logits).max()))
    assert np.abs(logits - ref_logits).max() <= tol * scale
    assert np.abs(values - ref_values).max() <= tol
    # the first choice is the same wherever the reference's top two are not a rounding apart
    if ref_logits.shape[1] < 2:
        return
    top2 = np.sort(ref_logits, axis=1)[:, -2:]
    clear = top2[:, 1] - top2[:, 0] > 10 * tol * scale
    assert (logits.argmax(1) == ref_logits.argmax(1))[clear].all()


# boards from 1x1 to 19x19, tiles that fit and tiles that overhang; every head the project builds
SHAPES = [
    # (height, width, in_planes, channels, blocks, policy_planes, action_size, wdl)
    (15, 15, 8, 48, 2, 1, 225, False),        # gomoku's kind: spatial policy
    (8, 8, 5, 32, 1, 1, 65, False),           # othello's: spatial policy and a pass from the pooled features
    (10, 9, 20, 32, 2, None, 2086, False),    # xiangqi's: a linear policy over two planes
    (6, 7, 3, 16, 3, None, 7, True),          # Connect Four's kind with a win/draw/loss value
    (1, 4, 3, 16, 1, None, 4, False),         # connect2: a one-row board
    (3, 3, 3, 8, 1, None, 9, False),
    (1, 1, 1, 8, 1, None, 1, False),
    (19, 19, 17, 24, 1, 1, 361, True),
    (5, 13, 9, 40, 1, 2, 130, False),         # two policy planes
]


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}-c{s[3]}")
def test_the_outputs_are_the_modules_for_every_kind_of_network(shape):
    h, w, p, c, blocks, pp, actions, wdl = shape
    cfg = NetConfig(p, h, w, actions, pp, blocks, c, 32, wdl=wdl)
    net = random_net(cfg, seed=h * 100 + w)
    for batch in (1, 3, 8, 17):
        assert_same(net, planes(cfg, batch, seed=batch))


def test_each_board_takes_the_tiles_that_need_fewer_transformed_elements():
    c = winograd.load()
    # gomoku 9 tiles of 49 elements against 16 of 36, xiangqi 4 of 49 against 9 of 36; othello and
    # Connect Four 4 of 36 against 4 of 49; a tie (1x4: one tile either way, 36 against 49) takes 4
    assert [c.tile(h, w) for h, w in ((15, 15), (10, 9), (19, 19), (5, 13), (8, 8), (6, 7), (1, 4), (3, 3))] == \
        [5, 5, 5, 5, 4, 4, 4, 4]
    for h, w in ((15, 15), (8, 8)):
        cfg = NetConfig(8, h, w, h * w, 1, 1, 16, 32)
        net = winograd.WinogradNet.from_net(random_net(cfg, 3))
        m = c.tile(h, w)
        assert net.tile == m and net.weights[1][0].shape == ((m + 2) ** 2, 16, 16)
        assert net.padded_shape == (m * -(-h // m) + 2, m * -(-w // m) + 2)


def test_both_tile_sizes_compute_the_convolution_exactly_in_float64_transforms():
    """G, B^T and A^T of both tile sizes give the direct correlation (the C transforms' coefficients
    are tools/winograd_matrices.py's, which this checks through the G the module uses)."""
    from tools.winograd_matrices import matrices
    rng = np.random.default_rng(0)
    for m in (4, 5):
        at, g, bt = (np.array(a, dtype=np.float64) for a in matrices(m))
        assert np.allclose(g, winograd.G[m], rtol=0, atol=1e-15)
        for _ in range(20):
            d, w = rng.standard_normal(m + 2), rng.standard_normal(3)
            direct = np.array([d[i:i + 3] @ w for i in range(m)])
            assert np.allclose(at @ ((g @ w) * (bt @ d)), direct, rtol=0, atol=1e-12)


def test_batches_that_shrink_and_grow_give_what_fresh_arrays_give():
    cfg = NetConfig(8, 15, 15, 225, 1, 1, 16, 32)
    net = random_net(cfg, 9)
    used, fresh = winograd.WinogradNet.from_net(net), winograd.WinogradNet.from_net(net)
    for batch in (17, 3, 1, 9, 20, 2):
        x = planes(cfg, batch, seed=batch)
        for a, b in zip(used.infer(x), fresh.infer(x)):
            assert np.array_equal(a, b)
        fresh = winograd.WinogradNet.from_net(net)
    assert used._local.buffers["a"].shape[0] == 20    # arrays for the largest batch only


def test_an_empty_batch_gives_empty_outputs():
    cfg = NetConfig(3, 6, 7, 7, None, 1, 16, 32)
    logits, values = winograd.WinogradNet.from_net(random_net(cfg, 1)).infer(planes(cfg, 0, 0))
    assert logits.shape == (0, 7) and values.shape == (0,)


@pytest.mark.parametrize("gid", ["tictactoe", "connect4", "othello", "gomoku", "xiangqi"])
def test_every_shipped_network_gives_its_outputs_and_first_choices(gid):
    game = get_game(gid)
    path = ROOT / "models" / f"{game.key}.pt"
    net, _ = load_network(path, game)
    states, s = [], game.initial_state()
    rng = np.random.default_rng(7)
    while len(states) < 40:
        states.append(s)
        legal = s.legal_actions()
        s = s.apply(legal[int(rng.integers(len(legal)))])
        if s.is_terminal():
            s = game.initial_state()
    x = np.stack([st.encode() for st in states])[:, :net.cfg.in_planes]
    assert_same(net, x)


def test_the_same_network_serves_several_threads_at_once():
    cfg = NetConfig(8, 15, 15, 225, 1, 2, 24, 32)
    wn = winograd.WinogradNet.from_net(random_net(cfg, 3))
    inputs = [planes(cfg, b, seed=b) for b in (1, 4, 8, 8, 5, 2)]
    expected = [wn.infer(x) for x in inputs]
    got, errors = [None] * len(inputs), []

    def run(i):
        try:
            for _ in range(20):
                got[i] = wn.infer(inputs[i])
        except Exception as e:   # pragma: no cover - reported below
            errors.append(e)
    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(inputs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for (el, ev), (gl, gv) in zip(expected, got):
        assert np.array_equal(el, gl) and np.array_equal(ev, gv)


def test_networks_it_does_not_compute_are_refused_and_left_to_the_other_runtimes():
    game = get_game("connect4")
    pooled = random_net(NetConfig.for_game(game, blocks=2, channels=16, global_pool=1), 1)
    with pytest.raises(winograd.Unsupported, match="global pooling"):
        winograd.WinogradNet.from_net(pooled)
    odd = random_net(NetConfig.for_game(game, blocks=1, channels=12), 1)
    with pytest.raises(winograd.Unsupported, match="multiple of 8"):
        winograd.WinogradNet.from_net(odd)
    assert not winograd.supports(pooled.cfg) and not winograd.supports(odd.cfg.to_dict())
    assert winograd.supports(NetConfig.for_game(game, blocks=1, channels=16).to_dict())
    for bad in ({}, {"channels": "16"}, {"channels": 16, "global_pool": 2}, {"channels": -8}):
        assert not winograd.supports(bad)
    assert runtime.WINOGRAD not in runtime.servable(runtime.candidates_for("play"), pooled.cfg.to_dict())


def test_the_compiled_module_refuses_bad_arguments_with_an_error():
    c = winograd.load()
    m = c.tile(5, 5)
    hp = wp = m * -(-5 // m) + 2    # a 5x5 board
    act = [np.zeros((1, hp, wp, 8), np.float32) for _ in range(4)]
    scratch = [np.zeros(c.ELEMENTS * (c.TILES * 8 + c.PAD), np.float32) for _ in range(2)]
    layer = (np.zeros(((m + 2) ** 2, 8, 8), np.float32), np.zeros(8, np.float32))

    def tower(*args, layers=None, inp=None, a=None, b=None, t=None):
        return c.tower(*args, act[0] if inp is None else inp, [layer] * 3 if layers is None else layers,
                       act[1] if a is None else a, act[2] if b is None else b, act[3] if t is None else t, *scratch)
    assert tower(1, 5, 5, 8, 8) == 1
    assert tower(1, 5, 5, 8, 8, layers=[layer]) == 0
    with pytest.raises(ValueError, match="multiples of 8"):
        tower(1, 5, 5, 6, 8)
    with pytest.raises(ValueError, match="fewer than"):
        tower(2, 5, 5, 8, 8)
    with pytest.raises(TypeError, match="float32"):
        tower(1, 5, 5, 8, 8, inp=act[0].astype(np.float64))
    with pytest.raises((TypeError, BufferError, ValueError)):
        tower(1, 5, 5, 8, 8, a=np.zeros((1, hp, 2 * wp, 8), np.float32)[:, :, ::2])
    ro = act[1].copy()
    ro.flags.writeable = False
    with pytest.raises((TypeError, BufferError, ValueError)):
        tower(1, 5, 5, 8, 8, b=ro)
    with pytest.raises(ValueError):
        tower(1, 0, 5, 8, 8)
    with pytest.raises(ValueError, match="1 \\+ 2 \\* blocks"):
        tower(1, 5, 5, 8, 8, layers=[layer] * 2)
    with pytest.raises(TypeError, match="tuple"):
        tower(1, 5, 5, 8, 8, layers=[layer, list(layer), layer])
    with pytest.raises(TypeError):
        tower(1, 5, 5, 8, 8, layers=(layer,))
    with pytest.raises(ValueError, match="overlap"):
        tower(1, 5, 5, 8, 8, b=act[1])
    with pytest.raises(ValueError, match="overlap"):
        tower(1, 5, 5, 8, 8, inp=act[3])
    with pytest.raises(ValueError, match="fewer than"):
        tower(1, 5, 5, 8, 8, layers=[(layer[0][:10], layer[1])] * 3)
    with pytest.raises(ValueError, match="fewer than"):    # a 4x4 tile's weights for a board that takes 5x5 tiles
        tower(1, 5, 5, 8, 8, layers=[(layer[0][:36], layer[1])] * 3)
    for bad in ((0, 5), (5, 65), (-1, -1)):
        with pytest.raises(ValueError, match="1-64"):
            c.tile(*bad)
    with pytest.raises(ValueError, match="fewer than"):
        c.dense(4, 8, 8, np.zeros(31, np.float32), np.zeros(64, np.float32), np.zeros(8, np.float32), False,
                np.zeros(32, np.float32))
    with pytest.raises(ValueError):
        c.dense(4, 0, 8, np.zeros(32, np.float32), np.zeros(64, np.float32), np.zeros(8, np.float32), False,
                np.zeros(32, np.float32))
    x = np.zeros(32, np.float32)
    with pytest.raises(ValueError, match="overlap"):
        c.dense(4, 8, 8, x, np.zeros(64, np.float32), np.zeros(8, np.float32), False, x)


def test_the_dense_kernel_is_a_matrix_product_for_every_size():
    c = winograd.load()
    rng = np.random.default_rng(3)
    for n, k_in, k_out in ((1, 1, 1), (3, 5, 7), (4, 48, 24), (9, 180, 2086), (17, 64, 1), (8, 225, 64), (5, 33, 19)):
        x = rng.standard_normal((n, k_in)).astype(np.float32)
        w = rng.standard_normal((k_in, k_out)).astype(np.float32)
        b = rng.standard_normal(k_out).astype(np.float32)
        for relu in (False, True):
            out = np.empty((n, k_out), np.float32)
            c.dense(n, k_in, k_out, x, w, b, relu, out)
            ref = x.astype(np.float64) @ w + b
            if relu:
                ref = np.maximum(ref, 0)
            assert np.abs(out - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max())


def test_the_dense_kernel_reads_rows_where_they_lie():
    """With row offsets, row n is the C floats from in[rows[n]] on: the same product as on the rows
    copied out, for widths through each of the kernel's paths (24, 16 and 8 columns, and the last
    columns as dot products or one at a time)."""
    c = winograd.load()
    rng = np.random.default_rng(5)
    for n, k_in, k_out in ((1, 8, 1), (7, 48, 25), (9, 48, 1), (13, 24, 7), (6, 5, 3), (5, 64, 41)):
        buf = rng.standard_normal(4096).astype(np.float32)
        rows = rng.choice(4096 - k_in, n, replace=False).astype(np.int32)
        w = rng.standard_normal((k_in, k_out)).astype(np.float32)
        b = rng.standard_normal(k_out).astype(np.float32)
        out = np.empty((n, k_out), np.float32)
        c.dense(n, k_in, k_out, buf, w, b, True, out, rows)
        ref = np.maximum(np.stack([buf[r:r + k_in] for r in rows]).astype(np.float64) @ w + b, 0)
        assert np.abs(out - ref).max() <= 1e-4 * max(1.0, np.abs(ref).max())
    out = np.empty((2, 1), np.float32)
    with pytest.raises(ValueError, match="fewer than"):   # a row that runs past the buffer's end
        c.dense(2, 8, 1, np.zeros(16, np.float32), np.zeros(8, np.float32), np.zeros(1, np.float32), False, out,
                np.array([0, 9], np.int32))
    for bad in (np.array([0, -1], np.int32), np.array([0, 1], np.int64), np.array([0], np.int32)):
        with pytest.raises(ValueError, match="rows|negative"):
            c.dense(2, 8, 1, np.zeros(16, np.float32), np.zeros(8, np.float32), np.zeros(1, np.float32), False, out,
                    bad)


def test_it_is_a_float32_runtime_the_app_chooses_among_by_speed(tmp_path):
    assert runtime.WINOGRAD in runtime.RUNTIMES
    assert runtime.WINOGRAD not in runtime.INEXACT
    assert runtime.WINOGRAD in runtime.candidates_for("play")
    assert runtime.WINOGRAD in runtime.candidates_for("selfplay", "auto")
    assert runtime.WINOGRAD in runtime.SELFPLAY_INT8_CANDIDATES
    game = get_game("connect4")
    net = random_net(NetConfig.for_game(game, blocks=1, channels=16), 5)
    chosen, evaluator = runtime.choose(net, net.cfg.to_dict(), 8, "play", ("torch-fp32", "ort-fp32", runtime.WINOGRAD))
    rates = runtime.remembered_rates(runtime.choice_key(net.cfg.to_dict(), 8, "play",
                                                        ("torch-fp32", "ort-fp32", runtime.WINOGRAD)))
    assert rates[runtime.WINOGRAD] > 0 and chosen == max(rates, key=rates.get)
    assert evaluator.runtime == chosen
    ev = runtime.build_evaluator(runtime.WINOGRAD, net)
    state = game.initial_state()
    priors, values = ev.evaluate([state], [state.legal_actions()])
    with torch.no_grad():
        ref_logits, ref_value = net(torch.from_numpy(state.encode()[None]))
    assert abs(float(values[0]) - float(ref_value[0])) < 1e-4
    assert len(priors[0]) == len(state.legal_actions()) and abs(float(np.sum(priors[0])) - 1) < 1e-5


def test_without_the_compiled_module_the_other_runtimes_serve(monkeypatch):
    monkeypatch.setattr(winograd, "load", lambda: None)
    game = get_game("connect4")
    net = random_net(NetConfig.for_game(game, blocks=1, channels=16), 5)
    assert not winograd.available()
    assert runtime.servable(runtime.candidates_for("play"), net.cfg) == ("torch-fp32", "ort-fp32", runtime.INT8_CHECKED)
    chosen, _ = runtime.choose(net, net.cfg.to_dict(), 8, "play", ("torch-fp32", "ort-fp32", runtime.WINOGRAD))
    assert chosen in ("torch-fp32", "ort-fp32")
    with pytest.raises(winograd.Unsupported):
        runtime.build_evaluator(runtime.WINOGRAD, net)


def test_a_model_spec_can_name_it(tmp_path):
    from engine.commands.specs import SpecError, close_player, player_from_spec
    game = get_game("tictactoe")
    player = player_from_spec(game, f"model:{ROOT / 'models' / 'tictactoe.pt'}@20?rt=wino", seed=1)
    try:
        state = game.initial_state()
        assert player.choose(state).action in state.legal_actions()
    finally:
        close_player(player)
    with pytest.raises(SpecError, match="wino"):
        player_from_spec(game, f"model:{ROOT / 'models' / 'tictactoe.pt'}@20?rt=winograd")


@pytest.fixture
def checkpoint(tmp_path):
    from engine.core.checkpoint import save_checkpoint
    game = get_game("connect4")
    path = tmp_path / "models" / "c4.pt"
    save_checkpoint(path, random_net(NetConfig.for_game(game, blocks=1, channels=16), 2), game, generation=3)
    return game, path


def test_the_arrays_are_cached_and_read_back_without_torch_and_damage_is_passed_over(checkpoint, capsys):
    from engine.core.onnxnet import file_sha256
    game, path = checkpoint
    digest = file_sha256(path)
    net, _ = load_network(path, game)
    built = winograd.load_or_build(path, digest, net)
    assert path.with_suffix(".wino.npz").is_file()
    again = winograd.load_cached(path, digest)
    x = planes(net.cfg, 5, seed=1)
    for a, b in zip(built.infer(x), again.infer(x)):
        assert np.array_equal(a, b)
    assert winograd.load_cached(path, "0" * 64) is None            # another checkpoint's arrays: not used
    data = bytearray(path.with_suffix(".wino.npz").read_bytes())
    path.with_suffix(".wino.npz").write_bytes(bytes(data[: len(data) // 2]))
    assert winograd.load_cached(path, digest) is None
    assert "cannot be read" in capsys.readouterr().err
    # a file of the right name with arrays of the wrong shapes is refused too
    arrays = dict(built.arrays)
    arrays["w1"] = arrays["w1"][:, :8]
    bad = winograd.WinogradNet.__new__(winograd.WinogradNet)
    bad.shape, bad.arrays = built.shape, arrays
    winograd.save(path, digest, bad)
    assert winograd.load_cached(path, digest) is None
    # a pickled object inside is never loaded (numpy refuses it without allow_pickle)
    import io
    buf = io.BytesIO()
    np.savez(buf, meta=np.array([{"x": 1}], dtype=object))
    path.with_suffix(".wino.npz").write_bytes(buf.getvalue())
    assert winograd.load_cached(path, digest) is None


def test_a_cached_export_and_arrays_are_timed_without_loading_the_checkpoint(checkpoint, monkeypatch):
    """The packaged app's case: the shipped model's export and Winograd arrays beside it, nothing
    timed yet on this machine: ONNX Runtime and the Winograd runtime are timed without torch
    loading the checkpoint, the faster taken and remembered."""
    from engine.core import checkpoint as ckpt
    from engine.core.onnxnet import file_sha256
    game, path = checkpoint
    monkeypatch.setattr(runtime, "matched_runtimes", lambda game: set())
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    runtime.load_model_evaluator(path, game)                   # the export beside the checkpoint
    monkeypatch.delenv("ZEROBOARD_RUNTIME")
    net, _ = load_network(path, game)
    winograd.save(path, file_sha256(path), winograd.WinogradNet.from_net(net))
    runtime._choice_path().unlink(missing_ok=True)
    monkeypatch.setattr(ckpt, "load_network", lambda *a, **k: pytest.fail("checkpoint loaded"))
    timed = []

    def fake_timing(evs, planes, *a, **k):
        timed.append(sorted(evs))
        return {"ort-fp32": 2.0, runtime.WINOGRAD: 3.0}
    monkeypatch.setattr(runtime, "time_runtimes", fake_timing)
    ev, _ = runtime.load_model_evaluator(path, game)
    assert timed == [["ort-fp32", runtime.WINOGRAD]] and ev.runtime == runtime.WINOGRAD
    again, _ = runtime.load_model_evaluator(path, game)
    assert again.runtime == runtime.WINOGRAD and len(timed) == 1
    # where ONNX Runtime was the faster, later starts do not read the arrays at all
    runtime._choice_path().unlink()
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k: {"ort-fp32": 3.0, runtime.WINOGRAD: 2.0})
    assert runtime.load_model_evaluator(path, game)[0].runtime == "ort-fp32"
    monkeypatch.setattr(winograd, "load_cached", lambda *a, **k: pytest.fail("arrays read"))
    assert runtime.load_model_evaluator(path, game)[0].runtime == "ort-fp32"


def test_without_cached_arrays_the_first_load_times_it_from_the_checkpoint_and_caches_them(checkpoint, monkeypatch):
    game, path = checkpoint
    monkeypatch.setattr(runtime, "matched_runtimes", lambda game: set())
    monkeypatch.setattr(runtime, "time_runtimes", lambda evs, planes, *a, **k:
                        {n: {"ort-fp32": 2.0, runtime.WINOGRAD: 3.0}.get(n, 1.0) for n in evs})
    ev, _ = runtime.load_model_evaluator(path, game)
    assert ev.runtime == runtime.WINOGRAD and path.with_suffix(".wino.npz").is_file()
    from engine.core import checkpoint as ckpt
    monkeypatch.setattr(ckpt, "load_network", lambda *a, **k: pytest.fail("checkpoint loaded"))
    again, _ = runtime.load_model_evaluator(path, game)       # remembered, from the export and the arrays
    assert again.runtime == runtime.WINOGRAD
    state = game.initial_state()
    assert np.allclose(ev.evaluate([state], [state.legal_actions()])[1],
                       again.evaluate([state], [state.legal_actions()])[1], atol=1e-6)


def test_forcing_onnx_runtime_leaves_it_out(checkpoint, monkeypatch):
    game, path = checkpoint
    monkeypatch.setenv("ZEROBOARD_RUNTIME", "ort")
    ev, _ = runtime.load_model_evaluator(path, game)
    assert ev.runtime == "ort-fp32"


@pytest.mark.parametrize("shape", [s for s in SHAPES if s[5] is not None], ids=lambda s: f"{s[0]}x{s[1]}-pp{s[5]}")
def test_the_network_in_one_call_is_the_heads_from_python(shape):
    """`forward` (the planes copied in, the tower and the spatial heads in one compiled call) gives
    the logits of the heads run from Python bit for bit, and their values within tanh's rounding;
    an empty batch gives empty outputs; bad arguments are errors."""
    h, w, p, c, blocks, pp, actions, wdl = shape
    cfg = NetConfig(p, h, w, actions, pp, blocks, c, 32, wdl=wdl)
    wnet = winograd.WinogradNet.from_net(random_net(cfg, seed=h * 10 + w))
    if wdl:   # a win/draw/loss value: the heads stay in Python
        assert wnet._heads is None
        return
    for batch in (0, 1, 5, 8):
        x = planes(cfg, batch, seed=batch + 3)
        logits, values = wnet.infer(x)
        ref_logits, ref_values = wnet._infer_python_heads(x)
        assert logits.shape == ref_logits.shape and values.shape == ref_values.shape
        assert logits.tobytes() == ref_logits.tobytes()
        assert np.abs(values - ref_values).max(initial=0.0) <= 1e-6
    c_mod, buf = wnet._c, wnet._buffers(2)
    x = planes(cfg, 2, seed=1)
    out = (np.empty((2, logits.shape[1]), np.float32), np.empty(2, np.float32))

    def call(heads=wnet._heads, scratch=buf["heads"], xs=x, logits_out=out[0], b=2):
        c_mod.forward(b, h, w, p, wnet.in_padded, c, xs, buf["in"], wnet.weights, buf["a"], buf["b"], buf["t"],
                      buf["vb"], buf["mb"], heads, scratch, logits_out, out[1])
    call()
    assert out[0].tobytes() == wnet._infer_python_heads(x)[0].tobytes()
    with pytest.raises(TypeError):
        call(heads=wnet._heads[:13])
    with pytest.raises(ValueError, match="fewer than"):
        call(scratch=buf["heads"][:5])
    with pytest.raises(ValueError, match="fewer than"):
        call(xs=x[:1])
    with pytest.raises(ValueError, match="overlap"):
        call(logits_out=buf["heads"][:out[0].size].reshape(out[0].shape))
    with pytest.raises(ValueError, match="range"):
        call(heads=(0,) + wnet._heads[1:])
