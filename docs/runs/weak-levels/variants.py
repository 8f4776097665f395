"""The weak levels against the simple players, with their visits, temperature and tolerance changed
(2026-11-29; docs/levels.md). usage: python docs/runs/weak-levels/variants.py GAME OPPONENT GAMES SIMS,TEMP,TOL[,PTEMP] ...
(PTEMP: the search's policy temperature, the priors taken to the power 1/PTEMP; MODEL in the
environment: another model than the shipped one)"""
import json, os, sys, time
import numpy as np
ROOT = __import__("pathlib").Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))
from weak_levels import play, opponent
from engine.play.players import make_player
from games import get_game
gid, opp, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
for spec in sys.argv[4:]:
    sims, temp, tol, *rest = spec.split(",")
    ptemp = float(rest[0]) if rest else 1.0
    game = get_game(gid)
    player = make_player(game, "beginner", seed=1, model_path=os.environ.get("MODEL") or None)
    player.sims = int(sims); player.temperature = float(temp); player.tolerance = None if tol == "none" else float(tol)
    player.rng = np.random.default_rng(1)
    if ptemp != 1.0:
        import dataclasses
        player.mcts.cfg = dataclasses.replace(player.mcts.cfg, policy_temperature=ptemp)
    other = opponent(game, opp, 1)
    t = time.process_time(); score = 0.0
    for g in range(games):
        s, _ = play(game, player, other, level_first=g % 2 == 0); score += s
    print(json.dumps({"game": gid, "sims": sims, "temp": temp, "tol": tol, "ptemp": ptemp, "model": os.environ.get("MODEL") or "shipped", "opp": opp, "games": games,
                      "score": round(score / games, 3), "cpu_s": round(time.process_time() - t, 1)}), flush=True)
