"""Benchmark: what a call into the compiled xiangqi core costs through each binding.

The same C (games/csrc/xiangqi_rules.c) is called two ways for the legal actions of 60 positions of a
random game: as the CPython extension module the project builds (the board passed as the
state's tuple of ints), and through ctypes from a shared library built here with ``cc`` (the
board converted to a C array each call, as the states hold tuples; and, the best case for
ctypes, a board already held as a C array). CPU microseconds a call, the fastest of 3 rounds.
Needs a C compiler and the built extension.

    python benchmarks/xiangqi_binding_overhead.py
"""
from __future__ import annotations

import ctypes
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

PROBE = """
#include "{source}"
static int by_value(const void *a, const void *b) {{ return *(const int *)a - *(const int *)b; }}
int xq_legal_actions(int8_t *b, int player, int *out)
{{
    xq_move moves[XQ_MAX_MOVES];
    xq_init();
    int n = xq_legal_moves(b, player, moves);
    for (int i = 0; i < n; i++) out[i] = xq_action(player, moves[i].f, moves[i].t);
    qsort(out, (size_t)n, sizeof *out, by_value);
    return n;
}}
"""

def main() -> int:
    from games import _xiangqi_c as core
    from games import get_game
    folder = Path(tempfile.mkdtemp(prefix="xq_probe_"))
    (folder / "probe.c").write_text(PROBE.format(source=ROOT / "games" / "csrc" / "xiangqi_rules.c"))
    subprocess.run(["cc", "-O3", "-shared", "-fPIC", "-w", "-I", str(ROOT / "games" / "csrc"),
                    str(folder / "probe.c"), "-o", str(folder / "libprobe.so")], check=True)
    lib = ctypes.CDLL(str(folder / "libprobe.so"))
    lib.xq_legal_actions.argtypes = [ctypes.POINTER(ctypes.c_int8), ctypes.c_int, ctypes.POINTER(ctypes.c_int)]
    lib.xq_legal_actions.restype = ctypes.c_int
    board_type, out = ctypes.c_int8 * 90, (ctypes.c_int * 256)()
    rng, s, states = random.Random(1), get_game("xiangqi").initial_state(), []
    for _ in range(60):
        states.append((s.board, s.current_player))
        s = s.apply(rng.choice(s.legal_actions()))

    def ctypes_converting(board, player):
        return out[:lib.xq_legal_actions(board_type(*board), player, out)]

    def ctypes_held(board, player):
        return out[:lib.xq_legal_actions(board, player, out)]

    held = [(board_type(*b), p) for b, p in states]
    assert all(ctypes_converting(b, p) == core.legal_actions(b, p) for b, p in states)
    ways = (("C-API extension (the project's)", core.legal_actions, states),
            ("ctypes, tuple converted each call", ctypes_converting, states),
            ("ctypes, board held as a C array", ctypes_held, held))
    best: dict[str, float] = {}
    repeats = 200
    for _ in range(3):
        for name, fn, data in ways:
            start = time.process_time()
            for _ in range(repeats):
                for b, p in data:
                    fn(b, p)
            us = (time.process_time() - start) / (repeats * len(data)) * 1e6
            best[name] = min(best.get(name, us), us)
    for name, us in best.items():
        print(f"{name:36s} {us:6.2f} CPU-us a call (the legal actions of one position)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
