"""Which distilled student a rule judges, and each one's runtime (docs/runs/*-narrow-*/rule.md):
from the JSON lines `tools/distil_measure.py` wrote for each student (the last line of each file),
the student that agrees more with the shipped network's first choice on its own positions is
judged (on a tie the one with the smaller value difference); each plays in static int8 with the
second look where that passes the accuracy bar against its own float32, else in float32.

    python tools/distil_pick.py runs/narrow2/C-measure.jsonl runs/narrow2/D-measure.jsonl
    python tools/distil_pick.py --judge I runs/onpolicy/I-measure.jsonl runs/onpolicy/J-measure.jsonl

``--judge NAME``: a rule that names the judged student beforehand (the one whose teaching it
tests) rather than leaving it to the agreement.

Prints one line a student, the judged one first: NAME RUNTIME judged|record, NAME being the file
name up to its first '-'.
"""
import json
import sys
from pathlib import Path


def main(paths: list[str]) -> None:
    named = None
    if paths[:1] == ["--judge"] and len(paths) >= 2:
        named, paths = paths[1], paths[2:]
    if not paths:
        raise SystemExit(__doc__)
    m = {Path(p).name.split("-")[0]: json.loads(Path(p).read_text().strip().splitlines()[-1]) for p in paths}

    def agreement(name: str) -> tuple[float, float]:
        a = m[name]["accuracy"]["student fp32 vs shipped fp32"]
        return a["same_top_move"], -a["mean_value_diff"]

    if named is not None and named not in m:
        raise SystemExit(f"--judge {named}: no such student among {sorted(m)}")
    judged = named if named is not None else max(m, key=agreement)
    for name in sorted(m, key=lambda s: s != judged):
        rt = "int8-checked" if m[name]["accuracy"]["student int8-checked"]["passes_bar"] else "fp32"
        print(name, rt, "judged" if name == judged else "record")


if __name__ == "__main__":
    main(sys.argv[1:])
