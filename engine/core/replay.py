"""The replay buffer: a sliding window of recent self-play positions, kept on disk.

Each generation's samples are one ``.npz`` file written atomically, so a resumed run
loses nothing and a killed one never leaves half a file; the self-play statistics of
those games sit beside it (``.stats.json``, written first), so a resumed run counts them. Symmetry augmentation is
applied when sampling, one random symmetry per position.
"""
from __future__ import annotations

import io
import json
import os
import re
import zipfile
from pathlib import Path

import numpy as np

from .checkpoint import atomic_write_bytes
from .logsetup import first_line, note
from .safefile import UnreadableFile, limit_of, open_regular, read_json, set_aside, user_file
from .selfplay import SamplesBatch

_NAME = re.compile(r"^gen_(\d{6})\.npz$")


class ReplayBuffer:
    def __init__(self, directory, game, capacity: int):
        self.dir = Path(directory)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.game = game
        self.capacity = capacity
        self.data: SamplesBatch | None = None
        #: samples the last `load` passed over for their number of input planes
        self.skipped = 0
        self._loaded: dict[int, SamplesBatch] = {}  # generation -> samples, so each file is read once
        syms = game.symmetries()
        self.cell_perms = np.stack([c for c, _ in syms])
        inv = []
        for _, a in syms:
            i = np.empty_like(a)
            i[a] = np.arange(len(a))
            inv.append(i)
        self.action_inv = np.stack(inv)

    def path_for(self, generation: int) -> Path:
        return self.dir / Path(user_file("run samples").pattern.format(n=generation)).name

    def has(self, generation: int) -> bool:
        return self.path_for(generation).exists()

    def stats_path_for(self, generation: int) -> Path:
        return self.path_for(generation).with_suffix(".stats.json")

    def save(self, generation: int, batch: SamplesBatch, stats: dict | None = None) -> None:
        """Write a generation's samples, and first (so that saved samples always have them)
        the statistics of the games that produced them."""
        if stats is not None:
            atomic_write_bytes(self.stats_path_for(generation), json.dumps(stats).encode())
        buf = io.BytesIO()
        np.savez(buf, planes=batch.planes, pi_idx=batch.pi_idx, pi_val=batch.pi_val, z=batch.z, pw=batch.pw,
                 reply_w=batch.reply_w, **batch.optional())
        atomic_write_bytes(self.path_for(generation), buf.getvalue())
        self._loaded[generation] = batch

    def read_stats(self, generation: int) -> dict | None:
        """The statistics saved with a generation's samples, or None (older runs have none)."""
        try:
            stats = read_json(self.stats_path_for(generation), "samples_stats")
        except UnreadableFile:
            return None
        return stats if isinstance(stats, dict) else None

    @staticmethod
    def read(path: Path) -> SamplesBatch:
        """A generation's samples; UnreadableFile for a file that is no regular file (a pipe is
        never waited on) or is too large, ValueError (and zip errors) for a damaged one."""
        fd = open_regular(path, limit_of("samples"))
        with os.fdopen(fd, "rb") as raw, np.load(raw) as f:
            optional = {name: f[name] for pair in SamplesBatch.OPTIONAL if all(n in f.files for n in pair)
                        for name in pair}
            reply_w = f["reply_w"] if "reply_w" in f.files else None   # older files: no reply targets
            batch = SamplesBatch(f["planes"], f["pi_idx"], f["pi_val"], f["z"], f["pw"], reply_w=reply_w, **optional)
        if len(batch.reply_w) != len(batch.z):
            raise ValueError(f"{path}: reply_w has {len(batch.reply_w)} rows for {len(batch.z)} samples")
        for target, weight in SamplesBatch.OPTIONAL:
            if target in optional and not (len(optional[target]) == len(optional[weight]) == len(batch.z)):
                raise ValueError(f"{path}: {target}/{weight} do not match the {len(batch.z)} samples")
        return batch

    def generations(self) -> list[int]:
        return sorted(int(m.group(1)) for p in self.dir.iterdir() if (m := _NAME.match(p.name)))

    def load(self, up_to: int | None = None, planes: int | None = None) -> int:
        """Load the newest files (up to generation ``up_to``) until the window is full; drop older
        files. With ``planes``, samples encoded with another number of input planes (played by
        a network from before its run widened it to the game's newer encoding) are passed over:
        they stay on disk until they slide out of the window, but never train."""
        gens = [g for g in self.generations() if up_to is None or g <= up_to]
        chosen, total, considered = [], 0, 0
        self.skipped = 0
        for g in reversed(gens):
            considered += 1
            b = self._loaded.get(g)
            if b is None:
                try:
                    b = self._loaded[g] = self.read(self.path_for(g))
                except (OSError, ValueError, KeyError, EOFError, zipfile.BadZipFile, UnreadableFile) as e:
                    self.set_aside(g, e)   # one damaged file costs its samples, not the run
                    continue
            if planes is not None and len(b) and b.planes.shape[1] != planes:
                self.skipped += len(b)
                continue
            chosen.append(b)
            total += len(b)
            if total >= self.capacity:
                break
        for g in gens[:max(0, len(gens) - considered)]:
            self.path_for(g).unlink(missing_ok=True)  # slid out of the window
            self.stats_path_for(g).unlink(missing_ok=True)
            self._loaded.pop(g, None)
        self.data = SamplesBatch.concat(chosen[::-1]) if chosen else None
        if self.data is not None and len(self.data) > self.capacity:
            self.data = self.data.tail(self.capacity)
        return 0 if self.data is None else len(self.data)

    def set_aside(self, generation: int, error: BaseException) -> None:
        """Rename a generation's unreadable samples file out of the window (`safefile.set_aside`:
        ``gen_N.npz.bak-<time>``, kept for a look, never read again), with one line on stderr."""
        path = self.path_for(generation)
        backup = set_aside(path)
        where = f"set aside as {backup.name}" if backup else "left in place"
        self._loaded.pop(generation, None)
        note(f"replay buffer: {path.name} is unreadable ({first_line(error)}); {where}, training goes on without "
             "its samples")

    def __len__(self) -> int:
        return 0 if self.data is None else len(self.data)

    def _dense(self, idx: np.ndarray, sym: np.ndarray) -> np.ndarray:
        """Dense policy targets (B, A) of samples ``idx`` under symmetries ``sym``."""
        d = self.data
        pi_idx = d.pi_idx[idx].astype(np.int64)
        pi_val = d.pi_val[idx].astype(np.float32)
        valid = pi_idx >= 0
        mapped = np.take_along_axis(self.action_inv[sym], np.maximum(pi_idx, 0), axis=1)
        policy = np.zeros((len(idx), self.game.action_size), np.float32)
        rows = np.repeat(np.arange(len(idx)), pi_idx.shape[1]).reshape(len(idx), -1)
        np.add.at(policy, (rows[valid], mapped[valid]), pi_val[valid])
        return policy

    def sample(self, batch_size: int, rng: np.random.Generator, ownership: bool = False, reply: bool = False,
               material: bool = False):
        """(planes float32 (B,C,H,W), dense policy targets (B,A), z (B,), policy weights (B,)), augmented;
        with ``ownership`` then (ownership targets float32 (B,H,W), their weights (B,)), under
        the same symmetry as the planes (all zero where the samples have none); with ``material``
        then (final-material targets (B,), their weights (B,)), zero where the samples have none;
        with ``reply``
        then (the opponent's-reply targets (B,A): the next samples' policies under the same
        symmetry, their weights (B,)). A symmetry of the board turns both players' moves alike,
        so one action permutation serves both targets."""
        d = self.data
        idx = rng.integers(0, len(d), batch_size)
        planes = d.planes[idx].astype(np.float32)
        b, c, h, w = planes.shape
        sym = rng.integers(0, len(self.cell_perms), batch_size)
        flat = planes.reshape(b, c, h * w)
        flat = np.take_along_axis(flat, self.cell_perms[sym][:, None, :], axis=2)
        planes = flat.reshape(b, c, h, w)
        out = (planes, self._dense(idx, sym), d.z[idx], d.pw[idx])
        if ownership:
            if d.own is None:
                out += (np.zeros((b, h, w), np.float32), np.zeros(b, np.float32))
            else:
                own = np.take_along_axis(d.own[idx].astype(np.float32), self.cell_perms[sym], axis=1)
                out += (own.reshape(b, h, w), d.own_w[idx])
        if material:
            if d.mat is None:
                out += (np.zeros(b, np.float32), np.zeros(b, np.float32))
            else:
                out += (d.mat[idx].astype(np.float32), d.mat_w[idx].astype(np.float32))
        if reply:
            nxt = np.minimum(idx + 1, len(d) - 1)   # a buffer's last sample is its game's last: weight 0
            out += (self._dense(nxt, sym), d.reply_w[idx].astype(np.float32))
        return out
