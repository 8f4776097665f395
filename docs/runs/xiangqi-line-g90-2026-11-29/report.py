"""models/xiangqi.json for the xiangqi network shipped on 2026-11-29 (generation 90 of the xiangqi
line, judge.py here), from the project root.

usage: python docs/runs/xiangqi-line-g90-2026-11-29/report.py [--write]

The suite was measured on the candidate's file before it shipped (`main.py evaluate --game
xiangqi --model runs/xiangqi-line-candidates/g90.pt --out suite-line90.json`); models/xiangqi.pt
is that file (checked here by its SHA-256, the one the rule names), so with --write the suite's
report becomes models/xiangqi.json under the shipped file's name, keeping what the file holds
beside the suite (the strong level's visits; the levels, which tools/rate_levels.py --write
rewrites after the re-rating), and the balanced-opening matches of this folder's games go in
beside it, as docs/runs/xiangqi-ship-2026-11-28/report.py did for the network before."""
import hashlib
import json
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = "docs/runs/xiangqi-line-g90-2026-11-29"
SHA256 = "d3b6f47d132530b315053f0598881561a60a6750b8de575d9b8c8500c541bf61"
BASE = runpy.run_path(str(ROOT / "docs/runs/xiangqi-ship-g171/balanced_report.py"))
PLAYER = "model:runs/xiangqi-line-candidates/g90.pt@800?mat=8"
WITH = ("generation 90 of the xiangqi line, shipped on 2026-11-29 (models/xiangqi.pt is this file), with "
        "the material term (xiangqi's [play] material_scale = 8, so the app's levels play so)")
MATCHES = BASE["balanced_matches"](PLAYER, HERE, "line90-s{}.games.jsonl", range(1, 9),
                                   "elo1350-line90-s{}.games.jsonl", (0, 1), "2026-11-29", WITH,
                                   "run.sh", "run.sh")


def suite_report() -> dict:
    """The suite's report of the candidate, named as the shipped file, with the entries the
    shipped report holds apart from the suite kept."""
    shipped = ROOT / "models/xiangqi.pt"
    digest = hashlib.sha256(shipped.read_bytes()).hexdigest()
    if digest != SHA256:
        raise SystemExit(f"models/xiangqi.pt is not generation 90 of the line (SHA-256 {digest})")
    report = json.loads((ROOT / HERE / "suite-line90.json").read_text(encoding="utf-8"))
    old = json.loads((ROOT / "models/xiangqi.json").read_text(encoding="utf-8"))
    report["model"]["file"] = shipped.name
    report["evaluator"] = report["evaluator"].replace("g90.pt", shipped.name)
    from engine.commands.evaluate import KEPT_KEYS
    for key in KEPT_KEYS + ("levels",):
        if key in old:
            report[key] = old[key]
    return report


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if "--write" in sys.argv[1:]:
        report = suite_report()
        (ROOT / "models/xiangqi.json").write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n",
                                                  encoding="utf-8")
    BASE["main"](MATCHES, " (2026-11-29)")
