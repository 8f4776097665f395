"""CPU time per visit of the gomoku search under renju with the threat proofs (VCF/VCT) on and off.

    PYTHONPATH=. python benchmarks/gomoku_rule_threats_speed.py [--rule renju] [--positions 30]
        [--visits 200] [--seed 1]

The same with ``--rule freestyle`` (or standard) measures that rule's proofs the same way.

Positions: seeded random games under the rule near the centre (legal moves only), the
position after 12-40 plies, not over and not won in one. Each is searched afresh by the medium
level's player (its shipped model, one thread, ``--visits`` visits, no time cap) once with the
proofs on (as the game ships) and once with them off (``proven_value`` without its VCF, no
``vct``, ``winning_action`` or ``deep_proven_value``: under renju and standard, the code before
2026-11-28), taking turns position by position, the order alternating, so that other load falls
on both alike. Prints one JSON line: the CPU time (time.process_time) per visit of each, summed
over the positions, their ratio, the median of the per-position ratios, and the positions
either search proved (they stop early).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def positions(game, count: int, seed: int) -> list:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.initial_state()
        plies = rng.randint(12, 40)
        for _ in range(plies):
            acts = s.legal_actions()
            near = [a for a in acts if 4 <= a // 15 <= 10 and 4 <= a % 15 <= 10]
            s = s.apply(rng.choice(near or acts))
            if s.is_terminal():
                break
        if not s.is_terminal() and s.proven_value() is None:
            out.append(s)
    return out


class ProofsOff:
    """The threat proofs switched off on the rule's state class while in the block."""

    NAMES = ("vct", "winning_action", "deep_proven_value")

    def __init__(self, cls):
        self.cls = cls

    def __enter__(self):
        self.saved = {name: self.cls.__dict__.get(name) for name in ("proves_vcf",) + self.NAMES}
        self.cls.proves_vcf = False
        for name in self.NAMES:
            setattr(self.cls, name, lambda self, *a, **k: None)

    def __exit__(self, *exc):
        for name, value in self.saved.items():
            if value is None:
                delattr(self.cls, name)
            else:
                setattr(self.cls, name, value)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rule", default="renju")
    ap.add_argument("--positions", type=int, default=30)
    ap.add_argument("--visits", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    from engine.core.network import configure_threads
    from engine.play.players import make_player
    from games import get_game
    configure_threads(1)
    game = get_game("gomoku", rule=args.rule)   # free-style: plain GomokuState, its proofs as shipped
    player = make_player(game, "medium", seed=1)
    player.sims, player.seconds = args.visits, None
    load = os.getloadavg()
    rows = []
    for i, state in enumerate(positions(game, args.positions, args.seed)):
        row = {}
        for on in ((True, False) if i % 2 == 0 else (False, True)):
            player.reset()
            cpu = time.process_time()
            if on:
                result = player.choose(state)
            else:
                with ProofsOff(type(state)):
                    result = player.choose(state)
            row[on] = (time.process_time() - cpu, result.sims, result.proven is not None)
        rows.append(row)
    timed = [r for r in rows if not r[True][2] and not r[False][2] and r[True][1] and r[False][1]]
    per = {on: sum(r[on][0] for r in timed) / sum(r[on][1] for r in timed) for on in (True, False)}
    ratios = [(r[True][0] / r[True][1]) / (r[False][0] / r[False][1]) for r in timed]
    print(json.dumps({"rule": args.rule, "visits": args.visits, "date": time.strftime("%Y-%m-%d", time.gmtime()),
                      "positions": len(rows), "timed": len(timed),
                      "proved_on": sum(r[True][2] for r in rows), "proved_off": sum(r[False][2] for r in rows),
                      "cpu_ms_per_visit_on": round(per[True] * 1e3, 3),
                      "cpu_ms_per_visit_off": round(per[False] * 1e3, 3),
                      "ratio_on_off": round(per[True] / per[False], 3),
                      "median_position_ratio": round(statistics.median(ratios), 3) if ratios else None,
                      "load_before": [round(x, 2) for x in load],
                      "load_after": [round(x, 2) for x in os.getloadavg()]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
