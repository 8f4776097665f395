"""What the one-folder bundle carries, by library and package: the bundle's size and file count,
then each top-level entry of the bundle and of its _internal/ folder (folders summed; symbolic
links, which PyInstaller uses for the libraries of numpy.libs and pygame_ce.libs, count as links),
biggest first, with the biggest files inside each folder.

Run: python tools/bundle_contents.py [dist/ZeroBoard] [--top 25] [--markdown]
Sizes in MB of 10^6 bytes, as tools/measure_bundle.py reports them.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def size_of(path: Path) -> tuple[int, int]:
    """(bytes, files) of a file or a folder; links count as their own size, not their target's."""
    if path.is_symlink() or path.is_file():
        return path.lstat().st_size, 1
    total = files = 0
    for dirpath, _, names in os.walk(path):
        for n in names:
            total += os.lstat(os.path.join(dirpath, n)).st_size
            files += 1
    return total, files


def biggest_files(folder: Path, count: int) -> list[tuple[int, str]]:
    sizes = []
    for dirpath, _, names in os.walk(folder):
        for n in names:
            p = Path(dirpath, n)
            sizes.append((p.lstat().st_size, p.relative_to(folder).as_posix()))
    return sorted(sizes, reverse=True)[:count]


def entries(bundle: Path) -> list[tuple[int, int, str, Path]]:
    """(bytes, files, name, path) for the bundle's top-level entries, _internal's opened one level."""
    out = []
    for p in sorted(bundle.iterdir()):
        if p.name == "_internal" and p.is_dir() and not p.is_symlink():
            out += [(*size_of(q), f"_internal/{q.name}", q) for q in sorted(p.iterdir())]
        else:
            out.append((*size_of(p), p.name, p))
    return sorted(out, key=lambda e: (-e[0], e[2]))


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("bundle", nargs="?", default=str(ROOT / "dist" / "ZeroBoard"))
    p.add_argument("--top", type=int, default=25, help="entries to list (the rest are summed)")
    p.add_argument("--markdown", action="store_true", help="a Markdown table")
    args = p.parse_args(argv)
    bundle = Path(args.bundle)
    if not bundle.is_dir():
        print(f"bundle_contents: no bundle at {bundle} (build it with: make package)", file=sys.stderr)
        return 1
    total, files = size_of(bundle)
    rows = entries(bundle)
    shown, rest = rows[:args.top], rows[args.top:]
    if args.markdown:
        print("| entry | MB | files | biggest files |\n|---|---:|---:|---|")
    else:
        print(f"{bundle}: {total / 1e6:.1f} MB, {files} files")
    for size, count, name, path in shown:
        inside = ", ".join(f"{n} {s / 1e6:.1f}" for s, n in biggest_files(path, 3)) if path.is_dir() else ""
        if args.markdown:
            print(f"| `{name}` | {size / 1e6:.1f} | {count} | {inside} |")
        else:
            print(f"{size / 1e6:9.1f} MB {count:5d}  {name}" + (f"  ({inside})" if inside else ""))
    if rest:
        size, count = sum(r[0] for r in rest), sum(r[1] for r in rest)
        line = f"{len(rest)} smaller entries"
        print(f"| {line} | {size / 1e6:.1f} | {count} | |" if args.markdown else f"{size / 1e6:9.1f} MB {count:5d}  {line}")
    if args.markdown:
        print(f"| **bundle** | **{total / 1e6:.1f}** | **{files}** | |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
