"""The network in ONNX Runtime: export from a checkpoint, a verified cache, and an evaluator.

ONNX Runtime runs the same function as the torch inference copy (outputs equal to ~1e-5)
faster on a CPU, and ``import onnxruntime`` costs a tenth of ``import torch``, so play and
analysis need no torch once a checkpoint has been exported. Exporting needs torch (and the
``onnx`` package); it happens once per checkpoint content: the ``.onnx`` file goes beside
the checkpoint (``connect4.pt`` -> ``connect4.onnx``), or into the per-user cache where that
folder cannot or must not be written (the packaged app's models, whose exports it carries,
made when it was built), and carries the checkpoint's SHA-256 and metadata in its
``metadata_props``. A cached file is used only when that hash equals the
checkpoint's current hash and its inputs and outputs fit the game; anything else means
"export again" (or, without torch, "not available"). An ONNX file is data (a graph of
standard operators and their weights); loading it runs no code of the file's.

This module imports neither torch nor onnxruntime at import time.
"""
from __future__ import annotations

import io
import json
import os
import warnings
from pathlib import Path

import numpy as np

from .evaluators import BatchNetEvaluator
from .logsetup import first_line, note

OPSET = 17
HASH_KEY = "zeroboard_checkpoint_sha256"
META_KEY = "zeroboard_checkpoint_meta"
EXPORT_FORMAT = "2"     # bump when the exported graph changes, so old cached files are rebuilt (2: denormal weights zeroed)
FORMAT_KEY = "zeroboard_onnx_format"


class OnnxUnavailable(Exception):
    """The checkpoint cannot be served by ONNX Runtime here; the message says why (for the log)."""


def file_sha256(path) -> str:
    """The SHA-256 of a model file (a regular file only: `safefile.file_sha256`)."""
    from .safefile import file_sha256 as sha256
    return sha256(path, "checkpoint")


def export_bytes(net, checkpoint_sha256: str = "", meta: dict | None = None) -> bytes:
    """The network's inference copy as a serialized ONNX model (dynamic batch), with the
    checkpoint's hash and metadata stored in it. Needs torch and the ``onnx`` package."""
    import torch
    try:
        import onnx
    except ImportError:
        raise OnnxUnavailable("the onnx package is not installed, so the model cannot be exported") from None
    from .network import inference_copy
    fast = inference_copy(net).to(memory_format=torch.contiguous_format)
    c = net.cfg
    x = torch.zeros(1, c.in_planes, c.height, c.width)
    buf = io.BytesIO()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # the TorchScript exporter's deprecation notice
        torch.onnx.export(fast, (x,), buf, input_names=["planes"], output_names=["logits", "value"],
                          dynamic_axes={"planes": {0: "batch"}, "logits": {0: "batch"}, "value": {0: "batch"}},
                          opset_version=OPSET, dynamo=False)
    model = onnx.load_from_string(buf.getvalue())
    props = {FORMAT_KEY: EXPORT_FORMAT, HASH_KEY: checkpoint_sha256,
             META_KEY: json.dumps(meta or {}, default=str, sort_keys=True)}
    for key, value in props.items():
        entry = model.metadata_props.add()
        entry.key, entry.value = key, value
    return model.SerializeToString()


def run_quantizer(model: bytes, quantize) -> bytes:
    """The bytes ``quantize(src, dst)`` (one of onnxruntime.quantization's functions, which work on
    files) makes of ``model``, through a temporary folder, its log and warnings kept quiet."""
    import logging
    import tempfile
    root = logging.getLogger()
    level = root.level
    with tempfile.TemporaryDirectory() as d:
        src, dst = Path(d) / "fp32.onnx", Path(d) / "int8.onnx"
        src.write_bytes(model)
        try:
            root.setLevel(logging.ERROR)   # its advice to pre-process the model, on the root logger
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                quantize(str(src), str(dst))
        finally:
            root.setLevel(level)
        return dst.read_bytes()


def quantize_int8(model: bytes) -> bytes:
    """Dynamic int8 quantization of a float32 model's weights (onnxruntime.quantization)."""
    from onnxruntime.quantization import QuantType, quantize_dynamic
    return run_quantizer(model, lambda src, dst: quantize_dynamic(src, dst, weight_type=QuantType.QInt8))


def session(model, threads: int = 1):
    """An ONNX Runtime CPU session of ``model`` (bytes or a path), on ``threads`` threads:
    parallelism comes from processes, as with torch."""
    import onnxruntime as ort
    so = ort.SessionOptions()
    so.intra_op_num_threads = threads
    so.inter_op_num_threads = 1
    so.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    so.log_severity_level = 3   # errors only: its warnings are about graph rewrites
    if isinstance(model, (str, Path)):
        # bytes: a file path would let the model name external data files
        from .safefile import UnreadableFile, read_bytes
        try:
            model = read_bytes(model, "export")
        except UnreadableFile as e:
            raise OnnxUnavailable(f"{model}: {e}") from None
    return ort.InferenceSession(model, sess_options=so, providers=["CPUExecutionProvider"])


class OrtEvaluator(BatchNetEvaluator):
    """The network run by ONNX Runtime; the same interface and outputs as `NetworkEvaluator`."""

    runtime = "ort-fp32"

    def __init__(self, sess, runtime: str = "ort-fp32"):
        super().__init__()
        self.session = sess
        self.runtime = runtime
        self.input_name = sess.get_inputs()[0].name
        planes = sess.get_inputs()[0].shape[1]
        self.in_planes = planes if isinstance(planes, int) else None

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = self.session.run(None, {self.input_name: np.ascontiguousarray(planes, dtype=np.float32)})
        return logits, values


#: how close (in logits) static int8's two highest outputs must be for a position to be
#: evaluated again in float32 by `CheckedInt8Evaluator` (docs/network-int8.md "int8 with a
#: float32 second look": 0.15 re-evaluates 10-15% of xiangqi's and othello's positions)
CHECK_MARGIN = 0.15


class CheckedInt8Evaluator(BatchNetEvaluator):
    """Static int8 with a float32 second look: the int8 network evaluates every position, and
    the positions where its two highest logits lie within ``margin`` of each other (a near tie,
    where int8's rounding can swap the first choice) are evaluated again by the float32
    network, whose outputs replace int8's there. The first choice then agrees with float32's
    wherever int8's rounding moves the two by less than the margin; the values elsewhere
    carry int8's error. The margin is judged over all the network's outputs (an evaluator sees
    only planes, not the legal moves; illegal moves' logits sit far below)."""

    runtime = "ort-int8-checked"

    def __init__(self, int8_sess, float_sess, margin: float = CHECK_MARGIN):
        super().__init__()
        self.int8 = OrtEvaluator(int8_sess, "ort-int8-static")
        self.float = OrtEvaluator(float_sess)
        self.in_planes = self.float.in_planes
        self.margin = float(margin)
        self.looked_again = 0   # positions the float32 network evaluated again
        self.looked = 0         # positions evaluated

    def infer(self, planes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        logits, values = self.int8.infer(planes)
        top2 = np.partition(logits, -2, axis=1)[:, -2:]
        rows = np.flatnonzero(top2[:, 1] - top2[:, 0] < self.margin)
        self.looked += len(logits)
        if len(rows):
            self.looked_again += len(rows)
            exact_logits, exact_values = self.float.infer(np.asarray(planes)[rows])
            logits[rows] = exact_logits
            values[rows] = exact_values
        return logits, values


def _stored_props(sess) -> dict:
    return dict(sess.get_modelmeta().custom_metadata_map or {})


def check_session(sess, game, where: str) -> dict:
    """The checkpoint metadata stored in ``sess``'s model, after checking its inputs and
    outputs fit ``game``; OnnxUnavailable otherwise."""
    props = _stored_props(sess)
    try:
        meta = json.loads(props.get(META_KEY, "{}"))
    except ValueError:
        raise OnnxUnavailable(f"{where}: unreadable metadata") from None
    if props.get(FORMAT_KEY) != EXPORT_FORMAT:
        raise OnnxUnavailable(f"{where}: exported by another version (format {props.get(FORMAT_KEY)!r})")
    if game is not None:
        h, w = game.board_shape
        inputs, outputs = sess.get_inputs(), sess.get_outputs()
        if len(inputs) != 1 or len(outputs) != 2:
            raise OnnxUnavailable(f"{where}: not a policy/value network")
        planes = inputs[0].shape[1]
        if (planes not in game.network_planes or list(inputs[0].shape[2:]) != [h, w]
                or outputs[0].shape[-1] != game.action_size):
            raise OnnxUnavailable(f"{where}: its input/action shape does not match {game.key!r}")
        if meta.get("game_key") not in (game.key, game.network_key):
            raise OnnxUnavailable(f"{where}: exported for {meta.get('game_key')!r}, not {game.key!r}")
    return meta


def cache_dir() -> Path:
    from .paths import user_cache_dir
    d = user_cache_dir() / "onnx"
    d.mkdir(parents=True, exist_ok=True)
    return d


def candidate_paths(checkpoint: Path, digest: str, suffix: str = ".onnx") -> list[Path]:
    """Where a file made from ``checkpoint`` may be: beside it, then the per-user cache; ``suffix``
    names the kind (".onnx" its export, ".int8.onnx" its quantized copy, ".wino.npz" the Winograd
    runtime's arrays)."""
    return [Path(checkpoint).with_suffix(suffix), cache_dir() / f"{digest[:32]}{suffix}"]


def write_paths(checkpoint: Path, digest: str, suffix: str = ".onnx") -> list[Path]:
    """Where a new such file of ``checkpoint`` is written: beside it (in a source tree, models/*.onnx
    is git-ignored and shared by every user folder, tests included), except for the packaged
    app's own models, whose folder is never written to: their files go to the user cache."""
    places = candidate_paths(checkpoint, digest, suffix)
    return places[1:] if is_shipped_model(checkpoint) else places


def write_cached(checkpoint: Path, digest: str, suffix: str, data: bytes) -> Path | None:
    """Write ``data`` to the first writable place of `write_paths` (atomically); that path, or None
    where no folder can be written."""
    from .checkpoint import atomic_write_bytes
    for p in write_paths(checkpoint, digest, suffix):
        try:
            if os.access(p.parent, os.W_OK):
                atomic_write_bytes(p, data)
                return p
        except OSError:
            continue
    return None


def is_shipped_model(checkpoint: Path) -> bool:
    """Whether ``checkpoint`` is one of the packaged app's own models (whose folder is never written)."""
    from .paths import is_frozen, models_dir
    try:
        return is_frozen() and Path(checkpoint).resolve().parent == models_dir().resolve()
    except OSError:
        return False


def load_cached(checkpoint, game, digest: str | None = None):
    """(session, metadata) of a cached export whose stored hash is ``checkpoint``'s; None when
    there is none (a stale or damaged one is skipped with a note)."""
    from .safefile import UnreadableFile, read_bytes, set_aside
    checkpoint = Path(checkpoint)
    digest = digest or file_sha256(checkpoint)
    for p in candidate_paths(checkpoint, digest):
        try:
            model = read_bytes(p, "export")
        except UnreadableFile as e:
            problem = str(e) if e.damaged else ""
        else:
            try:
                sess = session(model)
                if _stored_props(sess).get(HASH_KEY) != digest:
                    continue   # an export of an earlier version of the checkpoint: rebuilt below
                return sess, check_session(sess, game, str(p))
            except OnnxUnavailable as e:
                note(f"ignoring {e}")
                continue
            except ImportError:   # no ONNX Runtime here: the file is not to blame (the caller falls back)
                raise
            except Exception as e:   # onnxruntime's parse errors have no common base class
                problem = f"is not a usable ONNX model ({first_line(e)})"
        if problem:   # set aside, so that the export written next does not replace it unseen
            backup = set_aside(p)
            note(f"ignoring {p}: it {problem}; " + (f"moved aside to {backup.name}" if backup else "left in place"))
    return None


def export_checkpoint(checkpoint, game, net=None, meta=None, digest: str | None = None):
    """Export ``checkpoint`` (loaded safely by `checkpoint.load_network` unless ``net`` and
    ``meta`` are given), write it to the first writable cache place, and return (session,
    metadata). Needs torch."""
    from .checkpoint import load_network
    checkpoint = Path(checkpoint)
    digest = digest or file_sha256(checkpoint)
    if net is None:
        net, meta = load_network(checkpoint, game)
    model = export_bytes(net, digest, meta)
    if write_cached(checkpoint, digest, ".onnx", model) is None:
        note(f"could not save the ONNX export of {checkpoint} (no writable folder); it is kept in memory only")
    sess = session(model)
    return sess, check_session(sess, game, str(checkpoint))


__all__ = ["OnnxUnavailable", "OrtEvaluator", "CheckedInt8Evaluator", "CHECK_MARGIN", "export_bytes", "export_checkpoint", "load_cached", "quantize_int8",
           "session", "file_sha256", "check_session", "note", "is_shipped_model"]
