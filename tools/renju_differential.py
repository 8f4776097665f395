"""Differential check of renju's forbidden points against Rapfi (docs/rules.md).

    PYTHONPATH=. python tools/renju_differential.py BRAIN [--positions 10000] [--seed 1] [--show 5]

BRAIN is a Rapfi Gomocup brain (tools/refengines/build_rapfi.sh builds one). For each random
position with black to move, the brain is given the stones (``YXBOARD``, under ``INFO rule 4``)
and asked for black's forbidden points (``YXSHOWFORBID``, Rapfi's own renju test); the answer
is compared with `games.renju.forbidden_points`. Positions come from two kinds of random games
on 15x15, every other position each: renju games (black only plays points allowed by our
rules) and free-style games (black plays anything, so shapes our rules would forbid are on the
board too); moves are drawn from a central square whose size varies, so the stones are dense
enough for threes and fours to cross. Positions with a five on the board are skipped.

Prints one JSON line: positions compared, positions with forbidden points, forbidden points
in all, disagreements (positions where the sets differ; how many of them have a point where
black already makes five) and up to ``--show`` of them as diagrams on stderr.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys


def _positions(count: int, seed: int):
    """Yield (black bitboard, white bitboard, stones in move order) with black to move."""
    from games import get_game
    from games.renju import exact_five_through
    renju_game = get_game("gomoku", rule="renju")
    free_game = get_game("gomoku")
    geo = renju_game.geometry
    rng = random.Random(seed)
    made = 0
    while made < count:
        game = renju_game if made % 2 == 0 else free_game
        half = rng.choice((2, 3, 4, 5, 7))   # the central square's half-width
        plies = 2 * rng.randrange(4, 2 * half * half + 6)
        s = game.initial_state()
        for _ in range(plies):
            acts = [a for a in s.legal_actions() if abs(a // 15 - 7) <= half and abs(a % 15 - 7) <= half]
            if not acts or s.is_terminal():
                break
            s = s.apply(rng.choice(acts))
        if s.is_terminal() or s.current_player != 0:
            continue
        black, white = s._black, s._white
        if any(exact_five_through(black, geo.windows6[a]) or exact_five_through(white, geo.windows6[a])
               for a in s.moves):
            continue   # a five (or, in free-style play, any row of five or more) ends the game
        if any(_six(black, a) or _six(white, a) for a in s.moves):
            continue
        made += 1
        yield black, white, s.moves


def _six(stones: int, action: int) -> bool:
    r0, c0 = divmod(action, 15)
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            r, c = r0 + sign * dr, c0 + sign * dc
            while 0 <= r < 15 and 0 <= c < 15 and stones >> (r * 15 + c) & 1:
                run += 1
                r, c = r + sign * dr, c + sign * dc
        if run >= 5:
            return True
    return False


class Rapfi:
    """A Rapfi brain answering YXSHOWFORBID."""

    def __init__(self, path: str):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self._send("START 15")
        self._expect("OK")
        self._send("INFO rule 4")

    def _send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def _expect(self, prefix: str) -> str:
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the brain closed its output")
            line = line.strip()
            if line.startswith(prefix):
                return line

    def forbidden(self, moves) -> set[int]:
        self._send("YXBOARD")
        for i, a in enumerate(moves):
            self._send(f"{a % 15},{a // 15},{1 if i % 2 == 0 else 2}")
        self._send("DONE")
        self._send("YXSHOWFORBID")
        text = self._expect("FORBID")[len("FORBID"):].strip().rstrip(".")
        out = set()
        for i in range(0, len(text), 4):
            x, y = int(text[i:i + 2]), int(text[i + 2:i + 4])
            out.add(y * 15 + x)
        return out

    def close(self) -> None:
        try:
            self._send("END")
            self.proc.wait(timeout=5)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def _diagram(black: int, white: int, ours: set[int], theirs: set[int]) -> str:
    """The board with ``X`` black, ``O`` white, ``#`` forbidden for both, ``Z`` only for us,
    ``R`` only for Rapfi."""
    rows = []
    for r in range(15):
        cells = []
        for c in range(15):
            a = r * 15 + c
            cells.append("X" if black >> a & 1 else "O" if white >> a & 1 else
                         "#" if a in ours and a in theirs else "Z" if a in ours else "R" if a in theirs else ".")
        rows.append(f"{15 - r:>2} " + " ".join(cells))
    rows.append("   " + " ".join("abcdefghijklmno"))
    return "\n".join(rows)


def main() -> int:
    from games.renju import exact_winning_points, forbidden_points
    from games import get_game
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("brain")
    p.add_argument("--positions", type=int, default=10000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--show", type=int, default=5)
    args = p.parse_args()
    geo = get_game("gomoku", rule="renju").geometry
    brain = Rapfi(args.brain)
    compared = with_forbidden = points = disagree = 0
    only_ours = only_rapfi = with_five = 0
    try:
        for black, white, moves in _positions(args.positions, args.seed):
            ours_bits = forbidden_points(black, white, geo)
            ours = {a for a in range(225) if ours_bits >> a & 1}
            theirs = brain.forbidden(moves)
            compared += 1
            with_forbidden += bool(ours or theirs)
            points += len(ours)
            if ours != theirs:
                disagree += 1
                # a point that makes five is never forbidden: when black already has one, a three
                # completed through it is where the two readings of the rules can part
                empty = geo.full ^ (black | white)
                with_five += bool(exact_winning_points(black, empty, geo, geo.full))
                only_ours += len(ours - theirs)
                only_rapfi += len(theirs - ours)
                if disagree <= args.show:
                    print(f"disagreement {disagree} (Z: forbidden for us only, R: for Rapfi only, #: both), "
                          f"moves {' '.join(str(m) for m in moves)}\n{_diagram(black, white, ours, theirs)}\n",
                          file=sys.stderr)
    finally:
        brain.close()
    print(json.dumps({"positions": compared, "positions_with_forbidden_points": with_forbidden,
                      "forbidden_points": points, "disagreeing_positions": disagree,
                      "points_only_ours": only_ours, "points_only_rapfi": only_rapfi,
                      "disagreeing_where_black_has_a_five_point": with_five, "seed": args.seed}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
