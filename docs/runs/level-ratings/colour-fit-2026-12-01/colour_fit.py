"""Do the top levels' small gaps come from fitting without colours? (from the project root)

    python docs/runs/level-ratings/colour-fit-2026-12-01/colour_fit.py GAME

Fits every level game of docs/runs/level-ratings/GAME twice by maximum likelihood, with the
anchors of tools/rate_levels.py: as the levels are rated (Bradley-Terry, the side to move
after the opening ignored) and with one more free parameter, the first mover's advantage A in
Elo points, added to the rating difference of each game's first mover (as Ordo's and BayesElo's
white advantage). Each game's colours come from its .games.jsonl (`a_first`), or for a summary
written from another folder's games (the ship tests) from the files its `source` names, when
their games add up to the summary's; a summary without either counts half its games and half its
score for each colour (and says so). Both fits add the rating tool's
prior (half a draw a pairing, split between the colours). Prints A with its 95% interval, both
fits' log-likelihoods, and each current level's rating under both. Writes nothing."""
import json
import math
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[4]
sys.path.insert(0, str(ROOT))
from engine.play.bradley_terry import ELO  # noqa: E402
from tools.rate_levels import LEVELS, SCORES as SCORE, ladder, level_spec, summary_games  # noqa: E402


def rows_of(folder: Path) -> list[tuple[str, str, int, float, float]]:
    """(a, b, colour: +1 a moved first after the opening, -1 second, score of a, games)."""
    rows = []
    for f in sorted(folder.glob("*.json")):
        s = json.loads(f.read_text())
        a, b = s["a"], s["b"]
        games = summary_games(f)
        if games is not None:
            rows += [(a, b, 1 if g["a_first"] else -1, SCORE[g["result"]], 1.0) for g in games]
        else:
            print(f"  (no colours for {f.name}: split evenly)")
            half = (s["wins"] + 0.5 * s["draws"]) / 2.0
            rows += [(a, b, 1, half, s["games"] / 2.0), (a, b, -1, half, s["games"] / 2.0)]
        rows += [(a, b, 1, 0.25, 0.5), (a, b, -1, 0.25, 0.5)]   # the prior: half a draw
    return rows


def fit(rows, anchors: dict, colour: bool, iterations: int = 200):
    players = sorted({r[0] for r in rows} | {r[1] for r in rows})
    free = [p for p in players if p not in anchors]
    index = {p: i for i, p in enumerate(free)}
    k = len(free) + (1 if colour else 0)
    x = np.full(k, np.mean(list(anchors.values())) / ELO)
    if colour:
        x[-1] = 0.0

    def features(a, b, c):
        v = np.zeros(k)
        off = 0.0
        for name, sign in ((a, 1.0), (b, -1.0)):
            if name in index:
                v[index[name]] += sign
            else:
                off += sign * anchors[name] / ELO
        if colour:
            v[-1] = c
        return v, off

    design = [(features(a, b, c), s, n) for a, b, c, s, n in rows]
    for _ in range(iterations):
        grad, hess, loglik = np.zeros(k), np.zeros((k, k)), 0.0
        for (v, off), s, n in design:
            d = v @ x + off
            p = 1.0 / (1.0 + math.exp(-d))
            loglik += s * math.log(max(p, 1e-300)) + (n - s) * math.log(max(1.0 - p, 1e-300))
            grad += (s - n * p) * v
            hess -= n * p * (1.0 - p) * np.outer(v, v)
        step = np.clip(np.linalg.solve(hess, -grad), -2.0, 2.0)
        x += step
        if np.max(np.abs(step)) < 1e-10:
            break
    cov = np.linalg.inv(-hess)
    ratings = {p: (anchors[p] if p in anchors else x[index[p]] * ELO) for p in players}
    advantage = (x[-1] * ELO, 1.96 * math.sqrt(cov[-1, -1]) * ELO) if colour else None
    return ratings, advantage, loglik


def main(game: str) -> None:
    spec = ladder(game)
    rows = rows_of(ROOT / "docs/runs/level-ratings" / game)
    plain, _, ll0 = fit(rows, spec["anchors"], colour=False)
    coloured, (adv, half), ll1 = fit(rows, spec["anchors"], colour=True)
    print(f"{game}: first mover's advantage {adv:+.0f} Elo (95% interval {adv - half:+.0f} to {adv + half:+.0f}); "
          f"log-likelihood {ll0:.1f} without colours, {ll1:.1f} with ({len(rows)} rows)")
    last = {}
    for level in LEVELS:
        p = level_spec(level)
        if p not in plain:
            continue
        gaps = "".join(f"  {name} {r[p]:.0f}" + (f" (+{r[p] - last[name]:.0f})" if name in last else "")
                       for name, r in (("plain", plain), ("colour", coloured)))
        print(f"  {level:9s}{gaps}")
        last = {"plain": plain[p], "colour": coloured[p]}


if __name__ == "__main__":
    main(sys.argv[1])
