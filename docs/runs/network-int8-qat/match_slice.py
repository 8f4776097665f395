"""One slice of a balanced-openings arena match, the same games `main.py arena` plays.

    PYTHONPATH=. python docs/runs/network-int8-qat/match_slice.py --game G --a SPEC --b SPEC \
        --games 40 --balanced-openings PLIES --seed 1 --slice K --slices N --out DIR

`main.py arena --balanced-openings` draws games/2 openings from --seed and plays opening k as
games 2k and 2k+1 (A first, then B first), with players built from the specs with seeds --seed
and --seed + 1 and no sampled moves. This script draws the same openings and builds the
players the same way, and plays the openings k with k % N == K: with deterministic players
(searches at fixed visits, no sampling) the N slices together are the arena's match, played on
N cores. Writes DIR/slice-K.json (the tally) and DIR/slice-K.games.jsonl (the games).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))


def main() -> int:
    from engine.commands.cli import game_from_args
    from engine.commands.specs import player_from_spec
    from engine.core.network import configure_threads
    from engine.play.arena import play_match, random_openings
    ap = argparse.ArgumentParser()
    for name in ("--game", "--a", "--b", "--out"):
        ap.add_argument(name, required=True)
    for name in ("--games", "--balanced-openings", "--seed", "--slice", "--slices"):
        ap.add_argument(name, type=int, required=True)
    args = ap.parse_args()
    configure_threads(1)
    game = game_from_args(args.game, None, None)
    openings = random_openings(game, args.games // 2, args.balanced_openings, args.seed)
    mine = [k for k in range(len(openings)) if k % args.slices == args.slice]
    a = player_from_spec(game, args.a, seed=args.seed, opening_plies=0)
    b = player_from_spec(game, args.b, seed=args.seed + 1, opening_plies=0)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    lines = []

    def on_record(i, a_first, start, final, actions, outcome):
        state, moves = start, []
        for act in actions:
            moves.append(state.action_to_text(act))
            state = state.play(act)
        k = mine[i // 2]
        lines.append({"game": 2 * k + (0 if a_first else 1) + 1, "a_first": a_first, "start": start.to_text(),
                      "moves": moves, "result": outcome})
    t0 = time.perf_counter()
    r = play_match(game, a, b, 2 * len(mine), openings=[openings[k] for k in mine], on_record=on_record)
    (out / f"slice-{args.slice}.games.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    (out / f"slice-{args.slice}.json").write_text(json.dumps(
        {"a": args.a, "b": args.b, "openings": mine, "wins": r.wins, "draws": r.draws, "losses": r.losses,
         "games": r.games, "seconds": round(time.perf_counter() - t0, 1), "cpu_s": round(time.process_time(), 1)}) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
