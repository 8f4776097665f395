"""Which runtime evaluates the network, chosen by measurement, and the one factory that builds it.

Runtimes: ``torch-fp32`` (the torch inference copy), ``torch-bf16`` (the same in bfloat16),
``ort-fp32`` (ONNX Runtime, `onnxnet`), ``ort-int8`` (ONNX Runtime with dynamically
quantized weights) and ``ort-int8-static`` (ONNX Runtime, int8 weights and activations
calibrated on the network's own positions, `int8`). Which is fastest depends on the CPU
and the batch, so it is timed on this machine once per network shape, batch and purpose,
and remembered in the per-user cache (``runtime_choice.json``): later processes read the choice and, where ONNX Runtime
won and the checkpoint's export is cached, never import torch. The timing needs torch, so it
happens where torch is loaded anyway (a checkpoint's first export, ``bench``, self-play);
play from a cached export with nothing timed yet (the packaged app's shipped models, exported
when it was built) takes ONNX Runtime, which on the development machine is the faster at
play's batch for every shipped network.

What may be chosen: for play and analysis the float32 runtimes (their outputs are equal to
~1e-5, so strength figures hold); for self-play also bfloat16 where ``[selfplay]
precision = "auto"`` (values within 0.003 on average of float32's on connect4); for play,
static int8 where it is faster than the float32 runtimes here and passes the accuracy check
against them (`accurate_enough`) on the checkpoint's own positions, so a processor without
fast integer kernels never takes it. Dynamic int8 is measured by ``bench`` but never chosen
(3-7x slower than float32).

``ZEROBOARD_RUNTIME`` = ``torch`` or ``ort`` forces one (measurements, tests); anything else
or unset means the measured choice.
"""
from __future__ import annotations

import json
import math
import os
import time
from pathlib import Path

import numpy as np

from .evaluators import policy_game_positions
from .logsetup import first_line, note
from .onnxnet import OnnxUnavailable
from .safefile import UnreadableFile

RUNTIMES = ("torch-fp32", "torch-bf16", "ort-fp32", "ort-int8", "ort-int8-static", "ort-int8-checked", "wino-fp32")
#: float32 with the convolutions by Winograd's F(4x4, 3x3) or F(5x5, 3x3) in the compiled module (`winograd`)
WINOGRAD = "wino-fp32"
INT8_STATIC = "ort-int8-static"
#: static int8 with a float32 second look at near ties (`onnxnet.CheckedInt8Evaluator`)
INT8_CHECKED = "ort-int8-checked"
#: the runtimes built from the statically quantized network
STATIC_INT8 = (INT8_STATIC, INT8_CHECKED)
CHOICE_FILE = "runtime_choice.json"
PURPOSES = ("play", "selfplay")


def forced_runtime() -> str | None:
    """``torch`` or ``ort`` when ZEROBOARD_RUNTIME forces one, else None."""
    v = os.environ.get("ZEROBOARD_RUNTIME", "").strip().lower()
    return v if v in ("torch", "ort") else None


def _version(dist: str) -> str:
    try:
        from importlib.metadata import version
        return version(dist)
    except Exception:
        return "?"


def _cpuinfo(field: str) -> str | None:
    """The first ``field`` line's value in /proc/cpuinfo (Linux), or None."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith(field):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return None


def _cpu_name() -> str:
    import platform
    return _cpuinfo("model name") or platform.processor() or platform.machine() or "?"


def cpu_flags() -> frozenset[str]:
    """The processor's feature flags where the system lists them (Linux), else none: which
    vector instructions (AVX2, AVX-512, VNNI, bfloat16) the network runtimes' kernels can use."""
    return frozenset((_cpuinfo("flags") or "").split())


def shape_key(net_cfg: dict) -> str:
    """The network's shape in one word (``2x6x7x7xNonex5x64x64`` for connect4's)."""
    return "x".join(str(net_cfg.get(k)) for k in ("in_planes", "height", "width", "action_size", "policy_planes",
                                                  "blocks", "channels", "value_hidden"))


def choice_key(net_cfg: dict, batch: int, purpose: str, candidates) -> str:
    return (f"{_cpu_name()} | torch {_version('torch')} | onnxruntime {_version('onnxruntime')} | "
            f"{shape_key(net_cfg)} | batch {batch} | {purpose} | {','.join(candidates)}")


def _choice_path() -> Path:
    from .safefile import user_path
    return user_path("runtime choice")


def _choices() -> dict:
    """What runtime_choice.json remembers ({} when nothing). A file that cannot be used (a pipe,
    far too large, not UTF-8, not JSON, nested too deeply, not an object) is set aside with one
    line on stderr and its figures measured again: a damaged cache never costs the model."""
    from .safefile import UnreadableFile, read_json, set_aside
    path = _choice_path()
    try:
        data = read_json(path, "runtime_choice")
        if isinstance(data, dict):
            return data
        problem = "is not a JSON object"
    except UnreadableFile as e:
        if not e.damaged:
            return {}
        problem = str(e)
    backup = set_aside(path)
    note(f"the runtime cache {path} {problem}; " +
         (f"moved aside to {backup.name}" if backup else "it could not be moved aside") + "; measuring again")
    return {}


def remembered_choice(key: str) -> str | None:
    entry = _choices().get(key)
    runtime = entry.get("runtime") if isinstance(entry, dict) else None
    return runtime if isinstance(runtime, str) and runtime in RUNTIMES else None


def remembered_rates(key: str) -> dict | None:
    """The positions per second measured for each runtime under ``key``, or None."""
    entry = _choices().get(key)
    rates = entry.get("positions_per_s") if isinstance(entry, dict) else None
    if not isinstance(rates, dict):
        return None
    try:
        out = {k: float(v) for k, v in rates.items() if k in RUNTIMES}
    except (TypeError, ValueError, OverflowError):
        return None
    return out if all(math.isfinite(v) and v >= 0 for v in out.values()) else None


def remember_choice(key: str, runtime: str, rates: dict) -> None:
    _remember(key, {"runtime": runtime, "positions_per_s": {k: round(v, 1) for k, v in rates.items()}})


def _remember(key: str, entry: dict) -> None:
    from .checkpoint import atomic_write_bytes
    path = _choice_path()
    data = _choices()
    data[key] = {**entry, "measured": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}
    try:
        atomic_write_bytes(path, json.dumps(data, indent=1, sort_keys=True).encode("utf-8"))
    except OSError as e:
        note(f"could not remember the runtime choice in {path}: {e}")


def build_evaluator(runtime: str, net=None, model: bytes | None = None, sess=None, game=None, int8_sess=None,
                    wino=None):
    """An evaluator of ``runtime`` for the torch ``net`` (needed for torch runtimes) or the ONNX
    ``model`` bytes / ``sess`` (ORT runtimes; ``model`` is exported from ``net`` when absent).
    Static int8 takes ``int8_sess`` (a session, or a function that makes one), else quantizes
    ``model`` now, calibrated on positions of ``game``; its checked form (`INT8_CHECKED`) takes
    the float32 ``sess`` (or ``model``) as well. The Winograd runtime takes ``wino`` (a
    `winograd.WinogradNet`, or a function that gives one) where given, else transforms ``net``."""
    if runtime == WINOGRAD:
        from .winograd import Unsupported, WinogradEvaluator
        if wino is not None:
            return WinogradEvaluator(wino() if callable(wino) else wino)
        if net is None:
            raise Unsupported("the Winograd runtime is built from the network's weights")
        return WinogradEvaluator(net)
    from .onnxnet import CheckedInt8Evaluator, OrtEvaluator, export_bytes, quantize_int8, session
    if runtime.startswith("torch"):
        from .evaluators import NetworkEvaluator
        return NetworkEvaluator(net, precision=runtime.removeprefix("torch-"))
    if runtime in STATIC_INT8:
        if int8_sess is None:
            if game is None:
                raise OnnxUnavailable("static int8 needs the game to calibrate on")
            model = model or export_bytes(net)
            int8_sess = _quantized_session(net, model, game)
        quantized = int8_sess() if callable(int8_sess) else int8_sess
        if runtime == INT8_STATIC:
            return OrtEvaluator(quantized, runtime)
        return CheckedInt8Evaluator(quantized, sess if sess is not None else session(model or export_bytes(net)))
    if sess is None or runtime == "ort-int8":
        model = model or export_bytes(net)
        sess = session(quantize_int8(model) if runtime == "ort-int8" else model)
    return OrtEvaluator(sess, runtime)


def positions_per_s(evaluator, planes: np.ndarray, window: float = 0.05, windows: int = 3,
                    batch: int | None = None) -> float:
    """Positions per CPU-second of this process: the best of ``windows`` windows of at least
    ``window`` CPU-seconds, after a warm-up call. CPU time, so that other processes on the
    machine slow no runtime down more than another. With ``batch``, ``planes`` holds several
    batches, called in turn (a runtime whose work depends on the positions, `INT8_CHECKED`,
    is timed on many)."""
    chunks = [planes] if batch is None else [planes[i:i + batch] for i in range(0, len(planes) - batch + 1, batch)]
    evaluator.infer(chunks[0])
    best = 0.0
    k = 0
    for _ in range(windows):
        calls, done, start = 0, 0, time.process_time()
        while True:
            chunk = chunks[k % len(chunks)]
            k += 1
            evaluator.infer(chunk)
            done += len(chunk)
            elapsed = time.process_time() - start
            if elapsed >= window:
                break
        best = max(best, done / elapsed)
    return best


def time_runtimes(evaluators: dict, planes: np.ndarray, window: float = 0.05, rounds: int = 3,
                  batch: int | None = None) -> dict[str, float]:
    """Positions per second of each evaluator on ``planes`` (with ``batch``, several batches
    called in turn): the best of ``rounds`` interleaved windows each, so load on the machine
    falls on all of them alike."""
    rates = {name: 0.0 for name in evaluators}
    for ev in evaluators.values():
        ev.infer(planes if batch is None else planes[:batch])   # warm-up (kernels are built on the first call)
    for _ in range(rounds):
        for name, ev in evaluators.items():
            rates[name] = max(rates[name], positions_per_s(ev, planes, window, windows=1, batch=batch))
    return rates


def sample_planes(net_cfg: dict, batch: int, seed: int = 0) -> np.ndarray:
    """Random 0/1 input planes of the network's shape (timing does not depend on the values,
    except `INT8_CHECKED`'s: `game_planes`)."""
    rng = np.random.default_rng(seed)
    shape = (batch, net_cfg["in_planes"], net_cfg["height"], net_cfg["width"])
    return rng.integers(0, 2, size=shape).astype(np.float32)


#: how many of the network's own positions `INT8_CHECKED` is timed on (at least four batches)
TIMING_POSITIONS = 256


def game_planes(game, reference, batch: int, batches: int | None = None, seed: int = 1) -> np.ndarray:
    """The planes of ``batch * batches`` positions of ``reference``'s own games of ``game``: what
    a runtime whose work depends on the positions (`INT8_CHECKED`, which looks again at near
    ties) is timed on, ``batch`` at a time (``batches``: by default TIMING_POSITIONS' worth)."""
    batches = batches or max(4, TIMING_POSITIONS // max(1, batch))
    positions = policy_game_positions(game, reference, batch * batches, seed=seed)
    return np.stack([reference.encode(s) for s in positions])


def accuracy(reference, other, positions: list, batch: int = 64) -> dict:
    """How far ``other``'s outputs are from ``reference``'s on ``positions``: mean and largest
    value difference, and the share of positions whose top legal move is the same."""
    diffs, same = [], 0
    for i in range(0, len(positions), batch):
        chunk = positions[i:i + batch]
        planes = np.stack([reference.encode(s) for s in chunk])
        ref_logits, ref_values = reference.infer(planes)
        logits, values = other.infer(planes)
        diffs.extend(np.abs(np.asarray(values, np.float64) - np.asarray(ref_values, np.float64)).tolist())
        for s, a, b in zip(chunk, ref_logits, logits):
            legal = s.legal_actions()
            same += int(legal[int(np.argmax(a[legal]))] == legal[int(np.argmax(b[legal]))])
    return {"mean_value_diff": round(float(np.mean(diffs)), 5), "max_value_diff": round(float(np.max(diffs)), 5),
            "same_top_move": round(same / len(positions), 4)}


#: the accuracy a runtime needs to be used in place of float32, on ACCURACY_POSITIONS positions
MAX_MEAN_VALUE_DIFF = 0.01
MIN_SAME_TOP_MOVE = 0.99
ACCURACY_POSITIONS = 2000
#: runtimes whose outputs differ from float32's enough to need that check
INEXACT = ("torch-bf16", "ort-int8", INT8_STATIC, INT8_CHECKED)


def is_accurate(a: dict) -> bool:
    return a["mean_value_diff"] <= MAX_MEAN_VALUE_DIFF and a["same_top_move"] >= MIN_SAME_TOP_MOVE


#: how long an accuracy verdict stands for a network shape: a training run's network changes a
#: little each generation, and checking every checkpoint would cost a self-play job of xiangqi
#: (about 25 CPU-seconds) 3.3 s each time
ACCURACY_RECHECK_S = 3600.0


def _accuracy_keys(runtime: str, digest: str, shape: str = "") -> list[str]:
    keys = [f"accuracy | {_cpu_name()} | {digest} | {runtime}"]
    if shape:
        keys.append(f"accuracy | {_cpu_name()} | {shape} | {runtime}")
    return keys


def accuracy_verdict(runtime: str, digest: str, shape: str = "") -> bool | None:
    """The remembered accuracy verdict on ``runtime`` for the checkpoint ``digest`` on this CPU (or,
    with ``shape``, one for its network shape within ACCURACY_RECHECK_S); None when there is none."""
    keys = _accuracy_keys(runtime, digest, shape)
    data = _choices()
    for k in keys:
        entry = data.get(k)
        if isinstance(entry, dict) and isinstance(entry.get("accurate"), bool):
            try:
                fresh = time.time() - float(entry.get("checked_at", 0)) < ACCURACY_RECHECK_S
            except (TypeError, ValueError, OverflowError):
                fresh = False
            if k == keys[0] or fresh:
                return entry["accurate"]
    return None


def accurate_enough(runtime: str, evaluators: dict, game, digest: str, shape: str = "") -> bool:
    """Whether ``evaluators[runtime]`` passes the accuracy check against ``evaluators["reference"]``
    (a float32 runtime) on this CPU, measured on the checkpoint ``digest`` (1.6 CPU-seconds for
    connect4, 3.3 for xiangqi) and remembered for this checkpoint, and for every checkpoint of
    the network ``shape`` for ACCURACY_RECHECK_S seconds."""
    keys = _accuracy_keys(runtime, digest, shape)
    remembered = accuracy_verdict(runtime, digest, shape)
    if remembered is not None:
        return remembered
    reference = evaluators["reference"]
    a = accuracy(reference, evaluators[runtime], policy_game_positions(game, reference, ACCURACY_POSITIONS))
    verdict = is_accurate(a)
    for k in keys:
        _remember(k, {"accurate": verdict, "checked_at": round(time.time()), "checkpoint_sha256": digest, **a})
    if not verdict:
        note(f"{runtime} is not accurate enough for this network (mean value difference {a['mean_value_diff']}, "
             f"same first choice in {a['same_top_move']:.1%} of {ACCURACY_POSITIONS} positions); not used")
    return verdict


#: what self-play with ``precision = "int8"`` chooses from (static int8 with its accuracy check waived)
SELFPLAY_INT8_CANDIDATES = ("torch-fp32", "ort-fp32", WINOGRAD, INT8_STATIC)


def servable(candidates, net_cfg) -> tuple[str, ...]:
    """``candidates`` less the Winograd runtime where it cannot serve this network shape (``net_cfg``,
    a NetConfig or its dict) here: the compiled module missing, or a part it does not compute."""
    if WINOGRAD not in candidates:
        return tuple(candidates)
    from .winograd import supports
    return tuple(candidates) if supports(net_cfg) else tuple(n for n in candidates if n != WINOGRAD)


def candidates_for(purpose: str, precision: str = "fp32") -> tuple[str, ...]:
    if purpose == "selfplay" and precision == "auto":
        # not static int8: it fails the accuracy bar on every trained network (docs/network-int8.md), and
        # self-play's per-checkpoint quantization and check would cost every training generation
        return ("torch-fp32", "torch-bf16", "ort-fp32", WINOGRAD)
    # static int8 alone fails the accuracy bar on every shipped network (docs/network-int8.md);
    # where a network would pass without the second look, the checked form passes too
    return ("torch-fp32", "ort-fp32", WINOGRAD, INT8_CHECKED)


def choose(net, net_cfg: dict, batch: int, purpose: str, candidates, sess=None, model: bytes | None = None,
           game=None, digest: str | None = None, accurate=None, retime: bool = False, int8_sess=None, wino=None):
    """(runtime, evaluator): the fastest of ``candidates`` on this machine for this network shape
    and batch (timed once, about a second, and remembered) among those accurate enough: the
    float32 ones always; an inexact one (`INEXACT`) only where it is faster than those and
    ``accurate`` (a set of runtimes) holds it, or `accurate_enough` passes for the checkpoint
    ``digest`` of ``game`` (or, within the hour, another of its shape). ``retime``: measure again and
    replace the remembered figures. Static int8 competes only where it can be built: from
    ``int8_sess`` (a session or a function that makes one) or, with ``game``, quantized now.
    The runtime chosen is remembered with the figures (what `load_model_evaluator` reads). The
    Winograd runtime competes where this machine has it for this network shape, from ``wino`` (see
    `build_evaluator`) or ``net``.
    """
    evaluators = {}
    if net is None and wino is None:
        candidates = tuple(n for n in candidates if n != WINOGRAD)
    candidates = servable(candidates, net_cfg)
    wino = _once(wino)
    if int8_sess is None and game is None:
        candidates = tuple(n for n in candidates if n not in STATIC_INT8)
    int8_sess = _once(int8_sess if int8_sess is not None or game is None else
                      lambda: _quantized_session(net, model, game))

    def evaluator(name):
        if name not in evaluators:
            evaluators[name] = build_evaluator(name, net, model, sess, game=game, int8_sess=int8_sess, wino=wino)
        return evaluators[name]
    key = choice_key(net_cfg, batch, purpose, candidates)
    rates = remembered_rates(key)
    timed = retime or rates is None or not all(name in rates for name in candidates)
    if timed:
        # the best of 20 short windows each, taking turns (1 s a runtime): the choice is remembered,
        # so a moment of other load on the machine must not decide it (10 windows did, once in 12)
        usable = {}
        for name in candidates:
            try:
                usable[name] = evaluator(name)
            except Exception as e:   # quantization trouble of any kind: the float runtimes still work
                if name == WINOGRAD:
                    note(f"the Winograd runtime cannot serve this network ({first_line(e)}); not used")
                    continue
                if name not in STATIC_INT8:
                    raise
                note(f"static int8 cannot be built for this network ({first_line(e)}); not used")
        if INT8_CHECKED in usable and game is not None:
            # its work depends on the positions: every runtime is timed on the network's own
            reference = next(usable[n] for n in candidates if n in usable and n not in INEXACT)
            rates = time_runtimes(usable, game_planes(game, reference, batch), window=0.05, rounds=20, batch=batch)
        else:
            usable.pop(INT8_CHECKED, None)   # random planes would time it on made-up near ties
            rates = time_runtimes(usable, sample_planes(net_cfg, batch), window=0.05, rounds=20)
        rates = {**{name: 0.0 for name in candidates}, **rates}   # one that could not be built: never faster

    def rate(name):
        return rates.get(name, 0.0)
    exact = [name for name in candidates if name not in INEXACT]
    runtime = max(exact, key=rate)
    for name in sorted((n for n in candidates if n in INEXACT), key=rate, reverse=True):
        if rate(name) <= rate(runtime):
            break
        if accurate is not None:
            passes = name in accurate
        elif game is not None and digest:
            passes = accuracy_verdict(name, digest, shape_key(net_cfg))   # remembered: nothing to build
            if passes is None:
                try:
                    evaluator(runtime)
                    evaluator(name)
                except Exception as e:
                    if name not in STATIC_INT8:
                        raise
                    note(f"static int8 cannot be built for this network ({first_line(e)}); not used")
                    continue
                passes = accurate_enough(name, {"reference": evaluators[runtime], name: evaluators[name]}, game,
                                         digest, shape=shape_key(net_cfg))
        else:
            passes = False
        if passes:
            runtime = name
            break
    if timed or remembered_choice(key) != runtime:
        remember_choice(key, runtime, rates)
    return runtime, evaluator(runtime)


def matched_runtimes(game) -> set[str]:
    """The inexact runtimes whose equal-visits match against float32 passed its rule for
    ``game`` (its shipped models/<game>.json ``"runtime_matches"``, ``{name: {"passed": true,
    ...}}``, of the game's network for a rule variant): the issue's condition for a runtime to
    be used at all, before the accuracy check on each machine and network. Empty where the file
    or the entry is missing or unreadable."""
    from .safefile import model_report
    matches = model_report(game.key, getattr(game, "network_key", game.key)).get("runtime_matches")
    if not isinstance(matches, dict):
        return set()
    return {k for k, v in matches.items() if isinstance(v, dict) and v.get("passed") is True}


def _once(make):
    """``make`` (a function that builds a session) made to build it once however often it is
    called (both static int8 runtimes share one quantized network); anything else as it is."""
    if not callable(make):
        return make
    made = []

    def once():
        if not made:
            made.append(make())
        return made[0]
    return once


def _quantized_session(net, model: bytes | None, game):
    from .int8 import quantize_for
    from .onnxnet import export_bytes, session
    return session(quantize_for(model if model is not None else export_bytes(net), game))


def _selfplay_int8(net, meta: dict, game, batch: int):
    """Self-play's evaluator where its settings ask for static int8 (``precision = "int8"``): the
    faster of int8 and the float32 runtimes at self-play's batch on this machine (timed once and
    remembered, as every choice), the accuracy check waived by the settings; a processor without
    fast integer kernels times int8 slower and keeps float32. The checkpoint is quantized in
    memory (a run's checkpoints get no files beside them) only where int8 is timed or chosen."""
    from .int8 import quantize_for
    from .onnxnet import export_bytes, session
    model = export_bytes(net, meta=meta)
    _, evaluator = choose(net, meta["net"], batch, "selfplay", SELFPLAY_INT8_CANDIDATES, model=model, game=game,
                          accurate={INT8_STATIC}, int8_sess=lambda: session(quantize_for(model, game)))
    return evaluator


def load_model_evaluator(path, game, purpose: str = "play", batch: int = 8, precision: str = "fp32",
                         keep_export: bool = True):
    """(evaluator, metadata) for the checkpoint at ``path``: the one factory that decides which
    runtime serves a model file (the app's AI process, engine commands, UCI, self-play).

    Where ONNX Runtime is the measured choice and the checkpoint's export is cached, neither
    torch nor the checkpoint's pickle is touched. Otherwise the checkpoint is loaded safely
    with torch (`checkpoint.load_network`, which raises CheckpointError for a bad file),
    exported (cached when ``keep_export``), and the choice timed once. Any problem with
    ONNX Runtime falls back to torch with a note on stderr. ``batch``: the batch the caller
    sends (the search's leaf batch, or self-play's games times leaves); ``precision``: the
    self-play setting ("auto" lets bfloat16 compete; "fp32"/"bf16" force torch's format;
    "int8" runs it in ONNX Runtime's static int8 where that is faster here than float32,
    without the accuracy check, `_selfplay_int8`; ``ZEROBOARD_RUNTIME`` overrides it)."""
    from .checkpoint import load_network
    from .onnxnet import export_bytes, export_checkpoint, file_sha256, load_cached
    if purpose not in PURPOSES:
        raise ValueError(f"purpose must be one of {PURPOSES}, not {purpose!r}")
    forced = forced_runtime()
    path = Path(path)
    if purpose == "selfplay" and precision == "int8":
        if forced is None:
            net, meta = load_network(path, game)   # CheckpointError for a bad file, as below
            try:
                return _selfplay_int8(net, meta, game, batch), meta
            except Exception as e:   # export or runtime trouble of any kind (onnx missing too)
                note(f"ONNX Runtime cannot serve {path.name} ({first_line(e)}); self-play takes the measured "
                     f"runtime instead")
        precision = "auto"
    torch_only = forced == "torch" or (purpose == "selfplay" and precision != "auto" and forced != "ort")
    candidates = candidates_for(purpose, precision)
    if forced == "ort":
        candidates = tuple(n for n in candidates if n != WINOGRAD)
    if INT8_CHECKED in candidates and INT8_CHECKED not in matched_runtimes(game):
        candidates = tuple(n for n in candidates if n != INT8_CHECKED)
    sess = meta = None
    digest = None
    if not torch_only and path.is_file():
        try:
            digest = file_sha256(path)
            cached = load_cached(path, game, digest) if keep_export else None
            if cached is not None:
                sess, meta = cached
                candidates = servable(candidates, meta.get("net", {}))
                from .int8 import load_cached as load_int8
                choice = remembered_choice(choice_key(meta.get("net", {}), batch, purpose, candidates))
                in_ort = tuple(n for n in candidates if n.startswith("ort"))
                # the Winograd runtime's arrays, cached beside the export (the packaged app's build makes
                # the shipped models'), serve without torch as ONNX Runtime does; they are read only
                # where that runtime is chosen or the choice is still to be made
                if choice is None and forced is None and WINOGRAD in candidates:
                    choice = remembered_choice(choice_key(meta.get("net", {}), batch, purpose, in_ort + (WINOGRAD,)))
                if choice is None and forced is None:
                    choice = remembered_choice(choice_key(meta.get("net", {}), batch, purpose, in_ort))
                wnet = None
                if WINOGRAD in candidates and choice in (None, WINOGRAD):
                    from .winograd import load_cached as load_wino
                    wnet = load_wino(path, digest)
                if choice == WINOGRAD and wnet is not None:
                    return build_evaluator(WINOGRAD, wino=wnet), meta
                torch_free = in_ort + ((WINOGRAD,) if wnet is not None else ())
                if choice in STATIC_INT8 and forced != "ort" and accuracy_verdict(choice, digest):
                    quantized = load_int8(path, game, digest)
                    if quantized is not None:
                        return build_evaluator(choice, sess=sess, int8_sess=quantized), meta
                # without its cached arrays the Winograd runtime is made from the checkpoint: a choice
                # not yet timed with it is timed below, torch loading the checkpoint once
                untimed_wino = choice is None and WINOGRAD in candidates and wnet is None and forced is None
                if choice is None and forced is None and purpose == "play" and not untimed_wino \
                        and (INT8_CHECKED in candidates or wnet is not None):
                    # the shipped models' int8 copies and Winograd arrays lie beside them: the runtimes
                    # are timed (and int8's checked) without importing torch, once, and remembered
                    quantized = load_int8(path, game, digest) if INT8_CHECKED in candidates else None
                    timed = tuple(n for n in torch_free if n != INT8_CHECKED or quantized is not None)
                    if len(timed) > 1:
                        _, evaluator = choose(None, meta["net"], batch, purpose, timed, sess=sess, game=game,
                                              digest=digest, int8_sess=quantized, wino=wnet)
                        return evaluator, meta
                # nothing timed yet (the packaged app's shipped models, exported when it was built): ONNX
                # Runtime, rather than importing torch only to time it; the next torch load times it
                if forced == "ort" or choice == "ort-fp32" or (choice is None and purpose == "play" and not untimed_wino):
                    return build_evaluator("ort-fp32", sess=sess), meta
        except ImportError as e:
            note(f"ONNX Runtime is not available ({e}); the network runs in torch")
            torch_only = True
        except (OnnxUnavailable, OSError, UnreadableFile) as e:
            note(f"{e}; the network runs in torch")
            sess = None
    from .network import configure_threads
    configure_threads(1)
    net, meta = load_network(path, game)   # CheckpointError for a bad file, as before

    def in_torch():   # built only when torch serves: it copies the network
        from .evaluators import NetworkEvaluator
        if purpose == "selfplay" and precision == "auto":
            # bfloat16 competes as in every measured choice: only where it is faster here and passes
            # the accuracy bar (a borrowed machine whose ONNX Runtime could not serve took it unchecked
            # for a gomoku network that misses the bar, 2026-12-04)
            in_torch_alone = tuple(n for n in candidates if n.startswith("torch"))
            try:
                return choose(net, meta["net"], batch, purpose, in_torch_alone, game=game,
                              digest=digest or file_sha256(path))[1], meta
            except Exception as e:   # the choice could not be measured or kept (its cache folder, say)
                note(f"the runtime could not be chosen ({first_line(e)}); the network runs in float32")
                return NetworkEvaluator(net), meta
        return NetworkEvaluator(net, precision=precision if purpose == "selfplay" else "fp32"), meta

    if torch_only:
        return in_torch()
    try:
        if sess is None and keep_export:
            sess, _ = export_checkpoint(path, game, net, meta, digest)
        if forced == "ort":
            return build_evaluator("ort-fp32", net, sess=sess), meta
        # without keep_export the network is exported in memory only if ONNX Runtime is timed or chosen
        digest = digest or file_sha256(path)

        def int8_sess():   # quantized (or read from its cache) only if static int8 is timed or chosen
            from .int8 import load_or_build
            return load_or_build(path, game, lambda: export_bytes(net, digest, meta), digest, keep=keep_export)
        def wino():   # transformed (or read from its cache) only if the Winograd runtime is timed or chosen
            from .winograd import load_or_build
            return load_or_build(path, digest, net, keep=keep_export)
        _, evaluator = choose(net, meta["net"], batch, purpose, candidates, sess=sess, game=game, digest=digest,
                              int8_sess=int8_sess, wino=wino)
        return evaluator, meta
    except Exception as e:   # exporter or runtime trouble of any kind: torch still works
        note(f"ONNX Runtime cannot serve {path.name} ({type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}); "
             f"the network runs in torch")
        return in_torch()


def load_named_evaluator(path, game, runtime: str):
    """(evaluator, metadata) of the checkpoint at ``path`` in ``runtime`` (ONNX Runtime's "ort-fp32" or
    static int8, or the Winograd runtime), whatever this machine's choice, from the cached exports
    where they are (made and cached where not): for measurements, such as a match of int8 against
    float32."""
    from .checkpoint import load_network
    from .onnxnet import export_checkpoint, file_sha256, load_cached
    if runtime not in ("ort-fp32", *STATIC_INT8, WINOGRAD):
        raise ValueError(f"runtime must be ort-fp32, {INT8_STATIC}, {INT8_CHECKED} or {WINOGRAD}, not {runtime!r}")
    path = Path(path)
    if runtime == WINOGRAD:
        net, meta = load_network(path, game)
        return build_evaluator(runtime, net), meta
    digest = file_sha256(path)
    cached = load_cached(path, game, digest)
    if cached is None:
        net, meta = load_network(path, game)
        cached = export_checkpoint(path, game, net, meta, digest)
    sess, meta = cached
    if runtime == "ort-fp32":
        return build_evaluator(runtime, sess=sess), meta
    from .int8 import load_or_build
    from .onnxnet import export_bytes

    def float_model():
        net, meta = load_network(path, game)
        return export_bytes(net, digest, meta)
    return build_evaluator(runtime, sess=sess, int8_sess=load_or_build(path, game, float_model, digest)), meta


def preload() -> None:
    """Import the runtime the AI will most likely use (ONNX Runtime, else torch), so its cost is
    paid while a person looks at the first screens."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        import torch  # noqa: F401


__all__ = ["RUNTIMES", "INT8_STATIC", "INT8_CHECKED", "WINOGRAD", "servable", "matched_runtimes", "accuracy_verdict", "load_model_evaluator", "load_named_evaluator",
           "build_evaluator", "time_runtimes", "positions_per_s", "choose", "forced_runtime", "preload",
           "sample_planes", "candidates_for", "policy_game_positions"]
