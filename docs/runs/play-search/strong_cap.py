# usage: python docs/runs/play-search/strong_cap.py GAME GAMES_JSONL N  (from the project root; on an idle machine)
# Does the strong level's 1-second cap stop its 800-visit search short? The app's own player
# (`make_player(game, "strong")`, the shipped model, its time cap) chooses a move in N positions
# taken evenly from the AI's turns in an arena's games file, a fresh tree each time (in a game
# the tree of the move before gives a head start, so this is the harder case). Prints the
# seconds and visits of each search and the share of searches the cap cut short.
import json
import sys
import time

import numpy as np

from engine.play.players import LEVEL_SETTINGS, make_player
from games import get_game


def positions(game, path, count):
    found = []
    for line in open(path):
        rec = json.loads(line)
        start = rec.get("start", "")
        opening = start.split(" moves ", 1)[1].split() if " moves " in start else start.split()
        state = game.initial_state()
        for ply, text in enumerate(opening + rec["moves"]):
            if state.is_terminal():
                break
            ai_to_move = (ply % 2 == 0) == rec.get("a_first", True)
            if ply >= len(opening) and ai_to_move:
                found.append(state)
            state = state.apply(state.parse_action(text))
    idx = np.linspace(0, len(found) - 1, count).round().astype(int)
    return [found[i] for i in idx]


game = get_game(sys.argv[1])
states = positions(game, sys.argv[2], int(sys.argv[3]))
level = LEVEL_SETTINGS["strong"]
times, visits = [], []
player = make_player(game, "strong", seed=0)
for st in states:
    player.reset()
    t = time.perf_counter()
    res = player.choose(st)
    times.append(time.perf_counter() - t)
    visits.append(res.sims)
times, visits = np.array(times), np.array(visits)
# a proven result also ends a search early, in far less than the cap
short = int(((visits < level.sims) & (times >= 0.95 * level.seconds)).sum())
print(f"{game.key}: {len(states)} positions, strong level ({level.sims} visits, cap {level.seconds:g} s): "
      f"seconds mean {times.mean():.2f} median {np.median(times):.2f} max {times.max():.2f}; "
      f"visits min {visits.min()} mean {visits.mean():.0f}; cut short by the cap: {short} of {len(states)}")
