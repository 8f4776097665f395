"""The exact result, for the side to move, of each distinct 2-ply opening of Connect Four rating
games: one line an opening (the opening, its result, the CPU seconds its solve took), and all of
them in openings.json beside this script, which decided.py reads.

    python docs/runs/connect4-decided-2026-12-01/openings.py GAMES.jsonl... > openings.txt
"""
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from games import connect4, get_game  # noqa: E402


def main() -> int:
    game = get_game("connect4")
    results = {}
    for path in sorted(sys.argv[1:]):
        for line in open(path):
            start = json.loads(line)["start"]
            if start in results:
                continue
            state = game.state_from_text(start)
            cpu = time.process_time()
            results[start] = connect4.solve(state._cur, state._mask)
            print(start, results[start], round(time.process_time() - cpu, 1), flush=True)
    Path(__file__).with_name("openings.json").write_text(json.dumps(results) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
