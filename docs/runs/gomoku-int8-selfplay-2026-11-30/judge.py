"""The judgement of rule.md (from the project root; `judge.sh` plays its games).

usage: python docs/runs/gomoku-int8-selfplay-2026-11-30/judge.py

Each arm's network (rapfi/int8-sS.games.jsonl, rapfi/fp32-sS.games.jsonl) paired by opening with
the other and with the shipped generation 115's games from the same openings
(docs/runs/ab-gomoku-ro/rapfi/ro115-sS.games.jsonl). Int8 self-play stays if int8 - fp32 is at
least -2 standard errors; an arm ships if its gain over ro115 is at least 2 standard errors and
it scores at least 50%. Each player's score is also given by the side it moved on after the
opening (the openings are three stones, so the side that moves first is white)."""
import json
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-int8-selfplay-2026-11-30/rapfi"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge()


def by_side(name: str, path_of, seeds=range(1, 5)) -> None:
    """``name``'s score as the side that moves first after the opening and as the other."""
    games = [json.loads(line) for s in seeds if path_of(s).exists()
             for line in path_of(s).read_text(encoding="utf-8").splitlines() if line.strip()]
    parts = []
    for first, words in ((True, "moving first (white)"), (False, "moving second (black)")):
        side = [g for g in games if g["a_first"] is first]
        if side:
            score = sum(RO["POINTS"][g["result"]] for g in side) / len(side)
            parts.append(f"{words} {score:.1%} of {len(side)}")
    print(f"{name} by side: " + ("; ".join(parts) or "no games"))


def main() -> None:
    for name in ("int8", "fp32"):
        by_side(name, lambda s, name=name: HERE / f"{name}-s{s}.games.jsonl")
    by_side("ro115", lambda s: ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl")
    RO["judge"]({"int8": lambda s: HERE / f"int8-s{s}.games.jsonl",
                 "fp32": lambda s: HERE / f"fp32-s{s}.games.jsonl",
                 "ro115": lambda s: ROOT / f"docs/runs/ab-gomoku-ro/rapfi/ro115-s{s}.games.jsonl"},
                range(1, 5), (("int8", "fp32"), ("int8", "ro115"), ("fp32", "ro115")))


if __name__ == "__main__":
    main()
