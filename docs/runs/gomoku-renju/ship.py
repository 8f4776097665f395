"""Ship the renju line's final network as models/gomoku-renju.pt with its report
models/gomoku-renju.json (2026-11-29; run from the project root after judge.py says it ships).

usage: python docs/runs/gomoku-renju/ship.py CHECKPOINT (2026-11-29: runs/renju-line/latest.pt,
generation 24, copied to docs/runs/gomoku-renju/renju-latest.pt for the matches; that copy is
models/gomoku-renju.pt now)"""
import json
import math
import platform
import shutil
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
sys.path.insert(0, str(ROOT))
from engine.core.checkpoint import metadata  # noqa: E402

HERE = Path(__file__).resolve().parent
POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0}


def games(name: str) -> list:
    out = []
    for seed in (1, 2):
        path = HERE / "rapfi" / f"{name}-s{seed}.games.jsonl"
        out += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    return out


def tally(gs: list) -> dict:
    wdl = {r: sum(g["result"] == r for g in gs) for r in POINTS}
    return {"wins": wdl["win"], "draws": wdl["draw"], "losses": wdl["loss"], "games": len(gs),
            "score": round(sum(POINTS[g["result"]] for g in gs) / len(gs), 4)}


def main() -> None:
    src = Path(sys.argv[1])
    meta = metadata(src)
    if meta["game_key"] != "gomoku-renju":
        raise SystemExit(f"{src} is a {meta['game_key']} model")
    shutil.copyfile(src, ROOT / "models/gomoku-renju.pt")
    base = json.loads((ROOT / "models/gomoku.json").read_text(encoding="utf-8"))
    ours = games("renju")
    match = {"opponent": "rapfi-classical-1000-renju", "label": "Rapfi (classical evaluation, renju) at max_node 1000",
             "spec": "gomocup:pbrain-rapfi@nodes1000", "rule": "renju", **tally(ours),
             "as_black": tally([g for g in ours if g["a_first"]]), "as_white": tally([g for g in ours if not g["a_first"]]),
             "elo": None, "player": "model:models/gomoku-renju.pt@800", "balanced_openings": 3,
             "engine": base["results"]["matches"][0]["engine"].replace("INFO max_node 1000", "INFO rule 4 (renju) and INFO max_node 1000"),
             "method": ("python main.py arena --game gomoku --rule renju --a model:models/gomoku-renju.pt@800 "
                        "--b 'gomocup:PATH/pbrain-rapfi@nodes1000' --games 100 --balanced-openings 3 --seed S for "
                        "S = 1, 2 (docs/runs/gomoku-renju/run.sh): 100 openings of 3 uniformly random stones, each "
                        "played from both sides, the strong level's search at 800 visits without its time cap; "
                        "games and the judge in docs/runs/gomoku-renju/"),
             "free_style_network": {**tally(games("free")), "player": "model:models/gomoku.pt@800",
                                    "note": "the shipped free-style network under renju, the same openings"}}
    match["elo"] = round(400 * math.log10(match["score"] / (1 - match["score"])), 1)
    gen = meta["generation"]
    report = {
        "game": "gomoku-renju",
        "suite": "matches",
        "model": {"file": "gomoku-renju.pt", "generation": gen, "created": meta["created"], "game_key": "gomoku-renju"},
        "evaluator": (f"model gomoku-renju.pt (generation {gen} of the first renju line: the free-style network's "
                      "generation 115 continued by self-play under renju rules, docs/runs/gomoku-renju/line.toml)"),
        "level": "strong",
        "sims": 800,
        "strong_visits": base["strong_visits"],
        "strong_visits_method": "the free-style network's (the same network size and search): " + base["strong_visits_method"],
        "machine": {"cores": 2, "platform": platform.platform(), "python": platform.python_version()},
        "started": "2026-11-29",
        "results": {"opening_plies": 3, "matches": [match]},
        "summary": (f"{100 * match['score']:.1f}% vs Rapfi (classical evaluation, renju rules) at max_node 1000 "
                    f"({match['wins']} wins, {match['draws']} draws, {match['losses']} losses in {match['games']} games "
                    f"from 100 random openings played from both sides; as black {100 * match['as_black']['score']:.0f}%, "
                    f"as white {100 * match['as_white']['score']:.0f}%)"),
        "proofs": base["proofs"] + "; under renju, black's threats count only its legal moves (docs/rules.md)",
    }
    (ROOT / "models/gomoku-renju.json").write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(report["summary"])


if __name__ == "__main__":
    main()
