"""Differential check of xiangqi's repetition verdicts (the chase rule) against Fairy-Stockfish.

    PYTHONPATH=. python tools/xiangqi_chase_differential.py ENGINE [--cycles 1000] [--seed 1] [--show 5]

ENGINE is a Fairy-Stockfish built with its AXF chasing rules (built from its source of
2026-07-23, commit c19b5f6: ``make build ARCH=x86-64 largeboards=yes`` in ``src/``; the Debian
package 11.1 predates them and judges chases as draws). For each random sparse position
a random four-ply cycle of quiet moves is played twice (Red, Black, Red back, Black back), so
that the start occurs for the third time with the eighth move; the moves lean towards ones that
attack something, so that chases are common. Our verdict is the state's (`winner`,
`end_reason`); the engine's is its score for the eighth move searched alone
(``go depth 1 searchmoves M`` after the first seven): a mate score for or against the mover, or
0 for a draw. Fairy-Stockfish writes ranks 1..10 where ICCS writes 0..9.

Prints one JSON line: cycles compared, how many each side judged won / lost / drawn, the
disagreements by kind, and up to ``--show`` of them (FEN and moves) on stderr.
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
from collections import Counter

PIECES = "RRHHCCPPPPPAAEErrhhccpppppaaee"


def _random_position(rng: random.Random, game):
    """A legal position with Red to move, neither side in check, 3..9 pieces besides the generals."""
    from games.xiangqi import XiangqiState
    from games.xiangqi_notation import _reachable, board_to_fen
    codes = {"A": 2, "E": 3, "H": 4, "R": 5, "C": 6, "P": 7}
    while True:
        board = [0] * 90
        board[rng.choice((3, 4, 5, 12, 13, 14, 21, 22, 23))] = 1
        board[rng.choice((84, 85, 86, 75, 76, 77, 66, 67, 68))] = -1
        for letter in rng.sample(PIECES, rng.randint(3, 9)):
            code, player = codes[letter.upper()], 0 if letter.isupper() else 1
            sq = rng.randrange(90)
            if not board[sq] and _reachable(code, player, sq % 9, sq // 9):
                board[sq] = code if player == 0 else -code
        try:
            state = XiangqiState.from_fen(game, board_to_fen(board, 0))
        except Exception:
            continue
        if not state.is_check() and not state.is_terminal() and not _black_in_check(board):
            return state


def _black_in_check(board) -> bool:
    from games.xiangqi_moves import in_check
    return in_check(list(board), 1)


def _attacks(state) -> int:
    """How many captures the side that just moved could make now (pseudo-legal): a move that
    raises it is drawn more often."""
    from games.xiangqi_moves import pseudo_moves
    mover = 1 - state.current_player
    s = 1 if mover == 0 else -1
    return sum(1 for _, t in pseudo_moves(list(state.board), mover)[0] if state.board[t] * s < 0)


def _pick(rng: random.Random, state):
    quiet = [a for a in state.legal_actions() if not state.captured(a)]
    if not quiet:
        return None
    if rng.random() < 0.7:
        scored = [(_attacks(state.apply(a)), a) for a in quiet]
        best = max(n for n, _ in scored)
        quiet = [a for n, a in scored if n == best and n > 0] or quiet
    return rng.choice(quiet)


def _cycle(rng: random.Random, game):
    """(start state, the eight ICCS moves, the final state) of a random repeated cycle, or None."""
    start = _random_position(rng, game)
    s1_action = _pick(rng, start)
    if s1_action is None:
        return None
    s1 = start.apply(s1_action)
    s2_action = _pick(rng, s1)
    if s2_action is None:
        return None
    s2 = s1.apply(s2_action)
    names = [start.action_to_text(s1_action), s1.action_to_text(s2_action)]
    names += [names[0][2:] + names[0][:2], names[1][2:] + names[1][:2]]
    state, texts = start, []
    for name in names * 2:
        if state.is_terminal():
            return None
        try:
            action = state.parse_action(name)
        except Exception:
            return None
        texts.append(name)
        state = state.apply(action)
    return (start, texts, state) if state.is_terminal() and state.repetitions() == 3 else None


def _fsf_move(iccs: str) -> str:
    return f"{iccs[0]}{int(iccs[1]) + 1}{iccs[2]}{int(iccs[3]) + 1}"


class Engine:
    def __init__(self, path: str):
        self.p = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.send("uci")
        self.wait("uciok")
        self.send("setoption name UCI_Variant value xiangqi")
        self.send("isready")
        self.wait("readyok")

    def send(self, line: str) -> None:
        self.p.stdin.write(line + "\n")

    def wait(self, prefix: str) -> list[str]:
        lines = []
        for line in self.p.stdout:
            lines.append(line.strip())
            if line.startswith(prefix):
                return lines
        raise RuntimeError("the engine stopped")

    def verdict(self, fen: str, moves: list[str]) -> int | None:
        """+1: the last move's mover wins, -1: loses, 0: a draw, None: no score read."""
        self.send("ucinewgame")
        self.send(f"position fen {fen} moves {' '.join(_fsf_move(m) for m in moves[:-1])}")
        self.send(f"go depth 1 searchmoves {_fsf_move(moves[-1])}")
        score = None
        for line in self.wait("bestmove"):
            words = line.split()
            if "score" in words:
                i = words.index("score")
                kind, value = words[i + 1], int(words[i + 2])
                score = (1 if value > 0 else -1) if kind == "mate" else (0 if value == 0 else None)
        return score

    def close(self) -> None:
        self.send("quit")
        self.p.wait(timeout=10)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("engine")
    ap.add_argument("--cycles", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--show", type=int, default=5)
    args = ap.parse_args(argv)
    from games import get_game
    game = get_game("xiangqi")
    rng = random.Random(args.seed)
    engine = Engine(args.engine)
    ours_count, theirs_count, kinds = Counter(), Counter(), Counter()
    compared, shown = 0, 0
    try:
        while compared < args.cycles:
            found = _cycle(rng, game)
            if found is None:
                continue
            start, moves, final = found
            mover = 1 - final.current_player
            ours = 0 if final.winner() is None else (1 if final.winner() == mover else -1)
            theirs = engine.verdict(start.fen(), moves)
            compared += 1
            ours_count[(ours, final.end_reason())] += 1
            theirs_count[theirs] += 1
            if ours != theirs:
                kinds[f"ours {ours} ({final.end_reason()}) / fairy {theirs}"] += 1
                if shown < args.show:
                    shown += 1
                    print(f"{start.fen()} moves {' '.join(moves)}: ours {ours} ({final.end_reason()}), "
                          f"fairy {theirs}", file=sys.stderr)
    finally:
        engine.close()
    print(json.dumps({"cycles": compared,
                      "ours": {f"{v} {r}": n for (v, r), n in sorted(ours_count.items(), key=str)},
                      "fairy": {str(k): n for k, n in sorted(theirs_count.items(), key=str)},
                      "disagreements": sum(kinds.values()), "by_kind": dict(kinds)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
