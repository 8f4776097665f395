"""Issue 57's strength rungs at the strong level (run.sh, run-gomoku.sh): each match's score over
its seeds, and gomoku's by colour (from the project root).

usage: python docs/runs/strong-rungs-2026-11-29/summary.py"""
import json
from pathlib import Path

HERE = Path(__file__).resolve().parent
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def games(prefix: str) -> list[dict]:
    out = []
    for f in sorted(HERE.glob(f"{prefix}-s*.games.jsonl")):
        out += [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
    return out


def score(gs: list[dict]) -> str:
    w = sum(g["result"] == "win" for g in gs)
    d = sum(g["result"] == "draw" for g in gs)
    l = sum(g["result"] == "loss" for g in gs)
    pts = sum(POINTS[g["result"]] for g in gs)
    return f"{100 * pts / max(1, len(gs)):.1f}% ({w}-{d}-{l} over {len(gs)} games)"


def main() -> None:
    for prefix, what in (("xiangqi-elo1800", "xiangqi, strong level, against fairy-stockfish at Elo 1800, 1000 nodes"),
                         ("xiangqi-depth2", "xiangqi, strong level, against fairy-stockfish at depth 2"),
                         ("xiangqi-line90-elo1800", "xiangqi with the network shipped later on 2026-11-29 (the xiangqi "
                                                    "line's generation 90), the same at Elo 1800"),
                         ("xiangqi-line90-depth2", "the same network at depth 2"),
                         ("xiangqi-4700-elo1800", "the same network at the strong level's 4,700 visits of 2026-12-02, "
                                                  "at Elo 1800"),
                         ("xiangqi-4700-depth2", "the same at depth 2"),
                         ("othello-6900-level9", "othello, strong level at its 6,900 visits of 2026-12-02, against "
                                                 "Egaroucid's web engine at level 9, book off"),
                         ("gomoku-rapfi10k", "gomoku, strong level, against Rapfi (classical) at 10,000 nodes")):
        gs = games(prefix)
        if not gs:
            continue
        print(f"{what}: {score(gs)}")
        if prefix.startswith("gomoku"):   # after the 2 opening stones black moves: a_first is black
            print(f"  as black: {score([g for g in gs if g['a_first']])}")
            print(f"  as white: {score([g for g in gs if not g['a_first']])}")


if __name__ == "__main__":
    main()
