"""Differential test of xiangqi move generation against fairy-stockfish.

Positions come from seeded random play (biased towards captures so that sparse
endgames with open files, flying-general pins and checks show up); for each one the
moves and their perft-1 counts (fairy-stockfish's ``go perft 2`` divide) must agree,
and on a subset the perft-3 totals too. fairy-stockfish writes ranks 1..10 where
ICCS writes 0..9. Skips when the engine is not installed.
"""
from __future__ import annotations

import random
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from games.xiangqi_moves import count_legal, general_square, in_check, legal_moves
from games.xiangqi_notation import START_FEN, board_to_fen, move_to_iccs, parse_fen


def _find_engine() -> str | None:
    found = shutil.which("fairy-stockfish")
    if found:
        return found
    fallback = Path("/usr/games/fairy-stockfish")
    return str(fallback) if fallback.is_file() else None


ENGINE = _find_engine()
pytestmark = pytest.mark.skipif(ENGINE is None, reason="fairy-stockfish not found on PATH or in /usr/games "
                                                       "(Debian package fairy-stockfish)")

_DIVIDE_LINE = re.compile(r"^([a-i])(\d+)([a-i])(\d+): (\d+)$")


class FairyStockfish:
    """A minimal UCI conversation: set the variant, then ask for perft divides."""

    def __init__(self, path: str):
        self.proc = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.send("uci")
        self.wait_for("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.wait_for("readyok")

    def send(self, line: str) -> None:
        self.proc.stdin.write(line + "\n")
        self.proc.stdin.flush()

    def wait_for(self, prefix: str) -> list[str]:
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError(f"fairy-stockfish exited while waiting for {prefix!r}")
            line = line.strip()
            if line.startswith(prefix):
                return lines
            lines.append(line)

    def divide(self, fen: str, depth: int) -> tuple[dict[str, int], int]:
        """{ICCS move: count} and the total of ``go perft depth``."""
        self.send(f"position fen {fen}")
        self.send(f"go perft {depth}")
        out = {}
        lines = self.wait_for("Nodes searched")
        for line in lines:
            m = _DIVIDE_LINE.match(line)
            if m:  # ranks 1..10 -> ICCS 0..9
                out[f"{m[1]}{int(m[2]) - 1}{m[3]}{int(m[4]) - 1}"] = int(m[5])
        return out, sum(out.values())

    def close(self) -> None:
        self.send("quit")
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@pytest.fixture(scope="module")
def engine():
    fsf = FairyStockfish(ENGINE)
    yield fsf
    fsf.close()


def _make(b: list, mv: tuple[int, int]) -> int:
    f, t = mv
    q = b[t]
    b[t] = b[f]
    b[f] = 0
    return q


def _our_divide(board, player: int) -> dict[str, int]:
    b = list(board)
    out = {}
    for f, t in legal_moves(b, player):
        q = _make(b, (f, t))
        out[move_to_iccs(f, t)] = count_legal(b, 1 - player)
        b[f], b[t] = b[t], q
    return out


def _our_perft(b: list, player: int, depth: int) -> int:
    if depth == 1:
        return count_legal(b, player)
    n = 0
    for f, t in legal_moves(b, player):
        q = _make(b, (f, t))
        n += _our_perft(b, 1 - player, depth - 1)
        b[f], b[t] = b[t], q
    return n


# Sparse starts where the generals share a file and pins against the facing rule are common.
_SPARSE_STARTS = [
    "3k5/9/9/9/4c4/9/9/4R4/4A4/4K4 w - - 0 1",
    "4k4/4a4/9/9/9/2n6/9/3C5/9/3K5 w - - 0 1",
    "2b1k4/4a4/4b4/p5p2/9/2P3r2/9/4B4/4A4/3AK4 w - - 0 1",
    "5k3/9/3N5/9/9/9/9/5R3/3p5/4K4 b - - 0 1",
]


def _random_positions(seed: int, games: int, plies: int) -> list[tuple[tuple[int, ...], int]]:
    rng = random.Random(seed)
    found = []
    for g in range(games):
        # half the games start from the opening, half from the sparse starts; and
        # half the opening games hunt captures while the other half keep the board full
        fen = _SPARSE_STARTS[g // 2 % len(_SPARSE_STARTS)] if g % 2 else START_FEN
        greed = 0.5 if g % 4 == 2 else 0.0
        board, player, _, _ = parse_fen(fen)
        b = list(board)
        for _ in range(plies):
            moves = legal_moves(b, player)
            if not moves:
                break
            captures = [mv for mv in moves if b[mv[1]]]
            mv = rng.choice(captures if captures and rng.random() < greed else moves)
            _make(b, mv)
            player = 1 - player
            if rng.random() < 0.15:
                found.append((tuple(b), player))
        found.append((tuple(b), player))
    return found


def _generals_share_file(board) -> bool:
    return general_square(board, 0) % 9 == general_square(board, 1) % 9


@pytest.fixture(scope="module")
def positions():
    return _random_positions(seed=2024, games=60, plies=80)


def test_random_positions_cover_the_tricky_cases(positions):
    assert len(positions) >= 300
    assert sum(in_check(list(b), p) for b, p in positions) >= 20
    assert sum(_generals_share_file(b) for b, _ in positions) >= 30
    assert sum(any(list(b)[t] for _, t in legal_moves(list(b), p)) for b, p in positions) >= 100
    assert sum(not legal_moves(list(b), p) for b, p in positions) >= 1  # a game ended by mate or stalemate


def test_moves_and_perft2_match_fairy_stockfish(engine, positions):
    for board, player in positions:
        fen = board_to_fen(board, player)
        theirs, _ = engine.divide(fen, 2)
        ours = _our_divide(board, player)
        assert ours == theirs, f"divide differs for {fen}: only ours {set(ours) - set(theirs)}, " \
                               f"only theirs {set(theirs) - set(ours)}"


def test_perft3_matches_fairy_stockfish(engine, positions):
    for board, player in positions[::3]:
        fen = board_to_fen(board, player)
        _, theirs = engine.divide(fen, 3)
        assert _our_perft(list(board), player, 3) == theirs, fen
