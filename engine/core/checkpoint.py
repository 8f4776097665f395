"""Model files: weights plus metadata in one file, saved atomically, loaded without running code.

A checkpoint is a plain dict of tensors, strings and numbers written by ``torch.save``
and read back with ``torch.load(weights_only=True)``, which refuses any pickled
object that would run code. Saves go to a temporary file in the same folder, are
flushed and fsynced, then renamed over the target: a crash at any moment leaves
either the old file or the new one, never a broken one.
"""
from __future__ import annotations

import datetime as _dt
import io
import os
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
        "variant": {k: int(v) for k, v in game.variant.items()},
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
    path = Path(path)
    if not path.exists():
        raise CheckpointError(f"{path}: no such model file")
    if path.stat().st_size == 0:
        raise CheckpointError(f"{path}: the file is empty")
    # torch.save writes a zip with CRC-32s that torch.load never checks: verify them, so that a
    # truncated or bit-flipped file is reported as such instead of loading damaged weights
    try:
        with zipfile.ZipFile(path) as zf:
            damaged = zf.testzip()
    except Exception as e:
        raise CheckpointError(f"{path}: not a ZeroBoard model file (truncated, corrupt or another kind of file: "
                              f"{str(e).splitlines()[0] if str(e) else type(e).__name__})") from None
    if damaged is not None:
        raise CheckpointError(f"{path}: the model file is corrupt (checksum mismatch in {damaged})")
    try:
        payload = torch.load(path, map_location="cpu", weights_only=True)
    except pickle.UnpicklingError as e:
        raise CheckpointError(f"{path}: refused: the file holds objects other than plain weights "
                              f"(it could run code), so it was not loaded ({str(e).splitlines()[0]})") from None
    except (RuntimeError, EOFError, zipfile.BadZipFile, ValueError, OSError, AttributeError, TypeError) as e:
        raise CheckpointError(f"{path}: not a readable model file (truncated or corrupt?): "
                              f"{str(e).splitlines()[0] if str(e) else type(e).__name__}") from None
    if not isinstance(payload, dict) or payload.get("format") != FORMAT:
        raise CheckpointError(f"{path}: not a ZeroBoard model file")
    if payload.get("format_version") != FORMAT_VERSION:
        raise CheckpointError(f"{path}: model format version {payload.get('format_version')!r} is not supported "
                              f"(this version reads {FORMAT_VERSION})")
    for key in ("game_key", "net", "state_dict"):
        if key not in payload:
            raise CheckpointError(f"{path}: model file is missing {key!r}")
    return payload


def metadata(path) -> dict:
    """The checkpoint's metadata without the weights."""
    p = read_checkpoint(path)
    return {k: v for k, v in p.items() if k != "state_dict"}


def load_network(path, game=None):
    """(network, metadata) from a checkpoint; checks it belongs to ``game`` when given."""
    from .network import NetConfig, PolicyValueNet
    payload = read_checkpoint(path)
    if game is not None and payload["game_key"] != game.key:
        raise CheckpointError(f"{path}: this model is for {payload['game_key']!r}, not {game.key!r}")
    try:
        cfg = NetConfig.from_dict(payload["net"])
        if game is not None:
            h, w = game.board_shape
            if (cfg.in_planes, cfg.height, cfg.width, cfg.action_size) != (game.num_planes, h, w, game.action_size):
                raise CheckpointError(f"{path}: the network's input/action shape does not match {game.key!r}")
        net = PolicyValueNet(cfg)
        net.load_state_dict(payload["state_dict"])
    except CheckpointError:
        raise
    except (KeyError, TypeError, ValueError, RuntimeError) as e:
        raise CheckpointError(f"{path}: the weights do not fit the network described in the file: "
                              f"{str(e).splitlines()[0]}") from None
    net.eval()
    return net, {k: v for k, v in payload.items() if k != "state_dict"}
