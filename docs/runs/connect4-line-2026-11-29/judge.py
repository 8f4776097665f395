"""The decision of rule.md from measure.sh's output: usage (project root):
python docs/runs/connect4-line-2026-11-29/judge.py OUT"""
import math
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
BASE_MM = ROOT / "docs/runs/connect4-strong/middle-medium-2900.txt"
BASE_EASY_ERRORS = 2 + 1 + 0   # docs/runs/connect4-line-2026-11-28/g95.txt at 800 visits


def wrong(line: str) -> set[int]:
    return {int(x) for x in re.search(r"wrong=\[([^\]]*)\]", line).group(1).replace(",", " ").split()}


def main(out: str) -> None:
    lines = [l for l in Path(out).read_text().splitlines() if l.strip()]
    mm = set().union(*(wrong(l) for l in lines if " Test_L2_R2 " in l))
    covered = sum(int(re.search(r"positions=(\d+)-(\d+)", l).group(2)) - int(re.search(r"positions=(\d+)-", l).group(1)) + 1
                  for l in lines if " Test_L2_R2 " in l)
    easy = sum(len(wrong(l)) for l in lines if " Test_L2_R2 " not in l)
    base = wrong(BASE_MM.read_text())
    only_base, only_cand = len(base - mm), len(mm - base)
    z = (only_base - only_cand) / math.sqrt(only_base + only_cand) if only_base + only_cand else 0.0
    print(f"middle-medium at 2,900 visits: {len(mm)} errors in {covered} (95: {len(base)}); "
          f"only 95 wrong {only_base}, only the candidate wrong {only_cand}, z {z:.2f}; "
          f"easy sets at 800 visits: {easy} errors (95: {BASE_EASY_ERRORS})")
    ok = covered == 1000 and len(mm) <= 20 and z >= 1.0 and easy <= BASE_EASY_ERRORS
    print("decision:", "ships" if ok else "does not ship")


if __name__ == "__main__":
    main(sys.argv[1])
