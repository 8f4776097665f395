# The glancing level's settings against a simple player (docs/levels.md, "The glancing weak levels"):
#   python docs/runs/weak-levels/glance_sweep.py GAME OPPONENT GAMES GLANCES PRIOR_SHARES   e.g. othello greedy 100 1,2 0,0.25,0.5
import json, sys, time
ROOT = __import__('pathlib').Path(__file__).resolve().parents[3]; sys.path.insert(0, str(ROOT)); sys.path.insert(0, str(ROOT / 'benchmarks'))
import numpy as np
from weak_levels import opponent, play
from engine.play.players import make_player
from games import get_game
game = get_game(sys.argv[1]); opp = sys.argv[2]; games = int(sys.argv[3])
for k in [int(x) for x in sys.argv[4].split(',')]:
    for share in [float(x) for x in sys.argv[5].split(',')]:

        t = time.process_time()
        pl = make_player(game, 'beginner', seed=1); pl.glance = k; pl.glance_prior = share; pl.rng = np.random.default_rng(1)
        other = opponent(game, opp, 1)
        score = 0.0; wdl = [0, 0, 0]
        for g in range(games):
            s, _ = play(game, pl, other, level_first=g % 2 == 0); wdl[{1.0:0,0.5:1,0.0:2}[s]] += 1
            score += s
        print(json.dumps({"game": sys.argv[1], "opp": opp, "glance": k, "prior_share": share, "games": games,
                          "score": round(score / games, 3), "wdl": wdl, "cpu": round(time.process_time() - t, 1)}), flush=True)
