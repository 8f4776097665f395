"""Benchmark: does the AI ever lose on time? The AI plays the AI under a fast time control,
through the app's own AI process (`gui.ai_client.AIClient` and `gui.ai_worker`, so the trip of
each request and answer between the processes is on the clock, as in the app), with a CPU
burner running alongside, and counts the games lost on time.

Each game starts with ``--random-plies`` seeded random moves (so the games differ); then both
sides play at ``--level`` (default ``max``: a 5 s cap and 6000 visits, so the clock, not the
level, limits the search) and plan their time from their clock exactly as the app asks
(`gui.session.GameSession._clock_request`: remaining, increment, `moves_to_go`). A side's
clock runs from the moment its request is sent until its answer arrives (the app stops the
clock then); the increment is added after each move. Prints one line per game and a summary
JSON line: the games, the losses on time (the target is 0), the least time any side had left
after a move, the longest a move took beyond its planned budget, and the load average.

    python benchmarks/clock_losses.py [--game connect4] [--games 100] [--control 10+0.1] [--burners 1]
"""
from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def _burn(stop) -> None:
    """Keep one core busy until ``stop`` is set (the "loaded machine")."""
    parent = multiprocessing.parent_process()
    x = 0
    while not stop.is_set() and (parent is None or parent.is_alive()):   # never outlives the benchmark
        for _ in range(200000):
            x += 1


def play_game(ai, game, control, level: str, rng: random.Random, random_plies: int, session: str) -> dict:
    from engine.play.clock import GameClock, clock_budget, moves_to_go
    state = game.initial_state()
    for _ in range(random_plies):
        if state.is_terminal():
            break
        state = state.apply(rng.choice(state.legal_actions()))
    from engine.play.clock import BUDGET_LAG
    clock = GameClock(control)
    least, worst_over, moves = float("inf"), 0.0, 0
    lags: list[float] = []   # as the app measures them (gui.session: ai_lags)
    while not state.is_terminal():
        player = state.current_player
        now = time.monotonic()
        clock.start(player, now)
        request = {"remaining": clock.left[player], "increment": control.increment,
                   "periods": clock.periods_left[player] if control.period else 0, "period": control.period,
                   "moves": moves_to_go(game, len(state.moves)), "lag": max([BUDGET_LAG] + lags[-8:])}
        budget = clock_budget(request["remaining"], control.increment, request["moves"], control.period,
                              request["periods"], lag=request["lag"])
        answer: dict = {}

        def on_reply(msg, answer=answer):
            if msg.get("type") in ("result", "error", "cancelled"):
                answer.update(msg, at=time.monotonic())
        rid = ai.search(state, level, None, session, on_reply, clock=request)
        if rid is None and not answer:
            raise RuntimeError("the AI could not be asked")
        while not answer:
            ai.poll()
            if clock.check_flag(time.monotonic()) is not None:
                ai.cancel(rid)
                return {"result": "time", "loser": player, "moves": moves, "least": 0.0,
                        "worst_over": max(worst_over, time.monotonic() - now - budget)}
            time.sleep(0.002)
        if answer.get("type") != "result":
            raise RuntimeError(f"the AI failed: {answer.get('message')}")
        worst_over = max(worst_over, answer["at"] - now - budget)
        if answer.get("planned") is not None and 0 <= answer["at"] - now - answer["planned"] < 30:
            lags = (lags + [answer["at"] - now - answer["planned"]])[-8:]
        if not clock.press(player, answer["at"]):
            return {"result": "time", "loser": player, "moves": moves, "least": 0.0, "worst_over": worst_over}
        least = min(least, clock.left[player] - control.increment)
        state = state.apply(int(answer["action"]))
        moves += 1
    return {"result": "end", "winner": state.winner(), "moves": moves, "least": least, "worst_over": worst_over}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--game", default="connect4")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--control", default="10+0.1", help="time control, e.g. 10+0.1 (seconds)")
    p.add_argument("--level", default="max")
    p.add_argument("--burners", type=int, default=1, help="busy processes alongside (the load)")
    p.add_argument("--random-plies", type=int, default=2)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--threads", type=int, default=1, help="the AI's search threads")
    args = p.parse_args(argv)
    from engine.play.clock import parse_control
    from games import get_game
    from gui.ai_client import AIClient
    control = parse_control(args.control)
    if control is None or not control.timed:
        p.error(f"not a time control: {args.control!r}")
    game = get_game(args.game)
    ctx = multiprocessing.get_context("spawn")
    stop = ctx.Event()
    burners = [ctx.Process(target=_burn, args=(stop,), daemon=True) for _ in range(args.burners)]
    for b in burners:
        b.start()
    ai = AIClient("engine.play.players:make_player")
    ai.threads = args.threads
    ai.start()
    rng = random.Random(args.seed)
    load_before = os.getloadavg()[0]
    lost, least, worst, t0 = 0, float("inf"), 0.0, time.monotonic()
    try:
        # as the app does before a timed game's clocks run: the AI loads its model first
        ready: dict = {}
        ai.prepare(game.initial_state(), args.level, None, "bench-prepare", lambda msg: ready.update(msg))
        deadline = time.monotonic() + 300
        while not ready and time.monotonic() < deadline:
            ai.poll()
            time.sleep(0.05)
        if ready.get("type") != "prepared":
            raise SystemExit(f"the AI did not get ready: {ready}")
        print(json.dumps({"prepared_s": round(ready.get("seconds", 0.0), 2)}), flush=True)
        for g in range(args.games):
            r = play_game(ai, game, control, args.level, rng, args.random_plies, f"bench-{g}")
            lost += r["result"] == "time"
            least = min(least, r["least"])
            worst = max(worst, r["worst_over"])
            print(json.dumps({"game": g + 1, **r, "lost_so_far": lost}), flush=True)
    finally:
        ai.close()
        stop.set()
        for b in burners:
            b.join(2)
    print(json.dumps({"summary": True, "game": args.game, "control": control.text(), "level": args.level,
                      "games": args.games, "lost_on_time": lost, "least_left_s": round(least, 3),
                      "worst_over_budget_s": round(worst, 3), "burners": args.burners,
                      "load_before": load_before, "load_after": os.getloadavg()[0],
                      "wall_s": round(time.monotonic() - t0, 1), "date": time.strftime("%Y-%m-%d")}))
    print(f"lost on time: {lost} of {args.games}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
