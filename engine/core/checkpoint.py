"""Model files: weights plus metadata in one file, saved atomically, loaded without running code.

A checkpoint is a plain dict of tensors, strings and numbers written by ``torch.save``
and read back with ``torch.load(weights_only=True)``, which refuses any pickled
object that would run code. Saves go to a temporary file in the same folder, are
flushed and fsynced, then renamed over the target: a crash at any moment leaves
either the old file or the new one, never a broken one.

A file is distrusted until checked, cheapest check first: the zip's declared sizes are
bounded before anything is inflated (a zip bomb), its checksums verified, its weights
must be finite, and the network its metadata declares must match its tensors' shapes
before that network is built (a file declaring a billion blocks allocates nothing).
"""
from __future__ import annotations

import datetime as _dt
import io
import os
import re
import tempfile
from pathlib import Path

FORMAT = "zeroboard-checkpoint"
FORMAT_VERSION = 1


def _read_umask() -> int:
    # read once at import: os.umask() can only be read by setting it, which races with other threads
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


_UMASK = _read_umask()


class CheckpointError(Exception):
    """A model file that cannot be used; the message names the file and the problem."""


#: the most a model file's zip may declare it holds, uncompressed, in all (ZeroBoard's largest
#: models are a few MB), and how many times its size on disk: torch stores its members
#: uncompressed, so a file that declares far more than it is long is a zip bomb
MAX_UNCOMPRESSED_BYTES = 512 << 20
MAX_INFLATION = 8
#: the most members (tensors and records) a model file's zip may hold
MAX_MEMBERS = 10_000

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def _plain(e: BaseException) -> str:
    """The first line of an exception's message, without terminal colour codes."""
    lines = [line for line in (_ANSI.sub("", raw).strip() for raw in str(e).splitlines()) if line]
    return lines[0] if lines else type(e).__name__


def _refusal_reason(e: BaseException) -> str:
    """What torch's weights_only loader refused, in one sentence (" (…)"), without its advice on
    how to load the file anyway; "" when it does not say."""
    for line in _ANSI.sub("", str(e)).splitlines():
        _, found, reason = line.partition("WeightsUnpickler error:")
        if found and reason.strip():
            return f" ({reason.strip().split('. ')[0].rstrip('.')})"
    return ""


def _check_archive(path: Path, data: bytes) -> int:
    """Refuse a file (``data``, read from ``path``) that is not a zip, declares more than it can
    hold, or fails its checksums, reading the declared sizes before inflating anything; the
    declared size of its contents."""
    import zipfile
    size = len(data)
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            infos = zf.infolist()
            if len(infos) > MAX_MEMBERS:
                raise CheckpointError(f"{path}: refused: the file holds {len(infos)} parts, more than a model "
                                      f"file has (at most {MAX_MEMBERS})")
            declared = sum(i.file_size for i in infos)
            if declared > MAX_UNCOMPRESSED_BYTES or declared > MAX_INFLATION * size + (1 << 20):
                raise CheckpointError(f"{path}: refused: the {size / 1e6:.1f} MB file declares "
                                      f"{declared / 1e6:.1f} MB of contents (a model file is not compressed; "
                                      "this looks like a zip bomb), so nothing was unpacked")
            # torch.load never checks the zip's CRC-32s: verify them, so that a truncated or
            # bit-flipped file is reported as such instead of loading damaged weights
            damaged = zf.testzip()
    except CheckpointError:
        raise
    except Exception as e:
        raise CheckpointError(f"{path}: not a ZeroBoard model file (truncated, corrupt or another kind of file: "
                              f"{_plain(e)})") from None
    if damaged is not None:
        raise CheckpointError(f"{path}: the model file is corrupt (checksum mismatch in {damaged})")
    return declared


def _check_weights(path: Path, state_dict, stored_bytes: int) -> None:
    """The weights are a flat dict of name -> finite tensor, each the only user of its own
    bytes in the file (a tensor can be a view that repeats a few stored numbers billions of
    times: its shape would then say nothing about the file's size)."""
    import torch
    if not isinstance(state_dict, dict) or not state_dict:
        raise CheckpointError(f"{path}: the model file holds no weights")
    total = 0
    for name, t in state_dict.items():
        if not isinstance(name, str) or not isinstance(t, torch.Tensor):
            raise CheckpointError(f"{path}: the weights hold something other than named tensors")
        size = t.numel() * t.element_size()
        total += size
        if size > t.untyped_storage().nbytes() or total > stored_bytes:
            raise CheckpointError(f"{path}: refused: the tensor {name!r} describes more numbers than the file "
                                  "stores")
        if t.is_floating_point():
            if not bool(torch.isfinite(t).all()):
                bad = "NaN" if bool(torch.isnan(t).any()) else "infinite"
                raise CheckpointError(f"{path}: refused: the weights in {name!r} hold {bad} values "
                                      "(a model damaged in training or on disk)")
        elif t.dtype not in (torch.int64, torch.int32):
            raise CheckpointError(f"{path}: the weights in {name!r} have the unexpected type {t.dtype}")


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` so that readers see the old or the new content, never a mix."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_UMASK)  # mkstemp makes 0600; give the file the usual permissions
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:  # make the rename itself durable
        dfd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(dfd)
        finally:
            os.close(dfd)
    except OSError:
        pass


def save_checkpoint(path, net, game, generation: int = 0, evaluation: dict | None = None,
                    extra: dict | None = None) -> None:
    """Save ``net`` for ``game`` atomically with its metadata."""
    import torch
    payload = {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "game_id": game.id,
        "game_key": game.key,
        # sizes are numbers, rule sets names (gomoku's "renju"); both plain data torch loads safely
        "variant": {k: (v if isinstance(v, str) else int(v)) for k, v in game.variant.items()},
        "net": net.cfg.to_dict(),
        "generation": int(generation),
        "created": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "evaluation": evaluation or {},
        "extra": extra or {},
        "state_dict": {k: v.detach().cpu() for k, v in net.state_dict().items()},
    }
    buf = io.BytesIO()
    torch.save(payload, buf)
    atomic_write_bytes(Path(path), buf.getvalue())


def read_checkpoint(path) -> dict:
    """Load and validate a checkpoint's dict; raises CheckpointError naming the file."""
    import pickle
    import zipfile
    import torch
    from .safefile import UnreadableFile, read_bytes
    path = Path(path)
    try:   # one read of a regular file (a pipe or a device is refused, never waited on)
        data = read_bytes(path, "checkpoint")
    except UnreadableFile as e:
        if e.kind == "missing":
            raise CheckpointError(f"{path}: no such model file") from None
        if e.kind == "not_file" and path.is_dir():
            raise CheckpointError(f"{path}: is a folder, not a model file") from None
        raise CheckpointError(f"{path}: the model file {e}") from None
    if not data:
        raise CheckpointError(f"{path}: the file is empty")
    stored_bytes = _check_archive(path, data)
    try:
        payload = torch.load(io.BytesIO(data), map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        raise CheckpointError(f"{path}: refused: the file holds objects other than plain weights "
                              f"(it could run code), so it was not loaded{_refusal_reason(e)}") from None
    except (RuntimeError, EOFError, zipfile.BadZipFile, ValueError, OSError, AttributeError, TypeError,
            MemoryError) as e:
        raise CheckpointError(f"{path}: not a readable model file (truncated or corrupt?): {_plain(e)}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not a ZeroBoard model file")
    if payload.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(f"{path}: model format version {payload.get('format_version')!r} is not supported "
                              f"(this version reads {FORMAT_VERSION})")
    for key in ("game_key", "net", "state_dict"):
        if key not in payload:
            raise CheckpointError(f"{path}: model file is missing {key!r}")
    _check_weights(path, payload["state_dict"], stored_bytes)
    return payload


def metadata(path) -> dict:
    """The checkpoint's metadata without the weights."""
    p = read_checkpoint(path)
    return {k: v for k, v in p.items() if k != "state_dict"}


def load_network(path, game=None):
    """(network, metadata) from a checkpoint; checks it belongs to ``game`` when given. A
    network from before its game added input planes (``Game.legacy_planes``) comes back as it
    was, reading its game's first ``cfg.in_planes`` planes (`State.encode_planes`, which the
    evaluators call); training widens it (`network.with_input_planes`) where the run's settings ask."""
    from .network import NetConfig, PolicyValueNet, expected_shapes
    payload = read_checkpoint(path)
    if game is not None and payload["game_key"] not in (game.key, game.network_key):
        # a rule variant plays its base game's networks (gomoku-renju plays gomoku's)
        raise CheckpointError(f"{path}: this model is for {payload['game_key']!r}, not {game.key!r}")
    state_dict = payload["state_dict"]
    try:
        cfg = NetConfig.from_dict(payload["net"])
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise CheckpointError(f"{path}: the file's network description is unreadable: {_plain(e)}") from None
    if game is not None:
        h, w = game.board_shape
        if (cfg.in_planes not in game.network_planes
                or (cfg.height, cfg.width, cfg.action_size) != (h, w, game.action_size)):
            raise CheckpointError(f"{path}: the network's input/action shape does not match {game.key!r}")
    # the declared network must be the one the tensors describe before it is built: a file of a
    # few KB that declares a billion blocks must cost nothing
    try:
        expected = expected_shapes(cfg, len(state_dict), sum(t.numel() for t in state_dict.values()))
    except ValueError as e:
        raise CheckpointError(f"{path}: refused: {e}") from None
    shapes = {k: tuple(t.shape) for k, t in state_dict.items()}
    if shapes != expected:
        missing = sorted(set(expected) - set(shapes))
        extra = sorted(set(shapes) - set(expected))
        wrong = sorted(k for k in set(shapes) & set(expected) if shapes[k] != expected[k])
        detail = (f"{len(missing)} missing (e.g. {missing[0]!r})" if missing else
                  f"{len(extra)} unexpected (e.g. {extra[0]!r})" if extra else
                  f"{wrong[0]!r} is {list(shapes[wrong[0]])}, expected {list(expected[wrong[0]])}")
        raise CheckpointError(f"{path}: the weights do not fit the network the file describes "
                              f"({cfg.blocks} blocks of {cfg.channels} channels): {detail}")
    meta = {k: v for k, v in payload.items() if k != "state_dict"}
    try:
        net = PolicyValueNet(cfg)
        net.load_state_dict(state_dict)
    except (KeyError, TypeError, ValueError, RuntimeError) as e:
        raise CheckpointError(f"{path}: the weights do not fit the network described in the file: "
                              f"{_plain(e)}") from None
    net.eval()
    return net, meta
