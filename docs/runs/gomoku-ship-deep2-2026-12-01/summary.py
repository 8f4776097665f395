"""The shipped generation 1705's own measurements against generation 728's on the same openings
(from the project root; writes nothing):

    python docs/runs/gomoku-ship-deep2-2026-12-01/summary.py rung > docs/runs/gomoku-ship-deep2-2026-12-01/rung/summary.txt
    python docs/runs/gomoku-ship-deep2-2026-12-01/summary.py suite > docs/runs/gomoku-ship-deep2-2026-12-01/suite/summary.txt

rung: issue 57's rung (rung.sh), the strong level against Rapfi at 10,000 nodes from the 2-stone
openings of seeds 1-8 (after 2 stones black moves first). suite: the strength suite (suite.sh),
800 visits against Rapfi at 1,000 nodes from the 3-stone openings of seeds 5-8 (after 3 stones
white moves first). Generation 728's games are those of its own ship
(docs/runs/gomoku-steps12-2026-12-01/)."""
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RO = runpy.run_path(str(ROOT / "docs/runs/ab-gomoku-ro/judge.py"))   # judge(), by_colour()
HERE = ROOT / "docs/runs/gomoku-ship-deep2-2026-12-01"
G728 = ROOT / "docs/runs/gomoku-steps12-2026-12-01"


def rung(here: Path = HERE, name: str = "g1705", base: Path = G728, base_name: str = "g728") -> None:
    """``name``'s rung games in ``here``/rung against ``base_name``'s in ``base``/rung."""
    seeds = range(1, 9)
    RO["by_colour"](f"{name}, strong level against Rapfi 10,000 nodes",
                    [here / f"rung/rapfi10k-s{s}.games.jsonl" for s in seeds])
    RO["judge"]({name: lambda s: here / f"rung/rapfi10k-s{s}.games.jsonl",
                 base_name: lambda s: base / f"rung/rapfi10k-s{s}.games.jsonl"}, seeds, ((name, base_name),))


def suite(here: Path = HERE, name: str = "g1705", base: Path = G728, base_name: str = "g728",
          base_files: str = "q728") -> None:
    """``name``'s suite games (``here``/suite/NAME-sS) against ``base_name``'s (``base``/suite/BASE_FILES-sS)."""
    seeds = range(5, 9)
    RO["by_colour"](f"{name}, 800 visits against Rapfi 1,000 nodes",
                    [here / f"suite/{name}-s{s}.games.jsonl" for s in seeds], "as white", "as black")
    RO["judge"]({name: lambda s: here / f"suite/{name}-s{s}.games.jsonl",
                 base_name: lambda s: base / f"suite/{base_files}-s{s}.games.jsonl"}, seeds, ((name, base_name),))


if __name__ == "__main__":
    {"rung": rung, "suite": suite}[sys.argv[1]]()
