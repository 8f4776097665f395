"""The ship test of othello's training line (from the project root).

usage: python docs/runs/othello-line-2026-11-29/judge.py

Written on 2026-11-29 at 15:40 UTC, before the line had a candidate and before any of its games.

The line: the shipped network (models/othello.pt, generation 66 of the second run, 2026-11-25)
continued by self-play with models/othello.train.toml (`main.py train --game othello --run-dir
runs/othello-line --init models/othello.pt --config models/othello.train.toml`, niced, from
15:25 UTC; two workers from 15:29).

The candidate: the newest checkpoint in runs/othello-line/checkpoints at 16:35 UTC, taken by the
clock, not chosen among measured ones; copied to runs/othello-line-candidates/ with its SHA-256
written into this folder (candidate.txt) before its first game.

Its games (run.sh here): against Egaroucid's web engine, book off, at level 9 (seeds 3 and 4,
issue 57's target) and level 7 (seeds 1 and 2), 20 balanced 4-ply openings a seed, each played
with both colours, at the strong level's 2,100 visits without the time cap and with the endgame
solver from 12 empty squares: exactly how the shipped network played the same openings on
2026-11-29 (docs/runs/othello-solve/level9_seed3..4 and level7_seed1..2, threshold 12; the shipped
network's spec `model:models/othello.pt@2100` replays those games move for move). Level 9's seeds
are played first.

The rule, one look: the openings of those four seeds whose two games the candidate has finished
by 17:35 UTC count (if fewer than 40, the verdict is "not decided" and the shipped network
stays). Per opening, the candidate's points in its two games minus the shipped network's, over
two. The candidate ships when the mean of that difference is at least 1.5 standard errors above
zero. Otherwise the shipped network stays and the line goes on.

Shipping also runs the suite on the candidate (`main.py evaluate --game othello`) for
models/othello.json and re-rates the othello levels (docs/levels.md), or says which of them could
not be re-rated."""
import json
import math
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/othello-line-2026-11-29"
BASE = ROOT / "docs/runs/othello-solve"
SEEDS = {9: (3, 4), 7: (1, 2)}
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def games(path: Path, threshold: int = 12) -> dict:
    """(opening, a_first) -> (start, points) of one file's games at the threshold."""
    out = {}
    if not path.exists():
        return out
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            r = json.loads(line)
            if r["threshold"] == threshold:
                out[(r["opening"], r["a_first"])] = (r["start"], POINTS[r["result"]])
    return out


def judge() -> dict:
    diffs, per = [], {}
    for level, seeds in SEEDS.items():
        cand_pts, base_pts = [], []
        for s in seeds:
            cand = games(HERE / f"cand-level{level}-s{s}.games.jsonl")
            base = games(BASE / f"level{level}_seed{s}.games.jsonl")
            for opening in sorted({o for o, _ in cand}):
                pair = [(cand.get((opening, f)), base.get((opening, f))) for f in (True, False)]
                if any(c is None or b is None for c, b in pair):
                    continue
                if any(c[0] != b[0] for c, b in pair):
                    raise SystemExit(f"level {level} seed {s} opening {opening}: not the shipped network's opening")
                c, b = sum(p[0][1] for p in pair) / 2, sum(p[1][1] for p in pair) / 2
                cand_pts.append(c)
                base_pts.append(b)
                diffs.append(c - b)
        n = len(cand_pts)
        per[f"level {level}"] = {"openings": n,
                                 "candidate": round(statistics.fmean(cand_pts), 4) if n else None,
                                 "shipped": round(statistics.fmean(base_pts), 4) if n else None}
    out = {"openings": len(diffs), "by_level": per}
    if len(diffs) >= 2:
        mean = statistics.fmean(diffs)
        se = statistics.stdev(diffs) / math.sqrt(len(diffs))
        out.update(mean=round(mean, 4), se=round(se, 4), z=round(mean / se, 2) if se else None)
        if len(diffs) < 40:
            out["verdict"] = "not decided (fewer than 40 openings)"
        else:
            out["verdict"] = "ship" if se > 0 and mean >= 1.5 * se or se == 0 and mean > 0 else "the shipped network stays"
    return out


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    print(json.dumps(judge(), indent=1))
