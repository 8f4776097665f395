"""Othello's solver threshold in play: the same player with two or more `SOLVE_EMPTIES`, each
against the same opponent on the same balanced openings, interleaved opening by opening.

For each opening (``random_openings``: ``--plies`` uniformly random moves, seeded) every
threshold in turn (the order alternating from one opening to the next, so that the machine's
other load falls on all alike) plays two games against ``--b``, one with each colour, the
solver's tables cleared before each threshold's pair. Player A's CPU seconds for each of its
moves (time.process_time of this process: the search and its solves; an engine opponent runs in
its own process) are kept with the game. Each game is one JSON line in ``--out``: the threshold,
the opening's index, who was first, the start, the moves, the result for A, the end and A's
CPU per move. A run that stops resumes: openings whose games are all in ``--out`` are skipped.

``--summary`` reads one or more such files and prints, per threshold, A's score and its
slowest move, and for each threshold against the first the paired difference (per opening,
the threshold's points in its two games minus the first threshold's) with its standard error,
over the openings every threshold finished.

    python tools/othello_solve_match.py --a "level:strong?cap=0" \\
        --b "nboard:/tmp/refengines/egaroucid/nboard-egaroucid-web 7@depth7" \\
        --thresholds 12 14 --openings 20 --seed 1 --out games.jsonl
    python tools/othello_solve_match.py --summary games.jsonl [more.jsonl ...]
"""
from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


class Timed:
    """A player whose ``choose`` calls' CPU seconds are noted in ``times``."""

    def __init__(self, player):
        self.player = player
        self.times: list[float] = []

    def reset(self):
        self.player.reset()

    def choose(self, state):
        start = time.process_time()
        result = self.player.choose(state)
        self.times.append(round(time.process_time() - start, 4))
        return result


def read_games(paths: list[str]) -> list[dict]:
    out = []
    for path in paths:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise SystemExit(f"cannot read {path}: {e.strerror or e}")
        for n, line in enumerate(text.splitlines(), 1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
                rec["threshold"], rec["opening"], rec["result"]   # noqa: B018 (the fields a summary needs)
            except (ValueError, KeyError, TypeError):
                print(f"{path}:{n}: not a game record, skipped", file=sys.stderr)
                continue
            rec["file"] = path
            out.append(rec)
    return out


def summarise(records: list[dict]) -> dict:
    """Per threshold: games, score, A's slowest move; per later threshold: the paired difference."""
    by = {}   # (file, opening) -> threshold -> [points]
    moves = {}
    for r in records:
        by.setdefault((r["file"], r["opening"]), {}).setdefault(r["threshold"], []).append(POINTS.get(r["result"], 0.0))
        moves.setdefault(r["threshold"], []).extend(r.get("a_cpu_s", []))
    thresholds = list(dict.fromkeys(r["threshold"] for r in records))   # in the order first met
    complete = {k: v for k, v in by.items() if all(len(v.get(t, [])) == 2 for t in thresholds)}
    out = {"openings": len(complete), "arms": {}}
    for t in thresholds:
        pts = [p for v in complete.values() for p in v[t]]
        cpu = sorted(moves.get(t, []))
        out["arms"][str(t)] = {"games": len(pts), "score": round(sum(pts) / len(pts), 4) if pts else None,
                               "wins": pts.count(1.0), "draws": pts.count(0.5), "losses": pts.count(0.0),
                               "moves": len(cpu), "cpu_s_median": round(statistics.median(cpu), 3) if cpu else None,
                               "cpu_s_p95": round(cpu[int(round(0.95 * (len(cpu) - 1)))], 3) if cpu else None,
                               "cpu_s_max": round(cpu[-1], 3) if cpu else None,
                               "moves_over_1s": sum(c > 1.0 for c in cpu)}
    base = thresholds[0] if thresholds else None
    for t in thresholds[1:]:
        diffs = [sum(v[t]) / 2 - sum(v[base]) / 2 for v in complete.values()]
        if len(diffs) >= 2:
            mean, se = statistics.fmean(diffs), statistics.stdev(diffs) / math.sqrt(len(diffs))
            out[f"{t}_minus_{base}"] = {"openings": len(diffs), "mean": round(mean, 4), "se": round(se, 4),
                                        "passes_score_bar": mean > -se}
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--summary", nargs="+", metavar="GAMES", help="summarise these game files and stop")
    ap.add_argument("--a", default="level:strong?cap=0", help="player A's spec (main.py arena's)")
    ap.add_argument("--b", help="the opponent's spec")
    ap.add_argument("--thresholds", type=int, nargs="+", default=[12, 14])
    ap.add_argument("--openings", type=int, default=20)
    ap.add_argument("--plies", type=int, default=4, help="random plies of each opening")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", help="the game records (JSON lines), appended to")
    args = ap.parse_args()
    if args.summary:
        print(json.dumps(summarise(read_games(args.summary)), indent=1))
        return 0
    if not args.b or not args.out:
        ap.error("--b and --out are needed to play")
    if any(not 0 <= t <= 64 for t in args.thresholds) or args.openings < 1 or args.plies < 1:
        ap.error("thresholds 0-64, --openings and --plies at least 1")
    import games.othello as oth
    from engine.commands.specs import SpecError, close_player, player_from_spec
    from engine.play.arena import game_record, play_match, random_openings
    from games import get_game
    game = get_game("othello")
    done = set()
    out = Path(args.out)
    if out.exists():
        for r in read_games([str(out)]):
            done.add((r["threshold"], r["opening"], r.get("a_first")))
    openings = random_openings(game, args.openings, args.plies, args.seed)
    try:
        a = Timed(player_from_spec(game, args.a, seed=args.seed, opening_plies=0))
        b = player_from_spec(game, args.b, seed=args.seed + 1, opening_plies=0)
    except SpecError as e:
        raise SystemExit(f"bad player spec: {e}")
    try:
        with out.open("a", encoding="utf-8") as records:
            for k, opening in enumerate(openings):
                order = args.thresholds if k % 2 == 0 else args.thresholds[::-1]
                for t in order:
                    if (t, k, True) in done and (t, k, False) in done:
                        continue
                    oth.SOLVE_EMPTIES = t
                    if oth._core is not None:
                        oth._core.solve_clear()
                    oth._SOLVED.clear()

                    def on_record(i, a_first, start, final, actions, outcome, t=t, k=k):
                        line = {"threshold": t, "opening": k, "a_first": a_first,
                                **game_record(start, final, actions, outcome), "a_cpu_s": a.times}
                        records.write(json.dumps(line) + "\n")
                        records.flush()
                        a.times = []
                        print(f"opening {k} threshold {t} A first {a_first}: {outcome}, A's slowest move "
                              f"{max(line['a_cpu_s'], default=0):.2f} s CPU", file=sys.stderr, flush=True)
                    a.times = []
                    play_match(game, a, b, 2, openings=[opening], on_record=on_record)
    finally:
        close_player(a.player)
        close_player(b)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
