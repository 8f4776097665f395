"""Carry a training run to a borrowed many-core machine and back: a short, resumable burst of
self-play and learning (docs/training.md, "A burst on a borrowed machine").

A run folder is too large to travel whole (gomoku's replay buffer is about 440 MB of
uncompressed samples), but everything ``main.py train --resume`` reads fits in a few MB:

    pack RUN DEST [--checkpoints-every N]
        copy what resuming RUN needs into DEST: run.json, state.json, metrics.jsonl,
        optimizer.pt, latest.pt, the checkpoint of the run's last generation and the samples of
        the generations its replay window holds, re-saved compressed (75 times smaller; they
        load as before). With N, also every N-th checkpoint newer than --since
        (default: the generation a burst started from).
    unpack SRC RUN
        make RUN (which must not hold a run yet) from a packed SRC.
    merge SRC RUN
        bring a packed run that went on elsewhere back into RUN, the folder it was packed
        from: its newer checkpoints and samples are added, and its state, metrics, optimizer
        and latest network replace RUN's. Refused when RUN has moved on since it was packed
        (its generation is not the one the burst started from), so that no generation is lost.

Run files are read with the project's own checks (engine/core/safefile.py); nothing here
unpickles a file it did not write.
"""
from __future__ import annotations

import argparse
import io
import json
import shutil
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.core.safefile import read_json, UnreadableFile  # noqa: E402
from engine.training.train import _latest_settings  # noqa: E402

SMALL = ("run.json", "state.json", "metrics.jsonl", "optimizer.pt", "latest.pt")
#: in a packed folder, and in a run unpacked from one: the generation the burst started from
ORIGIN = "burst.json"


def _state(run: Path) -> dict:
    try:
        state = read_json(run / "state.json", "run_state")
    except UnreadableFile as e:
        raise SystemExit(f"{run}: no readable state.json ({e})")
    if not isinstance(state, dict) or not isinstance(state.get("generation"), int):
        raise SystemExit(f"{run}/state.json holds no generation")
    return state


def _capacity(run: Path) -> int:
    try:
        info = read_json(run / "run.json", "run_info")
    except UnreadableFile as e:
        raise SystemExit(f"{run}: no readable run.json ({e})")
    config = _latest_settings(info) or {}
    return int(config.get("train", {}).get("buffer_positions", 0)) or 10**9


def _sample_files(run: Path) -> list[tuple[int, Path]]:
    out = []
    for p in (run / "buffer").glob("gen_*.npz"):
        try:
            out.append((int(p.stem.split("_")[1]), p))
        except (IndexError, ValueError):
            continue
    return sorted(out)


def _compressed(path: Path) -> tuple[bytes, int]:
    """A samples file re-saved compressed, and how many samples it holds."""
    with np.load(path, allow_pickle=False) as f:
        arrays = {k: f[k] for k in f.files}
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    return buf.getvalue(), len(arrays["z"])


def pack(run: Path, dest: Path, every: int = 0, since: int | None = None) -> dict:
    state = _state(run)
    gen = state["generation"]
    if dest.exists() and any(dest.iterdir()):
        raise SystemExit(f"{dest} is not empty")
    (dest / "checkpoints").mkdir(parents=True, exist_ok=True)
    (dest / "buffer").mkdir(exist_ok=True)
    for name in SMALL:
        if (run / name).is_file():
            shutil.copyfile(run / name, dest / name)
    started = gen
    if (run / ORIGIN).is_file():   # a run unpacked for a burst, packed to go back: where it began
        try:
            started = int(json.loads((run / ORIGIN).read_text())["started_from"])
        except (ValueError, KeyError, TypeError):
            raise SystemExit(f"{run}/{ORIGIN} is unreadable")
    wanted = {gen}
    if every:
        start = since if since is not None else started if started < gen else 0
        wanted |= {g for g in range(start + 1, gen + 1) if g % every == 0}
    for g in sorted(wanted):
        ckpt = run / "checkpoints" / f"gen_{g:06d}.pt"
        if ckpt.is_file():
            shutil.copyfile(ckpt, dest / "checkpoints" / ckpt.name)
    if not (dest / "checkpoints" / f"gen_{gen:06d}.pt").is_file():
        raise SystemExit(f"{run}: the checkpoint of generation {gen} is missing")
    # the newest samples until the replay window is full (what the run would load on resume)
    capacity, held, kept = _capacity(run), 0, []
    for g, path in reversed(_sample_files(run)):
        if g > gen:
            continue   # samples of a generation that did not finish: resume plays it again
        data, count = _compressed(path)
        (dest / "buffer" / path.name).write_bytes(data)
        stats = path.with_suffix(".stats.json")
        if stats.is_file():
            shutil.copyfile(stats, dest / "buffer" / stats.name)
        held += count
        kept.append(g)
        if held >= capacity:
            break
    origin = {"started_from": started, "generation": gen, "games": state.get("games"), "samples": held,
              "sample_generations": sorted(kept)}
    (dest / ORIGIN).write_text(json.dumps(origin) + "\n")
    return origin


def unpack(src: Path, run: Path) -> dict:
    if (run / "state.json").exists():
        raise SystemExit(f"{run} already holds a run")
    run.mkdir(parents=True, exist_ok=True)
    for item in src.iterdir():
        if item.is_dir():
            shutil.copytree(item, run / item.name, dirs_exist_ok=True)
        else:
            shutil.copyfile(item, run / item.name)
    return _state(run)


def merge(src: Path, run: Path) -> dict:
    try:
        origin = json.loads((src / ORIGIN).read_text()) if (src / ORIGIN).is_file() else None
    except ValueError:
        origin = None
    went_on, here = _state(src), _state(run)
    start = (origin or {}).get("started_from")
    if start is None:
        raise SystemExit(f"{src}: no {ORIGIN}; was it made by `pack` from {run}?")
    if here["generation"] != start:
        raise SystemExit(f"{run} is at generation {here['generation']}, not at {start} where the burst began: "
                         "merging would lose generations")
    if went_on["generation"] <= start:
        raise SystemExit(f"{src} made no generation after {start}")
    for sub in ("checkpoints", "buffer"):
        for item in sorted((src / sub).glob("gen_*")):
            try:
                g = int(item.name.split(".")[0].split("_")[1])
            except (IndexError, ValueError):
                continue
            if g > start:
                shutil.copyfile(item, run / sub / item.name)
    for name in ("metrics.jsonl", "optimizer.pt", "latest.pt", "run.json"):
        if (src / name).is_file():
            shutil.copyfile(src / name, run / name)
    shutil.copyfile(src / "state.json", run / "state.json.tmp")
    (run / "state.json.tmp").replace(run / "state.json")   # last, as train writes it
    return {"from": start, "to": went_on["generation"], "games": went_on.get("games")}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = ap.add_subparsers(dest="verb", required=True)
    p = sub.add_parser("pack")
    p.add_argument("run", type=Path)
    p.add_argument("dest", type=Path)
    p.add_argument("--checkpoints-every", type=int, default=0)
    p.add_argument("--since", type=int, default=None, help="only checkpoints after this generation")
    u = sub.add_parser("unpack")
    u.add_argument("src", type=Path)
    u.add_argument("run", type=Path)
    m = sub.add_parser("merge")
    m.add_argument("src", type=Path)
    m.add_argument("run", type=Path)
    args = ap.parse_args(argv)
    if args.verb == "pack":
        out = pack(args.run, args.dest, args.checkpoints_every, args.since)
    elif args.verb == "unpack":
        out = unpack(args.src, args.run)
    else:
        out = merge(args.src, args.run)
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
