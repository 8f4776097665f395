"""models/othello.json for the othello network shipped by this folder's judge.py (from the
project root).

usage: python docs/runs/othello-line-2026-11-29/report.py [--write]

The suite was measured on the candidate's file before it shipped (`main.py evaluate --game othello
--model CANDIDATE --games 20 --out docs/runs/othello-line-2026-11-29/suite.json`); models/othello.pt
is that file (checked by the SHA-256 in candidate.txt). With --write the suite's report becomes
models/othello.json under the shipped file's name, keeping what the file holds beside the suite
(the strong level's visits; the levels, which tools/rate_levels.py --write rewrites after the
re-rating), and the ship test's match against Egaroucid's level 9 goes in beside it. Without
--write it prints the ship test's matches (levels 9 and 7)."""
import hashlib
import json
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/othello-line-2026-11-29"
ENGINE = ("Egaroucid's web-edition engine (github Nyanyan/Egaroucid at 8a98e5a, src/web, its evaluation "
          "compiled in; book left out at compile time and use_book false; single thread), built natively "
          "behind a small NBoard front end that calls its ai() at the level")
JUDGE = runpy.run_path(str(HERE / "judge.py"))   # its seeds per level and its points per result


def candidate() -> dict:
    """candidate.txt: ``generation N``, ``file PATH`` and ``sha256 HEX`` lines."""
    out = {}
    for line in (HERE / "candidate.txt").read_text(encoding="utf-8").splitlines():
        key, _, value = line.partition(" ")
        if key in ("generation", "file", "sha256"):
            out[key] = value.strip()
    return out


def matches(generation: str) -> list[dict]:
    out = []
    for level, seeds in JUDGE["SEEDS"].items():
        results = []
        for s in seeds:
            path = HERE / f"cand-level{level}-s{s}.games.jsonl"
            if path.exists():
                results += [json.loads(x)["result"] for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]
        if not results:
            continue
        wins, draws, losses = results.count("win"), results.count("draw"), results.count("loss")
        out.append({
            "opponent": f"egaroucid-web-level{level}", "label": f"Egaroucid (web engine) at level {level}, book off",
            "spec": f"nboard:nboard-egaroucid-web {level}@depth{level}",
            "wins": wins, "draws": draws, "losses": losses, "games": len(results),
            "score": round(sum(JUDGE["POINTS"][r] for r in results) / len(results), 4),
            "player": "level:strong?cap=0", "balanced_openings": 4, "engine": ENGINE,
            "method": (f"python docs/runs/othello-line-2026-11-29/run.sh l{level}:{seeds[0]} l{level}:{seeds[1]} "
                       f"(tools/othello_solve_match.py): 20 openings of 4 uniformly random moves a seed (seeds "
                       f"{seeds[0]} and {seeds[1]}), each played from both sides, generation {generation} of the "
                       "othello line at the strong level's 2,100 visits without the time cap, with the endgame "
                       "solver from 12 empty squares; the ship test of judge.py"),
            "measured": "2026-11-29"})
    return out


def report() -> dict:
    cand = candidate()
    shipped = ROOT / "models/othello.pt"
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    if digest != cand["sha256"]:
        raise SystemExit(f"models/othello.pt is not the candidate of candidate.txt (SHA-256 {digest})")
    rep = json.loads((HERE / "suite.json").read_text(encoding="utf-8"))
    old = json.loads((ROOT / "models/othello.json").read_text(encoding="utf-8"))
    rep["model"]["file"] = shipped.name
    rep["evaluator"] = rep["evaluator"].replace(Path(cand["file"]).name, shipped.name)
    from engine.commands.evaluate import KEPT_KEYS
    for key in KEPT_KEYS + ("levels",):
        if key in old:
            rep[key] = old[key]
    # level 9 only (issue 57's rung): the home card lists every engine match the report holds, and
    # two Egaroucid levels do not fit it at 1024x640; level 7's games are in judge.txt and the docs
    extra = [m for m in matches(cand["generation"]) if m["opponent"] == "egaroucid-web-level9"]
    rep["results"]["matches"] += extra
    rep["summary"] += "; " + "; ".join(
        f"{m['score']:.1%} vs Egaroucid's web engine at level {m['opponent'][-1]}, book off ({m['wins']} wins, "
        f"{m['draws']} draws, {m['losses']} losses in {m['games']} games from balanced openings)" for m in extra)
    return rep


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "--write" in sys.argv[1:]:
        (ROOT / "models/othello.json").write_text(json.dumps(report(), indent=2, ensure_ascii=False) + "\n",
                                                  encoding="utf-8")
    print(json.dumps(matches(candidate().get("generation", "?")), indent=1))
