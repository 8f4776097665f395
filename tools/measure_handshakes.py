"""Handshake times of the engine commands: process start -> the first reply line to the
protocol's opening command (``uci``/``ucci``/``START 15``/``nboard 2``), and -> ``readyok``
(or the first move), when the model has been loaded. Runs are interleaved; prints medians.

    python tools/measure_handshakes.py [--runs 5]
"""
from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAIN = [sys.executable, str(ROOT / "main.py")]
#: name -> (arguments, opening lines, its answer, lines that wait for the model, their answer)
ENGINES = {
    "uci (xiangqi)": (["uci", "--game", "xiangqi"], ["uci"], "uciok", ["isready"], "readyok"),
    "ucci": (["ucci"], ["ucci"], "ucciok", ["isready"], "readyok"),
    "pbrain (gomoku)": (["pbrain"], ["START 15"], "OK", ["INFO max_node 1", "BEGIN"], "7,7"),
    "nboard (othello)": (["nboard"], ["nboard 2"], "set myname", ["set depth 1", "ping 1", "go"], "==="),
}


def measure(args, opening, answer, ready_lines, ready_answer) -> tuple[float, float]:
    start = time.perf_counter()
    proc = subprocess.Popen([*MAIN, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1,
                            cwd=ROOT)
    try:
        proc.stdin.write("".join(line + "\n" for line in opening))
        proc.stdin.flush()
        hello = ready = None
        for line in proc.stdout:
            if hello is None and line.startswith(answer):
                hello = time.perf_counter() - start
                proc.stdin.write("".join(line + "\n" for line in ready_lines))
                proc.stdin.flush()
            elif hello is not None and line.startswith(ready_answer) or ready_answer == "7,7" and "," in line \
                    and not line.startswith(("DEBUG", "MESSAGE")) and hello is not None:
                ready = time.perf_counter() - start
                break
        return hello, ready
    finally:
        proc.kill()
        proc.wait()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    times = {name: ([], []) for name in ENGINES}
    for _ in range(args.runs):
        for name, spec in ENGINES.items():
            hello, ready = measure(*spec)
            times[name][0].append(hello)
            times[name][1].append(ready)
    print(f"{'engine':<18} {'handshake s (median, max)':>26} {'model loaded s (median)':>24}")
    for name, (hello, ready) in times.items():
        print(f"{name:<18} {statistics.median(hello):>14.2f} {max(hello):>10.2f} {statistics.median(ready):>24.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
