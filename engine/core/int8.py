"""Static int8 quantization of the ONNX network (QDQ form, per-channel weights) and its cache.

ONNX Runtime runs a QDQ model's convolutions on its integer kernels (VNNI or AVX2 where the
processor has them): activations are unsigned 8-bit, weights signed 8-bit with one scale per
output channel, measured on this machine as the fastest pairing (signed activations run
slower than float32 here). The activations' ranges are calibrated (min/max) on positions of
the network's own games (`evaluators.policy_game_positions`, every move sampled from the float
network's priors), a different draw from the accuracy check's. The policy and value heads
stay in float32: quantizing them cost the most accuracy for the least time (docs/network-int8.md).

Whether the quantized network is used at all is the runtime choice's business
(`runtime.choose`: faster here and within the accuracy bar). This module makes it and caches
it beside the float export (``xiangqi.pt`` -> ``xiangqi.int8.onnx``, or ``<hash>.int8.onnx`` in
the per-user cache), carrying the checkpoint's hash: a changed checkpoint means a new one.

This module imports neither torch nor onnxruntime at import time.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .logsetup import first_line, note
from .onnxnet import HASH_KEY, OnnxUnavailable, check_session, file_sha256, run_quantizer, session, write_cached
from .onnxnet import candidate_paths as onnx_candidate_paths

QUANT_KEY = "zeroboard_int8_static"
QUANT_FORMAT = "1"   # bump when the quantization recipe changes, so cached files are rebuilt
#: calibration positions, and their seed (the accuracy check draws with seed 0)
CALIBRATION_POSITIONS = 512
CALIBRATION_SEED = 7919
#: layers left in float32: the policy and value heads (names from the torch export)
FLOAT_PREFIXES = ("/policy", "/value", "/opponent")


def float_nodes(model) -> list[str]:
    """Names of ``model``'s weighted nodes kept in float32 (the heads)."""
    return [n.name for n in model.graph.node
            if n.op_type in ("Conv", "Gemm", "MatMul") and n.name.startswith(FLOAT_PREFIXES)]


class _Planes:
    """onnxruntime's calibration reader over stacked input planes, in batches."""

    def __init__(self, name: str, planes: np.ndarray, batch: int = 64):
        self._batches = iter([{name: np.ascontiguousarray(planes[i:i + batch], dtype=np.float32)}
                              for i in range(0, len(planes), batch)])

    def get_next(self):
        return next(self._batches, None)

    def rewind(self):   # part of the reader interface; one pass is all min/max calibration needs
        pass


def quantize_static_int8(model: bytes, planes: np.ndarray, keep_float: list[str] | None = None,
                         activations: str = "u8") -> bytes:
    """``model`` (a float32 export) statically quantized to int8, QDQ form, per-channel weights,
    activation ranges calibrated on ``planes``; the float model's metadata is kept and the
    recipe added under QUANT_KEY. ``keep_float``: node names left in float32 (default: the
    heads, `float_nodes`). Needs the ``onnx`` package and onnxruntime."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    if len(planes) == 0:
        raise ValueError("no calibration positions")
    proto = onnx.load_from_string(model)
    keep = float_nodes(proto) if keep_float is None else list(keep_float)
    act = {"u8": QuantType.QUInt8, "s8": QuantType.QInt8}[activations]
    out = onnx.load_from_string(run_quantizer(model, lambda src, dst: quantize_static(
        src, dst, _Planes(proto.graph.input[0].name, planes), quant_format=QuantFormat.QDQ, per_channel=True,
        activation_type=act, weight_type=QuantType.QInt8, calibrate_method=CalibrationMethod.MinMax,
        nodes_to_exclude=keep)))
    recipe = {"format": QUANT_FORMAT, "activations": activations, "weights": "s8", "per_channel": True,
              "calibration_positions": len(planes), "float_nodes": len(keep)}
    del out.metadata_props[:]
    for entry in proto.metadata_props:
        if entry.key != QUANT_KEY:
            out.metadata_props.add().CopyFrom(entry)
    added = out.metadata_props.add()
    added.key, added.value = QUANT_KEY, json.dumps(recipe, sort_keys=True)
    return out.SerializeToString()


def calibration_planes(game, evaluator, count: int = CALIBRATION_POSITIONS, seed: int = CALIBRATION_SEED):
    """Input planes of ``count`` positions of games played by ``evaluator``'s priors."""
    from .evaluators import policy_game_positions
    return np.stack([evaluator.encode(s) for s in policy_game_positions(game, evaluator, count, seed)])


def quantize_for(model: bytes, game, evaluator=None, count: int = CALIBRATION_POSITIONS) -> bytes:
    """``model`` quantized, calibrated on positions of ``game`` played by the float model
    (``evaluator``, or an ONNX Runtime session of ``model``)."""
    if evaluator is None:
        from .onnxnet import OrtEvaluator
        evaluator = OrtEvaluator(session(model))
    return quantize_static_int8(model, calibration_planes(game, evaluator, count))


#: the quantized copy's name beside its checkpoint (``xiangqi.pt`` -> ``xiangqi.int8.onnx``)
SUFFIX = ".int8.onnx"


def candidate_paths(checkpoint: Path, digest: str) -> list[Path]:
    """Where a quantized copy of ``checkpoint`` may be: beside its float export, then the user cache."""
    return onnx_candidate_paths(checkpoint, digest, SUFFIX)


def is_current(sess, digest: str) -> bool:
    """Whether ``sess``'s model is this recipe's quantization of the checkpoint ``digest``."""
    props = dict(sess.get_modelmeta().custom_metadata_map or {})
    try:
        recipe = json.loads(props.get(QUANT_KEY, "{}"))
    except ValueError:
        return False
    return props.get(HASH_KEY) == digest and isinstance(recipe, dict) and recipe.get("format") == QUANT_FORMAT


def load_cached(checkpoint, game, digest: str | None = None):
    """A session of the cached quantized copy of ``checkpoint``, or None (a stale or damaged
    file is passed over; a damaged one with a note)."""
    checkpoint = Path(checkpoint)
    digest = digest or file_sha256(checkpoint)
    for p in candidate_paths(checkpoint, digest):
        if not p.is_file():
            continue
        try:
            sess = session(p)
            if not is_current(sess, digest):
                continue   # another checkpoint's, or an older recipe's: rebuilt
            check_session(sess, game, str(p))
            return sess
        except OnnxUnavailable as e:
            note(f"ignoring {e}")
        except Exception as e:   # onnxruntime's parse errors have no common base class
            note(f"ignoring {p}: not a usable ONNX model ({first_line(e)})")
    return None


def load_or_build(checkpoint, game, float_model, digest: str | None = None, keep: bool = True):
    """A session of ``checkpoint``'s quantized copy: the cached one, or quantized now from
    ``float_model`` (its float export's bytes, or a zero-argument function giving them) and,
    with ``keep``, saved where the float export goes."""
    checkpoint = Path(checkpoint)
    digest = digest or file_sha256(checkpoint)
    cached = load_cached(checkpoint, game, digest) if keep else None
    if cached is not None:
        return cached
    model = float_model() if callable(float_model) else float_model
    quantized = quantize_for(model, game)
    if keep:
        write_cached(checkpoint, digest, SUFFIX, quantized)
    sess = session(quantized)
    check_session(sess, game, str(checkpoint))
    return sess


__all__ = ["quantize_static_int8", "quantize_for", "calibration_planes", "load_cached", "load_or_build",
           "candidate_paths", "is_current", "float_nodes"]
