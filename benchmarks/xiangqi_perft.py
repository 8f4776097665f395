"""Benchmark: xiangqi perft CPU seconds for the Python rules, the compiled core and Fairy-Stockfish.

Interleaved rounds (Python, compiled, Fairy-Stockfish, then again), each figure the CPU time of
that one run, so that other load on the machine falls on all of them alike; the table gives the
fastest and the median round. In process: `games.xiangqi_moves.perft_counts` (the Python
reference) and `games._xiangqi_c.perft` (the compiled core), both what
``main.py perft --game xiangqi`` calls. As commands: ``main.py perft`` with and without
``ZEROBOARD_PURE_PYTHON=1`` (its whole process: start-up and imports included). Fairy-Stockfish:
its ``go perft DEPTH`` after ``setoption name UCI_Variant value xiangqi``, its process's CPU time
(from getrusage of children), less that of the same session with ``go perft 1`` (start-up, option
parsing, quitting) in the same round. Every run's node counts must agree.

    python benchmarks/xiangqi_perft.py [--depth 4] [--rounds 5] [--engine PATH]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(fn):
    """(fn's result, the CPU seconds this process spent in it)."""
    start = time.process_time()
    out = fn()
    return out, time.process_time() - start


def run_command(argv: list[str], env: dict | None = None, stdin: str | None = None) -> tuple[str, float]:
    """(stdout, the child's CPU seconds)."""
    before = child_cpu()
    out = subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    if out.returncode != 0:
        raise SystemExit(f"xiangqi_perft: {' '.join(argv)} failed ({out.returncode}): {out.stderr.strip()[-300:]}")
    return out.stdout, child_cpu() - before


def fairy_perft(engine: str, depth: int) -> tuple[int, float]:
    """(leaf count, CPU seconds) of Fairy-Stockfish's ``go perft depth`` from the xiangqi start."""
    script = f"setoption name UCI_Variant value xiangqi\nposition startpos\ngo perft {depth}\n"
    # "quit" after the count: perft runs in the search thread, so wait for it by an isready
    out, cpu = run_command([engine], stdin=script + "isready\nquit\n")
    for line in out.splitlines():
        if line.startswith("Nodes searched"):
            return int(line.split(":")[1]), cpu
    raise SystemExit(f"xiangqi_perft: {engine} printed no 'Nodes searched' line:\n{out[-500:]}")


def command_perft(depth: int, pure: bool) -> tuple[list[int], float]:
    env = dict(os.environ, ZEROBOARD_PURE_PYTHON="1" if pure else "0", PYTHONPATH=str(ROOT))
    out, cpu = run_command([sys.executable, "main.py", "perft", "--game", "xiangqi", "--depth", str(depth)], env=env)
    return json.loads(out.splitlines()[-1])["nodes"], cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--engine", default=shutil.which("fairy-stockfish") or
                    ("/usr/games/fairy-stockfish" if Path("/usr/games/fairy-stockfish").exists() else None),
                    help="Fairy-Stockfish's executable (default: fairy-stockfish on the PATH)")
    args = ap.parse_args()
    if not 1 <= args.depth <= 6 or args.rounds < 1:
        raise SystemExit("xiangqi_perft: --depth must be 1..6 and --rounds at least 1")
    from games import native
    from games import xiangqi_moves as reference
    from games.xiangqi_notation import START_FEN, parse_fen
    core = native.load("games._xiangqi_c")
    board, player, _, _ = parse_fen(START_FEN)
    times: dict[str, list[float]] = {}
    counts: dict[str, int] = {}

    def record(name: str, leaves: int, cpu: float) -> None:
        times.setdefault(name, []).append(cpu)
        if counts.setdefault(name, leaves) != leaves:
            raise SystemExit(f"xiangqi_perft: {name} counted {leaves} leaves, before {counts[name]}")

    for _ in range(args.rounds):
        nodes, cpu = timed(lambda: reference.perft_counts(board, player, args.depth))
        record("python (in process)", nodes[-1], cpu)
        if core is not None:
            nodes, cpu = timed(lambda: core.perft(board, player, args.depth))
            record("compiled (in process)", nodes[-1], cpu)
        nodes, cpu = command_perft(args.depth, pure=True)
        record("main.py perft, ZEROBOARD_PURE_PYTHON=1", nodes[-1], cpu)
        if core is not None:
            nodes, cpu = command_perft(args.depth, pure=False)
            record("main.py perft, compiled", nodes[-1], cpu)
        if args.engine:
            leaves, cpu = fairy_perft(args.engine, args.depth)
            start_leaves, start_cpu = fairy_perft(args.engine, 1)
            record("fairy-stockfish (process)", leaves, cpu)
            record("fairy-stockfish (perft alone)", leaves, max(cpu - start_cpu, 0.0))
    if len(set(counts.values())) != 1:
        raise SystemExit(f"xiangqi_perft: the leaf counts disagree: {counts}")
    print(f"xiangqi perft {args.depth} from the start ({next(iter(counts.values()))} leaves), CPU seconds over "
          f"{args.rounds} interleaved rounds" + ("" if core else "; the compiled core is not built here")
          + ("" if args.engine else "; Fairy-Stockfish not found"))
    print(f"{'':42s} {'fastest':>8s} {'median':>8s}")
    for name, values in times.items():
        print(f"{name:42s} {min(values):8.3f} {statistics.median(values):8.3f}")
    summary = {name: round(min(v), 4) for name, v in times.items()}
    print(json.dumps({"depth": args.depth, "leaves": next(iter(counts.values())), "fastest_cpu_s": summary}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
