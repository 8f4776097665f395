"""How often the capture look-ahead's phantom captures changed its result (from the project root).

usage: python docs/runs/xiangqi-capture-fix-2026-11-28/phantoms.py

Replays the first 40 games of docs/runs/ab-xiangqi-deep/judge/base-s1.games.jsonl and, at every
position, compares `capture_gain` with the fixed capture generator and with the old one (the fixed
one plus the elephant-shaped captures the old code gave every advisor and soldier)."""
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
import games.xiangqi_moves as xm  # noqa: E402
from games import get_game  # noqa: E402

FIXED = xm.pseudo_captures


def old_captures(b, player):
    """The generator before 2026-11-28: advisors and soldiers also captured like elephants."""
    out = FIXED(b, player)
    s = xm.SIGN[player]
    for f in range(xm.NUM_SQUARES):
        if b[f] * s in (xm.ADVISOR, xm.SOLDIER):
            for eye, t in xm.ELEPHANT_MOVES[player][f]:
                if not b[eye] and b[t] * s < 0:
                    out.append((xm.CAPTURE_VALUES[-b[t] * s] * 100 - b[f] * s, f, t))
    out.sort(reverse=True)
    return out


def main() -> None:
    game = get_game("xiangqi")
    lines = (ROOT / "docs/runs/ab-xiangqi-deep/judge/base-s1.games.jsonl").read_text().splitlines()[:40]
    positions = changed = 0
    for line in lines:
        record = json.loads(line)
        state = game.state_from_text(record["start"])
        for move in record["moves"]:
            state = state.apply(state.parse_action(move))
            if state.is_terminal():
                break
            board, player = list(state.board), state.current_player
            xm.pseudo_captures = FIXED
            fixed = xm.capture_gain(board, player)[0]
            xm.pseudo_captures = old_captures
            old = xm.capture_gain(board, player)[0]
            xm.pseudo_captures = FIXED
            positions += 1
            changed += fixed != old
    print(f"{positions} positions, capture_gain changed in {changed} ({changed / positions:.1%})")


if __name__ == "__main__":
    main()
