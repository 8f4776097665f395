"""Measure what each of build.spec's exclusions saves: build the bundle with none of them, then
add them one at a time in the spec's order, and print the bundle's size after each step as the
Markdown table docs/packaging.md shows.

Run: python tools/measure_bundle.py [--out build/measure]   (one PyInstaller build per step;
steps that change only what is copied reuse the cached analysis and are quicker)
"""
from __future__ import annotations

import argparse
import ast
import json
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "build.spec"


def exclusions() -> dict[str, str]:
    """name -> description, in the order build.spec lists them (read without running the spec)."""
    for node in ast.parse(SPEC.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.Assign) and any(getattr(t, "id", None) == "EXCLUSIONS" for t in node.targets):
            return {name: value[0] for name, value in ast.literal_eval(node.value).items()}
    raise SystemExit("build.spec has no EXCLUSIONS")


def bundle_size(folder: Path) -> tuple[int, int]:
    """(bytes, files) under ``folder``; symbolic links count as links."""
    total = files = 0
    for dirpath, _, names in os.walk(folder):
        for n in names:
            total += os.lstat(os.path.join(dirpath, n)).st_size
            files += 1
    return total, files


def build(active: list[str], out: Path) -> dict:
    env = dict(os.environ, ZEROBOARD_BUNDLE_EXCLUSIONS=",".join(active) or "none")
    log = out / f"build-{len(active)}.log"
    t0 = time.perf_counter()
    with open(log, "w") as f:
        subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--workpath", str(out / "work"),
                        "--distpath", str(out / "dist"), str(SPEC)], cwd=ROOT, env=env, stdout=f,
                       stderr=subprocess.STDOUT, check=True)
    seconds = time.perf_counter() - t0
    size, files = bundle_size(out / "dist" / "ZeroBoard")
    return {"exclusions": active, "bytes": size, "files": files, "build_seconds": round(seconds, 1)}


def table(rows: list[dict], names: dict[str, str]) -> str:
    mb = 1e6
    lines = ["| step | left out | bundle | saved |", "|---|---|---:|---:|"]
    prev = None
    for i, r in enumerate(rows):
        if i == 0:
            what = "nothing (the app's code and data, torch as its hooks collect it)"
        else:
            name = r["exclusions"][-1]
            what = f"`{name}`: {names[name]}"
        saved = "" if prev is None else f"{(prev - r['bytes']) / mb:.0f} MB"
        lines.append(f"| {i} | {what} | {r['bytes'] / mb:.0f} MB | {saved} |")
        prev = r["bytes"]
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", default=str(ROOT / "build" / "measure"), help="work and dist folders, logs, results")
    p.add_argument("--from-step", type=int, default=0, help="skip the steps before this one (results kept)")
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    names = exclusions()
    order = list(names)
    results_path = out / "results.json"
    rows = json.loads(results_path.read_text()) if results_path.exists() and args.from_step else []
    rows = rows[:args.from_step]
    for k in range(args.from_step, len(order) + 1):
        row = build(order[:k], out)
        rows.append(row)
        results_path.write_text(json.dumps(rows, indent=1))
        print(f"step {k} ({row['exclusions'][-1] if k else 'none'}): {row['bytes'] / 1e6:.1f} MB, "
              f"{row['files']} files, built in {row['build_seconds']} s", flush=True)
    print(table(rows, names))
    return 0


if __name__ == "__main__":
    sys.exit(main())
