"""Solve every Connect Four position of the first plies and write the opening book
(games/data/connect4_book.txt): what the study panel, the review and a player's exact solves know of
the opening (docs/levels.md, "Connect Four's max level plays the opening from a book").

    PYTHONPATH=. python tools/connect4_book.py [--plies 5] [--out games/data/connect4_book.txt]

Positions are counted once with their mirror image (the book keys them by `connect4.book_key`).
The deepest plies are solved first: their solves are the cheapest from scratch, and the table
of solved positions, which keeps the positions with the most empty cells, then makes each
shallower ply's solves almost free. Each solved position is appended to
OUT.partial at once with its CPU seconds and a move sequence that reaches it, so a stopped run
resumes where it stopped, and two runs may share the work (--reverse, or --from-ply: each looks at
the file before every solve and skips what the other solved); when every position
is solved the book is written to OUT, sorted, and the partial file removed. Needs the
compiled core: the Python solver would take weeks.
"""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games import connect4, get_game  # noqa: E402


def positions(plies: int) -> dict[int, list]:
    """ply -> [(book key, cur, mask, one move sequence that reaches it)], each position once with
    its mirror, for every ply from 1 to ``plies`` (no game ends that early)."""
    game = get_game("connect4")
    level = {connect4.book_key(0, 0): game.initial_state()}
    out = {}
    for ply in range(1, plies + 1):
        nxt = {}
        for state in level.values():
            for a in state.legal_actions():
                child = state.apply(a)
                key = connect4.book_key(child._cur, child._mask)
                if key not in nxt and not child.is_terminal():
                    nxt[key] = child
        out[ply] = [(k, s._cur, s._mask, "".join(str(m + 1) for m in s.moves)) for k, s in sorted(nxt.items())]
        level = nxt
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--plies", type=int, default=5, help="solve every position of 1 to this many plies")
    p.add_argument("--from-ply", type=int, default=1,
                   help="solve only from this ply (another run can take the others at once: they share OUT.partial)")
    p.add_argument("--reverse", action="store_true",
                   help="take each ply's positions last first (a second run beside a first one: they meet in the middle)")
    p.add_argument("--out", type=Path, default=connect4.BOOK_PATH)
    args = p.parse_args()
    if connect4._core is None:
        print("the compiled Connect Four core is missing: build it first (setup.py build_ext --inplace)",
              file=sys.stderr)
        return 2
    partial = args.out.with_name(args.out.name + ".partial")
    partial.touch()
    done: dict[int, int] = {}
    seen = 0

    def read_partial() -> bool:   # what this run and any beside it have solved so far
        nonlocal seen
        if not partial.exists():
            return False               # a run beside this one wrote the book and removed it
        with partial.open() as f:
            f.seek(seen)
            text = f.read()
        complete = text[:text.rfind("\n") + 1]
        seen += len(complete.encode())
        for line in complete.splitlines():
            parts = line.split()
            if len(parts) >= 2:
                done[int(parts[0], 16)] = int(parts[1])
        return True

    read_partial()
    todo = positions(args.plies)
    total = sum(len(v) for v in todo.values())
    mine = [ply for ply in sorted(todo, reverse=True) if ply >= args.from_ply]
    print(f"{total} positions of 1-{args.plies} plies, {len(done)} already solved", flush=True)
    with partial.open("a") as out:
        for ply in mine:
            cpu_ply = time.process_time()
            for key, cur, mask, moves in (reversed(todo[ply]) if args.reverse else todo[ply]):
                if not read_partial():
                    print(f"another run wrote {args.out}", flush=True)
                    return 0
                if key in done:
                    continue
                cpu = time.process_time()
                done[key] = connect4.solve(cur, mask)
                spent = time.process_time() - cpu
                out.write(f"{key:x} {done[key]} {spent:.2f} {moves}\n")
                out.flush()
            print(f"ply {ply}: {len(todo[ply])} positions, {time.process_time() - cpu_ply:.0f} CPU-s", flush=True)
    if not read_partial():
        print(f"another run wrote {args.out}", flush=True)
        return 0
    missing = sum(1 for v in todo.values() for key, *_ in v if key not in done)
    if missing:
        print(f"{missing} positions still unsolved (another run's plies?): run again to write the book", flush=True)
        return 0
    lines = [connect4.BOOK_HEADER,
             f"# the exact result for the side to move of every position of 1-{args.plies} plies, a "
             "position and its mirror once (key: connect4.book_key, hexadecimal); made by "
             "tools/connect4_book.py"]
    wanted = {key for v in todo.values() for key, *_ in v}
    lines += [f"{key:x} {result}" for key, result in sorted(done.items()) if key in wanted]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines) + "\n")
    connect4.parse_book(args.out.read_text())   # what the app will read
    partial.unlink()
    print(f"wrote {args.out}: {len(wanted)} positions", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
