"""Benchmark: how the weak levels err. For each level, as it plays (and with ``--variants``, a
sampling search also without its `Level.tolerance`):

- its score against a simple player (``--opponent``: ``rollout<N>``, the random-playout search
  of `engine.play.players.rollout_player`, or ``greedy`` where the game has a heuristic), over
  ``--games`` games with alternating colours, with wins, draws and losses;
- the blunders it could have seen at once, counted over all its moves in those games: wins at
  once missed, wins at once allowed where a move would have stopped them, and material put
  within the opponent's captures where a move would not have (xiangqi; `blunders`);
- with ``--judged-games``, its rate of large errors: moves that lose at least 20% of win rate by
  a judge's reckoning (the shipped model searched at the ``max`` level's settings, capped at
  ``--judge-seconds`` a position), over the level's moves in that many of the games.

Prints one JSON line per level and variant.

    python benchmarks/weak_levels.py [--game connect4] [--levels beginner easy] [--games 40]
                                     [--judged-games 8] [--judge-seconds 0.5] [--opponent rollout200]
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def opponent(game, spec: str, seed: int):
    from engine.play.baselines import GreedyPlayer
    from engine.play.players import rollout_player
    if spec == "greedy":
        return GreedyPlayer(game, seed=seed)
    if spec.startswith("rollout"):
        return rollout_player(game, int(spec[len("rollout"):] or 200), seed=seed)
    raise SystemExit(f"unknown opponent {spec!r}")


def play(game, level_player, other, level_first: bool):
    """(the level's score, [(state before, action) of the level's moves])."""
    state = game.initial_state()
    players = (level_player, other) if level_first else (other, level_player)
    for p in players:
        p.reset()
    moves = []
    while not state.is_terminal():
        p = players[state.current_player]
        action = int(p.choose(state).action)
        if p is level_player:
            moves.append((state, action))
        state = state.apply(action)
    w = state.winner()
    me = 0 if level_first else 1
    return (0.5 if w is None else float(w == me)), moves


def judge_value(judge, state) -> float:
    """The judge's value of ``state`` for its player to move (-1..1); exact when it is over."""
    if state.is_terminal():
        w = state.winner()
        return 0.0 if w is None else (1.0 if w == state.current_player else -1.0)
    judge.reset()
    r = judge.choose(state)
    return float(r.proven) if getattr(r, "proven", None) is not None else float(r.value)


#: a loss of this much win rate (0..1) is a large error (issue 52)
LARGE = 0.2


def is_large_error(judge, before, action) -> bool:
    """Whether ``action`` in ``before`` loses at least `LARGE` of win rate by the judge's values
    ((value before - value after) / 2 on the -1..1 scale, both for the mover)."""
    return (judge_value(judge, before) + judge_value(judge, before.apply(action))) / 2 >= LARGE


def blunders(before, action) -> tuple[int, int, int]:
    """(missed, allowed, hung) for one move: 1 where it misses a win at once, lets the opponent
    win at once where another move would not, or puts material within the opponent's captures
    (the game's ``hanging_loss``, at least `HANGING_MATERIAL`) where another move that allows
    no win at once would not."""
    from engine.play.players import HANGING_MATERIAL, wins_at_once
    me = before.current_player
    after = before.apply(action)
    if wins_at_once(before):
        return int(not (after.is_terminal() and after.winner() == me)), 0, 0
    holds = {}
    for a in before.legal_actions():
        child = before.apply(a)
        holds[a] = child.is_terminal() or child.current_player == me or not wins_at_once(child)
    allowed = int(not holds[action] and any(holds.values()))
    hanging = getattr(before, "hanging_loss", None)
    hung = 0
    if hanging is not None and hanging(action) >= HANGING_MATERIAL:
        hung = int(any(ok and hanging(a) < HANGING_MATERIAL for a, ok in holds.items()))
    return 0, allowed, hung


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="connect4")
    p.add_argument("--levels", nargs="+", default=["beginner", "easy"])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--judged-games", type=int, default=0,
                   help="games whose moves the judge rates (default none: benchmarks/level_errors.py "
                        "judges the levels' rating games)")
    p.add_argument("--judge-seconds", type=float, default=0.5)
    p.add_argument("--opponent", default="rollout200")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--variants", action="store_true",
                   help="a searching level also without its tolerance (any visited move)")
    args = p.parse_args(argv)
    from engine.play.players import LEVEL_SETTINGS, MCTSPlayer, load_evaluator, make_player, play_search_config
    from games import get_game
    game = get_game(args.game)
    judge = None
    if args.judged_games:
        evaluator, _ = load_evaluator(game)
        judge = MCTSPlayer(game, evaluator, sims=LEVEL_SETTINGS["max"].sims, seconds=args.judge_seconds,
                           config=play_search_config(game), reuse=False)
    for level in args.levels:
        lv = LEVEL_SETTINGS[level]
        variants = ["as the level plays"]
        if args.variants and lv.tolerance is not None:
            variants.append("any visited move")
        for variant in variants:
            t0 = time.process_time()
            player = make_player(game, level, seed=args.seed)
            if variant == "any visited move":
                player.tolerance = None
            player.rng = np.random.default_rng(args.seed)
            other = opponent(game, args.opponent, args.seed)
            score, judged, large, moves_seen = 0.0, 0, 0, 0
            wdl = [0, 0, 0]
            missed = allowed = hung = 0
            for g in range(args.games):
                s, moves = play(game, player, other, level_first=g % 2 == 0)
                score += s
                wdl[0 if s == 1.0 else 1 if s == 0.5 else 2] += 1
                for before, action in moves:
                    moves_seen += 1
                    m, a, h = blunders(before, action)
                    missed, allowed, hung = missed + m, allowed + a, hung + h
                if g < args.judged_games:
                    for before, action in moves:
                        judged += 1
                        large += is_large_error(judge, before, action)
            line = {"game": args.game, "level": level, "variant": variant,
                    "settings": {"visits": lv.sims, "glance": lv.glance, "glance_prior": lv.glance_prior,
                                 "temperature": lv.temperature, "tolerance": lv.tolerance},
                    "opponent": args.opponent, "games": args.games, "wins_draws_losses": wdl,
                    "score": round(score / args.games, 3), "moves": moves_seen,
                    "missed_wins_at_once": missed, "allowed_wins_at_once": allowed, "material_put_en_prise": hung}
            if judge is not None:
                line.update({"judged_moves": judged, "large_errors": large,
                             "large_error_rate": round(large / max(1, judged), 3),
                             "judge": f"max settings, {args.judge_seconds} s a position"})
            line.update({"cpu_s": round(time.process_time() - t0, 1), "date": time.strftime("%Y-%m-%d")})
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
