"""usage: python docs/runs/gomoku-effort-2026-12-02/escape.py GAMES.jsonl LOST_GAMES THREES,BUDGET: the moves only
the deeper VCT flags, and whether an alternative was left unrefuted (rule.md)."""
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from vctdepth import own_moves  # noqa: E402

SHALLOW = (3, 600)


def main() -> None:
    path, limit = sys.argv[1], int(sys.argv[2])
    deep = tuple(int(x) for x in sys.argv[3].split(","))
    flagged = escapable = cpu = 0
    games, saved = set(), set()
    for rec, i, mv, s, child in own_moves(path, limit):
        games.add(rec["game"])
        if child.is_terminal() or child.vct(*SHALLOW) is not None or child.vct(*deep) is None:
            continue
        flagged += 1
        t0 = time.process_time()
        esc = [a for a in s.legal_actions() if (c := s.apply(a)).is_terminal() or c.vct(*deep) is None]
        cpu += time.process_time() - t0
        if esc:
            escapable += 1
            if rec["game"] not in saved:
                saved.add(rec["game"])
                print(f"game {rec['game']} ply {i}: played {mv} flagged; {len(esc)} escapes e.g. "
                      f"{[s.action_to_text(a) for a in esc[:5]]}", flush=True)
    print("loss games", len(games), "flagged moves", flagged, "with an escape (unrefuted alternative)", escapable,
          "games with a flagged escapable move", len(saved), "cpu %.1f" % cpu)


if __name__ == "__main__":
    main()
