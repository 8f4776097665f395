"""Add the shipped connect4 network's figures without the endgame solver to models/connect4.json
after the suite (`main.py evaluate --game connect4 --out models/connect4.json`) has written it
(from the project root).

usage: python docs/runs/connect4-line-2026-11-28/report.py [--write]

Reads g95.txt here (`measure.sh`: docs/runs/ab-connect4-ro/c4_errors.py at 800 visits with
ZEROBOARD_CONNECT4_SOLVE_EMPTIES=0, one line a set) and g309.txt (the network shipped before,
measured the same way), and sets the report's ``without_endgame_solver`` and ``machine_note``."""
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/connect4-line-2026-11-28"
REPORT = ROOT / "models/connect4.json"
SETS = {"Test_L3_R1": "end-easy", "Test_L2_R1": "middle-easy", "Test_L1_R1": "begin-easy", "Test_L2_R2": "middle-medium"}


def wrong(path: Path) -> dict:
    """Set name -> the indices of the positions whose chosen move is not optimal."""
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        m = re.search(r" (Test_\w+) sims=800 positions=0-999 errors=(\d+) .* wrong=\[([\d, ]*)\]", line)
        if m:
            out[SETS[m.group(1)]] = [int(x) for x in m.group(3).split(",") if x.strip()]
            assert len(out[SETS[m.group(1)]]) == int(m.group(2))
    assert set(out) == set(SETS.values()), f"{path}: not every set measured"
    return out


def main() -> None:
    new, old = wrong(HERE / "g95.txt"), wrong(HERE / "g309.txt")
    order = ("end-easy", "middle-easy", "begin-easy", "middle-medium")
    rates = " / ".join(f"{len(old[s]) / 10:.1f}" for s in order)
    mm_new, mm_old = set(new["middle-medium"]), set(old["middle-medium"])
    section = {
        "note": ("The same network and search without the exact endgame solutions (ZEROBOARD_CONNECT4_SOLVE_EMPTIES=0), "
                 "800 visits, docs/runs/ab-connect4-ro/c4_errors.py on this machine (ONNX Runtime), "
                 "docs/runs/connect4-line-2026-11-28/g95.txt. The previous model (generation 309), measured the same way in the "
                 f"same session (g309.txt), scored {rates}% ({len(mm_old)} errors on middle-medium; position by "
                 f"position {len(mm_new - mm_old)} only generation 95 gets wrong, {len(mm_old - mm_new)} only 309)."),
        "sets": {s: {"errors": len(new[s]), "positions": 1000, "error_rate": len(new[s]) / 1000} for s in order},
        "summary": "Benchmark error rate: " + ", ".join(f"{s} {len(new[s]) / 10:.1f}%" for s in order),
    }
    print(json.dumps(section, indent=1))
    if "--write" in sys.argv[1:]:
        report = json.loads(REPORT.read_text(encoding="utf-8"))
        report["without_endgame_solver"] = section
        report["machine_note"] = ("Measured on this project's 2-core machine with evaluate --workers 1 while a niced "
                                  "connect4 training process used the other core (the suite is fixed-work: load "
                                  "changes its time only).")
        REPORT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
