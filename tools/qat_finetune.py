"""Quantization-aware fine-tuning of a game's model for static int8, and its measurement
(engine/training/qat.py; docs/network-int8.md, "Quantization-aware fine-tuning").

    PYTHONPATH=. python tools/qat_finetune.py --game gomoku --out runs/qat/gomoku.pt [--steps 1500] ...

Fine-tunes MODEL (default: the game's shipped model) on positions of its own games so that its
static int8 version agrees with it, saves the result to OUT (generation and evaluation kept; the
run's settings and the original's SHA-256 under extra["qat_finetune"]), then measures, as
benchmarks/network_int8.py does, on --held-out positions of each network's own games (seed 0):
int8(new) against fp32(new), which is the accuracy bar (`runtime.is_accurate`), the new float
network against the old (fp32(new) vs fp32(old), on the old one's positions), and for reference
int8(old) against fp32(old). int8 is the project's own quantization (`int8.quantize_for`),
unchanged. Prints one JSON line (also written to --json when given). Seeded: the same settings
give the same checkpoint on the same machine and library versions.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def positive(kind, zero_ok: bool = False):
    def parse(text):
        try:
            v = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if not (v >= 0 if zero_ok else v > 0) or v != v or v == float("inf"):
            raise argparse.ArgumentTypeError(f"must be {'zero or more' if zero_ok else 'above zero'}: {text!r}")
        return v
    return parse


def main(argv=None) -> int:
    from engine.training.qat import QatSettings
    defaults = QatSettings()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", required=True)
    ap.add_argument("--model", help="the float model to fine-tune (default: the game's shipped model)")
    ap.add_argument("--start", help="a checkpoint of MODEL's network to fine-tune from (an earlier run's --out, to "
                                    "go on with it); MODEL stays the teacher and the reference (default: MODEL)")
    ap.add_argument("--out", required=True, help="where to save the fine-tuned checkpoint")
    ap.add_argument("--json", help="also write the result line to this file")
    ap.add_argument("--held-out", type=positive(int), default=1000, help="positions for the accuracy figures")
    for name, value in defaults.to_dict().items():
        ap.add_argument("--" + name.replace("_", "-"), default=value,
                        type=positive(type(value), zero_ok=name in ("value_weight", "margin", "margin_weight", "agreement_weight")))
    args = ap.parse_args(argv)
    settings = QatSettings(**{k: getattr(args, k) for k in defaults.to_dict()})
    if settings.calibration_positions > settings.positions:
        ap.error("--calibration-positions cannot exceed --positions")

    from engine.core import int8
    from engine.core.checkpoint import CheckpointError, load_network, save_checkpoint
    from engine.core.network import configure_threads
    from engine.core.onnxnet import OnnxUnavailable, OrtEvaluator, export_bytes, file_sha256, session
    from engine.core.paths import shipped_model_path
    from engine.core.runtime import accuracy, is_accurate, policy_game_positions
    from engine.training.qat import finetune, training_positions
    from games import get_game
    try:
        game = get_game(args.game)
    except (KeyError, ValueError) as e:
        ap.error(f"unknown game {args.game!r} ({e})")
    model = Path(args.model) if args.model else shipped_model_path(game.key)
    out = Path(args.out)
    start = Path(args.start) if args.start else model
    if out.resolve() in (model.resolve(), start.resolve()):
        ap.error("--out must not be the model being fine-tuned (compare first, then copy it over)")
    configure_threads(1)
    try:
        net, meta = load_network(model, game)
        old_fp32 = OrtEvaluator(session(export_bytes(net)))
        begin, begin_meta = load_network(start, game) if args.start else (net, meta)
        if begin.cfg != net.cfg:
            raise CheckpointError(f"{start}: not the same network shape as {model}")
    except (CheckpointError, OnnxUnavailable) as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    t0 = time.process_time()
    states = training_positions(game, old_fp32, settings)
    positions_cpu_s = time.process_time() - t0
    try:
        new_net, record = finetune(net, game, states, settings, log=lambda m: print(m, file=sys.stderr, flush=True),
                                   start=begin)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    record.update({"from": model.name, "from_sha256": file_sha256(model), "from_generation": meta.get("generation"),
                   "date": time.strftime("%Y-%m-%d"), "positions_cpu_s": round(positions_cpu_s, 1)})
    if args.start:   # the run it went on from, and that run's own record
        record["started_from_sha256"] = file_sha256(start)
        if (begin_meta.get("extra") or {}).get("qat_finetune"):
            record["after"] = begin_meta["extra"]["qat_finetune"]
    extra = dict(meta.get("extra") or {})
    extra["qat_finetune"] = record
    save_checkpoint(out, new_net, game, generation=int(meta.get("generation", 0)),
                    evaluation=meta.get("evaluation") or {}, extra=extra)

    # measure: the runtime's own export and quantization of the saved file
    new_loaded, _ = load_network(out, game)
    new_model = export_bytes(new_loaded)
    new_fp32 = OrtEvaluator(session(new_model))
    new_int8 = OrtEvaluator(session(int8.quantize_for(new_model, game, new_fp32)))
    old_int8 = OrtEvaluator(session(int8.quantize_for(export_bytes(net), game, old_fp32)))
    held_new = policy_game_positions(game, new_fp32, args.held_out, seed=0)
    held_old = policy_game_positions(game, old_fp32, args.held_out, seed=0)
    bar = accuracy(new_fp32, new_int8, held_new)
    result = {"game": game.key, "out": str(out), "out_sha256": file_sha256(out), **record,
              "int8_new_vs_fp32_new": {**bar, "passes_bar": is_accurate(bar)},
              "fp32_new_vs_fp32_old": accuracy(old_fp32, new_fp32, held_old),
              "int8_new_vs_fp32_old": accuracy(old_fp32, new_int8, held_old),
              "int8_old_vs_fp32_old": accuracy(old_fp32, old_int8, held_old),
              "held_out_positions": args.held_out}
    line = json.dumps(result)
    print(line, flush=True)
    if args.json:
        Path(args.json).parent.mkdir(parents=True, exist_ok=True)
        with open(args.json, "a", encoding="utf-8") as f:
            f.write(line + "\n")
    return 0 if result["int8_new_vs_fp32_new"]["passes_bar"] else 2


if __name__ == "__main__":
    sys.exit(main())
