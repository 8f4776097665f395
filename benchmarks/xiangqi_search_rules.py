"""Benchmark: a xiangqi search's CPU with the Python rules and with the compiled core.

``main.py analyse`` with the shipped model (ONNX Runtime forced, so both paths use the same
network runtime) on positions from the first quarter of random games (fixed seed), one after
another (``--batch 1``), each path in its own process, interleaved round by round. Each run's
CPU time is taken from getrusage of children, less that of the same command at ``--sims 1``
(start-up, model loading) in the same round; the figure is CPU microseconds a visit, the
fastest round. Both paths must choose the same moves (same rules, same seed).

    python benchmarks/xiangqi_search_rules.py [--sims 800] [--positions 6] [--rounds 3]
"""
from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def analyse(positions: Path, sims: int, pure: bool) -> tuple[list[str], float]:
    env = dict(os.environ, PYTHONPATH=str(ROOT), ZEROBOARD_RUNTIME="ort", ZEROBOARD_PURE_PYTHON="1" if pure else "0")
    before = child_cpu()
    out = subprocess.run([sys.executable, "main.py", "analyse", "--game", "xiangqi", "--positions-file", str(positions),
                          "--sims", str(sims), "--batch", "1", "--seed", "1"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=1800)
    if out.returncode != 0:
        raise SystemExit(f"xiangqi_search_rules: analyse failed: {out.stderr.strip()[-400:]}")
    moves = [json.loads(line).get("move", "?") for line in out.stdout.splitlines() if line.startswith("{")]
    return moves, child_cpu() - before


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sims", type=int, default=800)
    ap.add_argument("--positions", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    from games import get_game
    game, rng, texts = get_game("xiangqi"), random.Random(3), []
    for _ in range(args.positions):
        s = game.initial_state()
        for _ in range(rng.randrange(4, 40)):
            if s.is_terminal():
                break
            s = s.apply(rng.choice(s.legal_actions()))
        texts.append(s.fen())
    folder = Path(tempfile.mkdtemp(prefix="xq_search_"))
    positions = folder / "positions.txt"
    positions.write_text("\n".join(texts) + "\n", encoding="utf-8")
    best: dict[str, float] = {}
    chosen: dict[str, list[str]] = {}
    for _ in range(args.rounds):
        for name, pure in (("python rules", True), ("compiled rules", False)):
            moves, cpu = analyse(positions, args.sims, pure)
            _, base = analyse(positions, 1, pure)
            us = max(cpu - base, 0.0) / (args.sims * len(texts)) * 1e6
            best[name] = min(best.get(name, us), us)
            chosen[name] = moves
    same = chosen["python rules"] == chosen["compiled rules"]
    print(f"xiangqi search, shipped model, ONNX Runtime, {len(texts)} positions x {args.sims} visits, "
          f"fastest of {args.rounds} rounds; same moves chosen on both paths: {same}")
    for name, us in best.items():
        print(f"{name:16s} {us:8.1f} CPU-us a visit")
    print(f"{'ratio':16s} {best['python rules'] / best['compiled rules']:8.2f}")
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
