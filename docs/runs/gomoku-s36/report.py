"""Put the Rapfi match of the gomoku network shipped in session 36 into models/gomoku.json
(from the project root), once judge.py has passed it and models/gomoku.pt is ARM-latest.pt.

usage: python docs/runs/gomoku-s36/report.py ARM [--write]     (ARM: base or reply)

Reads rapfi/ARM-sS.games.jsonl (seeds 1-4, run.sh) and generation 115's games from the same
openings; prints the new report, and with --write replaces models/gomoku.json's Rapfi match,
model, evaluator and summary (the rest of the report stays)."""
import json
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from engine.core.checkpoint import metadata  # noqa: E402
from engine.play.arena import MatchResult  # noqa: E402

HERE = ROOT / "docs/runs/gomoku-s36"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))
SEEDS = (1, 2, 3, 4)
ARM = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1] in ("base", "reply") else "base"


def result(paths) -> tuple[MatchResult, list[str]]:
    total, per = MatchResult(), []
    for p in paths:
        m = MatchResult()
        for line in Path(p).read_text(encoding="utf-8").splitlines():
            if line.strip():
                r = json.loads(line)["result"]
                m.wins, m.draws, m.losses = m.wins + (r == "win"), m.draws + (r == "draw"), m.losses + (r == "loss")
                m.games += 1
        per.append(f"{100 * m.score:g}% ({m.wins}-{m.draws}-{m.losses})")
        total.add(m)
    return total, per


def paired() -> tuple[int, float, float]:
    """(openings, mean difference per game, standard error) of the candidate against 115."""
    import math
    a, b = {}, {}
    for s in SEEDS:
        a.update(RO["openings"](HERE / f"rapfi/{ARM}-s{s}.games.jsonl", s))
        b.update(RO["openings"](ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl", s))
    diffs = [(RO["points"](a[k]) - RO["points"](b[k])) / 2 for k in a if k in b]
    n, mean = len(diffs), sum(diffs) / len(diffs)
    return n, mean, math.sqrt(sum((d - mean) ** 2 for d in diffs) / (n - 1) / n)


def main() -> None:
    report = json.loads((ROOT / "models/gomoku.json").read_text(encoding="utf-8"))
    meta = metadata(ROOT / "models/gomoku.pt")
    gen = int(meta.get("generation", 0))
    old = next(m for m in report["results"]["matches"] if m["opponent"] == "rapfi-classical-1000")
    res, per = result(HERE / f"rapfi/{ARM}-s{s}.games.jsonl" for s in SEEDS)
    n, mean, se = paired()
    g115, _ = result(ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl" for s in SEEDS)
    new = dict(old)
    new.update(res.to_dict())
    new["method"] = (
        "python main.py arena --game gomoku --a model:models/gomoku.pt@800 --b 'gomocup:PATH/pbrain-rapfi@nodes1000' "
        "--games 100 --balanced-openings 3 --seed S for S = 1, 2, 3, 4 (played as slices of those matches by "
        "docs/runs/ab-gomoku-cap/rapfi_slice.py, which reproduces the arena's games: docs/runs/gomoku-s36/run.sh): "
        "200 openings of 3 uniformly random stones, each played from both sides; the strong level's search (800 "
        "visits, victory-by-threats proofs on, no sampled moves) without its 1 s cap, so that the machine's load "
        "cannot change it (the same network size as generations 30 and 115, whose 800 visits took 0.27 s a move on "
        "average and 0.50 s at most on the idle machine: docs/runs/play-search/strong_cap.py). "
        f"Per seed {', '.join(per)}; games in docs/runs/gomoku-s36/rapfi/. Generation 115, shipped before, from the "
        f"same 400 games (session 28; two of its openings replayed with session 36's code reproduced move for move): "
        f"{100 * g115.score:.1f}% ({g115.wins}-{g115.draws}-{g115.losses}); paired by opening the gain is "
        f"{100 * mean:+.1f} points per game, standard error {100 * se:.1f} (z {mean / se:.2f}, {n} openings; "
        "docs/runs/gomoku-s36/judge.py, written before the games). Earlier models from the same openings: "
        "generation 30 of the run from 75, 44.5% (176-4-220); generation 75 of the third run 38.1%")
    new["measured"] = "2026-11-28"
    report["results"]["matches"] = [new if m is old else m for m in report["results"]["matches"]]
    report["model"] = {"file": "gomoku.pt", "generation": gen, "created": meta.get("created"), "game_key": "gomoku"}
    report["evaluator"] = (f"model gomoku.pt (generation {gen} of the line from generation 115 of the run from "
                           "generation 75, session 36: the same settings, half the self-play games from 6 random stones"
                           + (", with the opponent's-reply target" if ARM == "reply" else "") + ")")
    report["summary"] = (f"{100 * res.score:.1f}% vs Rapfi with its classical evaluation at max_node 1000 ({res.wins} "
                         f"wins, {res.draws} draw{'s' * (res.draws != 1)}, {res.losses} losses in {res.games} games from "
                         "200 random openings played from both sides); rollout MCTS (2000 playouts) not re-measured "
                         "for this model (generation 100 of the first run scored 97%)")
    text = json.dumps(report, indent=2, ensure_ascii=False) + "\n"
    if "--write" in sys.argv:
        (ROOT / "models/gomoku.json").write_text(text, encoding="utf-8")
    print(text)


if __name__ == "__main__":
    main()
