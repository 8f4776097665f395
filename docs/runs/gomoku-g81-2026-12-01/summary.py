"""What run.sh's games say (from the project root).

usage: python docs/runs/gomoku-g81-2026-12-01/summary.py

The strength suite: the shipped generation 81 at 800 visits against Rapfi at 1,000 nodes from the
3-stone openings of seeds 5-8, each colour, and paired by opening and side with generation 115's
games on the same openings (and with the same line's generation 36). After 3 stones white moves, so the side that moves first is white.
Issue 57's rung: the strong level against Rapfi at 10,000 nodes from the 2-stone openings of seeds
1-8 (black moves first there), beside generation 115's 160 games."""
import runpy
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
HERE = ROOT / "docs/runs/gomoku-g81-2026-12-01"
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
G115_SUITE = ROOT / "docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi"
G36_SUITE = ROOT / "docs/runs/gomoku-novct-line-2026-11-30/rapfi"   # the same line at its generation 36
G115_RUNG = {**{s: ROOT / f"docs/runs/strong-rungs-2026-11-29/gomoku-rapfi10k-s{s}.games.jsonl" for s in range(1, 5)},
             **{s: ROOT / f"docs/runs/gomoku-defence-2026-11-29/base-s{s}.games.jsonl" for s in range(5, 9)}}


def main() -> None:
    suite = range(5, 9)
    tally = RO["by_colour"]
    tally("generation 81, suite (Rapfi 1,000 nodes, 3 stones)",
          [HERE / f"suite-s{s}.games.jsonl" for s in suite], "as white", "as black")
    tally("generation 115, suite (the same openings)",
          [G115_SUITE / f"g115-s{s}.games.jsonl" for s in suite], "as white", "as black")
    RO["judge"]({"g81": lambda s: HERE / f"suite-s{s}.games.jsonl",
                 "g115": lambda s: G115_SUITE / f"g115-s{s}.games.jsonl",
                 "line-g36": lambda s: G36_SUITE / f"novct-s{s}.games.jsonl"}, suite,
                (("g81", "g115"), ("g81", "line-g36")))
    rung = range(1, 9)
    tally("generation 81, strong level against Rapfi 10,000 nodes (2 stones)",
          [HERE / f"rapfi10k-s{s}.games.jsonl" for s in rung])
    tally("generation 115, the same", [G115_RUNG[s] for s in rung])
    RO["judge"]({"g81": lambda s: HERE / f"rapfi10k-s{s}.games.jsonl", "g115": lambda s: G115_RUNG[s]},
                rung, (("g81", "g115"),))


if __name__ == "__main__":
    main()
