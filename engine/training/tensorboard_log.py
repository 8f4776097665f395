"""TensorBoard scalars of a training run (`train --tensorboard DIR`), an optional extra.

``metrics.jsonl`` in the run directory holds every figure anyway; this writes the ones worth
a chart (losses, Elo, games, positions, self-play speed, arena scores) as one step per
generation, for ``tensorboard --logdir DIR``.
"""
from __future__ import annotations

from pathlib import Path

INSTALL_HINT = ("pip install tensorboard, or python3 tools/bootstrap.py install --extras tensorboard "
                "(the project's optional 'tensorboard' extra)")


class TensorBoardMissing(RuntimeError):
    """The tensorboard package is not installed."""


def require_tensorboard():
    """torch's SummaryWriter class, or `TensorBoardMissing` saying how to install the package."""
    try:
        from torch.utils.tensorboard import SummaryWriter   # imports the tensorboard package
    except ImportError as e:
        raise TensorBoardMissing(f"--tensorboard needs the tensorboard package ({e}); {INSTALL_HINT}") from None
    return SummaryWriter


#: (tag, how to read it from a metrics line) for each scalar written
_SCALARS = (
    ("loss/total", lambda m: m.get("loss")),
    ("loss/policy", lambda m: m.get("policy_loss")),
    ("loss/value", lambda m: m.get("value_loss")),
    ("train/learning_rate", lambda m: m.get("lr")),
    ("elo", lambda m: m.get("elo")),
    ("selfplay/games_total", lambda m: m.get("games")),
    ("selfplay/positions_total", lambda m: m.get("positions")),
    ("selfplay/positions_per_s", lambda m: (m.get("selfplay") or {}).get("positions_per_s")),
    ("selfplay/plies_per_game", lambda m: _ratio((m.get("selfplay") or {}).get("plies"),
                                                (m.get("selfplay") or {}).get("games"))),
    ("train/buffer_positions", lambda m: m.get("buffer")),
    ("time/generation_seconds", lambda m: m.get("generation_seconds")),
)


def _ratio(a, b):
    return a / b if isinstance(a, (int, float)) and isinstance(b, (int, float)) and b else None


class TensorBoardLog:
    """Writes one training generation's figures (a ``metrics.jsonl`` line) as TensorBoard scalars."""

    def __init__(self, log_dir):
        self.log_dir = Path(log_dir)
        self._writer = require_tensorboard()(str(self.log_dir))

    def add_generation(self, line: dict) -> int:
        """Write the figures of ``line`` at step ``line["generation"]``; returns how many were written."""
        g = int(line["generation"])
        written = 0
        for tag, read in _SCALARS:
            value = read(line)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                self._writer.add_scalar(tag, value, g)
                written += 1
        for name, result in (line.get("arena") or {}).items():
            if isinstance(result, dict) and isinstance(result.get("score"), (int, float)):
                self._writer.add_scalar(f"arena/{name}_score", result["score"], g)
                written += 1
        self._writer.flush()
        return written

    def close(self) -> None:
        self._writer.close()
