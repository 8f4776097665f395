"""Rate the app's AI levels on each game's outside reference ladder and write them into
models/<game>.json under "levels" (see docs/levels.md, "How the levels are rated").

    PYTHONPATH=. python tools/rate_levels.py --game xiangqi [--out-dir DIR] [--games 20] [--write]

Every match is one `main.py arena` run (balanced openings, players swapping colours) whose JSON
summary and games are kept in OUT-DIR; a match already there is not played again, so a stopped
run resumes where it stopped. The ladder's rungs first play their neighbours (to place the
unanchored rungs on the scale), then each level, weakest first, plays --games games against the
rung or already rated level nearest its current estimate, in blocks, moving up or down a rung when a block is lopsided. All games
are then fitted together (engine.play.bradley_terry: Bradley–Terry with the ladder's anchors fixed,
95% intervals) and, with --write, the levels' ratings go into models/<game>.json.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import subprocess
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine.commands.specs import find_fairy_stockfish  # noqa: E402
from engine.play.players import LEVELS  # noqa: E402
from engine.play.bradley_terry import ColouredGame, Pairing, first_mover_advantage, fit  # noqa: E402

RAPFI = os.environ.get("RAPFI", "/tmp/refengines/rapfi/build/pbrain-rapfi")
EGAROUCID = os.environ.get("EGAROUCID", "/tmp/refengines/egaroucid/nboard-egaroucid-web")


def ladder(game: str) -> dict:
    """The reference rungs of ``game`` (weakest first), the anchors that name the scale, the
    balanced-opening plies and a first guess for the weakest level. The project's own random and
    greedy players (one ply, the game's heuristic; in gomoku, which has none, random-playout
    searches) lie below the engines' weakest settings; the glancing beginner is placed among them."""
    if game == "xiangqi":
        fsf = find_fairy_stockfish() or "fairy-stockfish"
        elo = [1350, 1600, 1850, 2100]
        rungs = (["random", "greedy"] + [f"uci:{fsf}@nodes1000?Skill Level={s}" for s in (-20, -10, 0)]
                 + [f"uci:{fsf}@nodes1000?UCI_LimitStrength=true&UCI_Elo={e}" for e in elo]
                 # the engine unlimited at 1,000 nodes: no anchor, but the one rung between the
                 # top levels (higher UCI_Elo settings add nothing at this node count:
                 # docs/runs/level-ratings/xiangqi-anchor-2350.md)
                 + [f"uci:{fsf}@nodes1000"]
                 + [f"uci:{fsf}@depth{d}" for d in (1, 2)])
        anchors = {f"uci:{fsf}@nodes1000?UCI_LimitStrength=true&UCI_Elo={e}": float(e) for e in elo}
        return {"rungs": rungs, "anchors": anchors, "openings": 2,
                "scale": "the Fairy-Stockfish scale (its UCI_Elo settings at 1000 nodes a move)"}
    if game == "gomoku":
        nodes = [30, 100, 300, 1000, 3000, 10000]
        rungs = ["random", "rollout:50", "rollout:200"] + [f"gomocup:{RAPFI}@nodes{n}" for n in nodes]
        return {"rungs": rungs, "anchors": {f"gomocup:{RAPFI}@nodes1000": 1500.0}, "openings": 2,
                "scale": "the Rapfi scale (Rapfi's classical evaluation; 1000 nodes a move = 1500)"}
    if game == "othello":
        levels = [1, 2, 3, 5, 7, 9]
        rungs = ["random", "greedy"] + [f"nboard:{EGAROUCID} {lv}@depth{lv}" for lv in levels]
        return {"rungs": rungs, "anchors": {f"nboard:{EGAROUCID} 5@depth5": 1500.0}, "openings": 4,
                "scale": "the Egaroucid scale (its web engine's levels, book off; level 5 = 1500)"}
    if game == "connect4":
        playouts = [25, 100, 400, 1600, 6400]
        rungs = ["random"] + [f"rollout:{n}" for n in playouts]
        return {"rungs": rungs, "anchors": {"rollout:400": 1000.0}, "openings": 2,
                "scale": "ZeroBoard's Connect Four scale (random-playout search with 400 playouts = 1000)"}
    raise SystemExit(f"no reference ladder for {game!r}; rated games: xiangqi, gomoku, othello, connect4")


def _slug(spec: str) -> str:
    keep = "".join(c if c.isalnum() or c in "-_." else "_" for c in spec.split("/")[-1])
    return keep[:80]


class Matches:
    """The matches of one rating run, kept as files in ``folder`` (a match is played once)."""

    def __init__(self, game: str, folder: Path, rule: str | None, dry: bool = False):
        self.game, self.folder, self.rule, self.dry = game, folder, rule, dry
        folder.mkdir(parents=True, exist_ok=True)

    def path(self, a: str, b: str, block: int) -> Path:
        return self.folder / f"{_slug(a)}__vs__{_slug(b)}__{block}.json"

    def play(self, a: str, b: str, games: int, openings: int, block: int, seed: int) -> dict | None:
        out = self.path(a, b, block)
        # a block already played is kept whoever the opponent was: the fit that chose it may have
        # moved since (a resumed run, or --write after more games), and replaying would add games
        done = sorted(self.folder.glob(f"{_slug(a)}__vs__*__{block}.json"))
        if done:
            return json.loads(done[0].read_text())
        if self.dry:
            print(f"would play {games} games: {a} vs {b} (seed {seed})", file=sys.stderr)
            return None
        cmd = [sys.executable, str(ROOT / "main.py"), "arena", "--game", self.game, "--a", a, "--b", b,
               "--games", str(games), "--balanced-openings", str(openings), "--seed", str(seed), "--quiet",
               "--games-out", str(out.with_suffix(".games.jsonl"))]
        if self.rule:
            cmd += ["--rule", self.rule]
        print("playing:", " ".join(shlex.quote(c) for c in cmd[2:]), file=sys.stderr, flush=True)
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if done.returncode != 0:
            raise SystemExit(f"arena failed ({done.returncode}): {done.stderr.strip()[-800:]}")
        summary = {**json.loads(done.stdout.strip().splitlines()[-1]), "seed": seed}
        tmp = out.with_suffix(".tmp")
        tmp.write_text(json.dumps(summary) + "\n")
        tmp.replace(out)
        print(f"  {a} vs {b}: {summary['wins']}-{summary['draws']}-{summary['losses']}", file=sys.stderr, flush=True)
        return summary

    def suffixed_games(self, a: str) -> int:
        """The games ``a`` played (as the first player) in blocks whose number has a suffix."""
        return sum(json.loads(f.read_text())["games"] for f in self.folder.glob(f"{_slug(a)}__vs__*.json")
                   if not f.stem.rsplit("__", 1)[1].isdigit())

    def coloured_games(self) -> list[ColouredGame]:
        """Every game whose colours are known, for the first mover's advantage."""
        out = []
        for f in sorted(self.folder.glob("*.json")):
            s = json.loads(f.read_text())
            for g in summary_games(f) or []:
                if g.get("result") in SCORES and isinstance(g.get("a_first"), bool):
                    out.append(ColouredGame(s["a"], s["b"], g["a_first"], SCORES[g["result"]]))
        return out

    def pairings(self) -> list[Pairing]:
        out = []
        for f in sorted(self.folder.glob("*.json")):
            s = json.loads(f.read_text())
            out.append(Pairing(s["a"], s["b"], s["wins"], s["draws"], s["losses"]))
        return out


SCORES = {"win": 1.0, "draw": 0.5, "loss": 0.0}
# "docs/.../x-s1.games.jsonl to -s8", "... and _seed2": the games files a summary's source names
SOURCE = re.compile(r"(docs/\S+?)(-s|_seed)(\d+)\.games\.jsonl(?: (to|and) (?:-s|_seed)(\d+))?")


def source_games(summary: dict) -> list[dict] | None:
    """The games of a summary written from another folder's games (a ship test's), from the files
    its ``source`` names, when they add up to the summary's count; None otherwise."""
    games = []
    for m in SOURCE.finditer(summary.get("source", "")):
        first, last = int(m.group(3)), int(m.group(5) or m.group(3))
        seeds = range(first, last + 1) if m.group(4) == "to" else sorted({first, last})
        for seed in seeds:
            f = ROOT / f"{m.group(1)}{m.group(2)}{seed}.games.jsonl"
            if not f.exists():
                return None
            games += [json.loads(line) for line in f.read_text().splitlines() if line.strip()]
    return games if games and len(games) == summary["games"] else None


def summary_games(summary_path: Path) -> list[dict] | None:
    """A match's games (each with ``a_first`` and ``result``), from its .games.jsonl or the
    files its summary's source names; None where neither has them."""
    path = summary_path.with_name(summary_path.stem + ".games.jsonl")
    if path.exists():
        return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return source_games(json.loads(summary_path.read_text()))


def level_spec(level: str) -> str:
    """A level as rated: its visits without its time cap, so that the rating says how the level
    plays where the cap does not bind (an idle machine), whatever else runs during the matches."""
    return f"level:{level}?cap=0"


def retire(folder: Path, name: str, levels=LEVELS) -> list[str]:
    """Give the games of the levels as they play now (``level:LEVEL?cap=0``, on either side) the
    name ``level:LEVEL-NAME?cap=0``, files and summaries alike, before a re-rating after a model
    ships: those games stay true of the players that played them and stay in the fit, and the
    levels with the new model start without games. Returns the renamed files' new names."""
    return rename(folder, {level: f"{level}-{name}" for level in levels}, merge=False)


def rename(folder: Path, names: dict[str, str], merge: bool = True) -> list[str]:
    """Give the games of each player ``level:OLD?cap=0`` of ``names`` (OLD -> NEW, on either side)
    the name ``level:NEW?cap=0``, files and summaries alike. With ``merge`` a player may take a
    name that has games already (the same settings rated under two names, or a setting that was
    tried and taken back: its games go back under the level's own name); a block whose file name is
    taken then gets a suffix. Without it, a name already used is refused (SystemExit). Returns the
    renamed files' new names."""
    current = {level_spec(old): level_spec(new) for old, new in names.items()}
    # all at once, so that two players may swap names (max=max-x with max-y=max): every file to be
    # renamed leaves first, and only a file that stays, or one this renaming wrote, takes a name
    moving = []
    for f in sorted(folder.glob("*.json")):
        summary = json.loads(f.read_text())
        if summary["a"] in current or summary["b"] in current:
            moving.append((f, summary))
    leaving = {f for f, _ in moving}
    taken: set[Path] = set()

    def used(path: Path) -> bool:
        return path in taken or (path.exists() and path not in leaving)

    plan = []
    for f, summary in moving:
        summary["a"], summary["b"] = current.get(summary["a"], summary["a"]), current.get(summary["b"], summary["b"])
        block = f.stem.rsplit("__", 1)[1]
        target = folder / f"{_slug(summary['a'])}__vs__{_slug(summary['b'])}__{block}.json"
        if used(target) and not merge:
            raise SystemExit(f"{target} exists already: was the name {summary['a']!r} or {summary['b']!r} used before?")
        while used(target):
            block += "b"
            target = folder / f"{_slug(summary['a'])}__vs__{_slug(summary['b'])}__{block}.json"
        taken.add(target)
        plan.append((f, summary, target))
    # park every file that moves (renames only: if this stops half-way, nothing is lost), then
    # give each its new name
    for f, _, _ in plan:
        for path in (f, f.with_suffix(".games.jsonl")):
            if path.exists():
                path.rename(path.with_name(path.name + ".renaming"))
    renamed = []
    for f, summary, target in plan:
        games = f.with_suffix(".games.jsonl")
        parked_games = games.with_name(games.name + ".renaming")
        if parked_games.exists():
            parked_games.rename(target.with_suffix(".games.jsonl"))
        target.write_text(json.dumps(summary) + "\n")
        f.with_name(f.name + ".renaming").unlink()
        renamed.append(target.name)
    return renamed


def _renaming(text: str) -> tuple[str, str]:
    old, sep, new = text.partition("=")
    if not sep or not old or not new or "?" in text or ":" in text:
        raise argparse.ArgumentTypeError(f"expected OLD=NEW (level names such as max-nosolve=max), not {text!r}")
    return old, new


def block_seed(base: int, player: str, block: int) -> int:
    """The openings' seed of ``player``'s block ``block``: fixed by the player and the block alone,
    so that a run rating some levels (``--levels``) and one rating all give a block the same
    openings, and no two blocks of a player share them (the levels do not sample: a repeated seed
    is a repeated game). Above ``base`` + 100,000, clear of the seeds counted up from ``base``
    before 2026-12-01, which the blocks played then keep."""
    return base + 100_000 + zlib.crc32(player.encode()) % 10_000 * 100 + block


def nearest_rung(rungs: list[str], ratings: dict, target: float) -> int:
    rated = [(abs(ratings[r].rating - target), i) for i, r in enumerate(rungs) if r in ratings]
    return min(rated)[1] if rated else 0


def run(args) -> dict:
    spec = ladder(args.game)
    rungs, anchors = spec["rungs"], spec["anchors"]
    matches = Matches(args.game, Path(args.out_dir), args.rule, dry=args.dry_run)
    seed = args.seed
    # 1. the rungs against their neighbours
    for i in range(len(rungs) - 1):
        seed += 1
        matches.play(rungs[i], rungs[i + 1], args.rung_games, spec["openings"], 0, seed)
    # 2. each level in blocks against the rung nearest its estimate
    estimate = None
    for level in LEVELS:
        player = level_spec(level)
        if args.rungs_only or (args.levels and level not in args.levels):
            # a level not played now still starts the next one's search where it stands
            skipped = _fit(matches.pairings(), anchors).get(player) if not args.rungs_only else None
            if skipped is not None:
                estimate = skipped.rating + 100.0
            continue
        # the games of blocks that took a suffix when two names were merged (`rename`) count too:
        # the loop below finds only the numbered ones, and would otherwise play their numbers again
        played = matches.suffixed_games(player)
        block = 0
        while played < args.games:
            ratings = _fit(matches.pairings(), anchors)
            current = ratings.get(player)
            before = ratings.get(level_spec(f"{level}-{args.start_from}")) if args.start_from else None
            guess = current.rating if current else (before.rating if before is not None
                                                    else estimate if estimate is not None
                                                    else ratings[rungs[0]].rating if rungs[0] in ratings else 1000.0)
            # the opponents: the ladder's rungs and the levels rated before this one (the upper
            # levels of a game whose AI outgrows its ladder are placed through the levels below)
            pool = rungs + [level_spec(lv) for lv in LEVELS[:LEVELS.index(level)]]
            rung = pool[nearest_rung(pool, ratings, guess)]
            got = matches.play(player, rung, args.block, spec["openings"], block, block_seed(args.seed, player, block))
            if got is None:
                break
            played += got["games"]
            block += 1
        ratings = _fit(matches.pairings(), anchors)
        if player in ratings:
            estimate = ratings[player].rating + 100.0
    ratings = _fit(matches.pairings(), anchors)
    report = {"game": args.game, "scale": spec["scale"], "anchors": anchors,
              "players": {k: {"rating": round(v.rating), "low": round(v.low), "high": round(v.high), "games": v.games}
                          for k, v in sorted(ratings.items(), key=lambda kv: kv[1].rating)}}
    try:
        adv, low, high, used = first_mover_advantage(matches.coloured_games(),
                                                     {k: v.rating for k, v in ratings.items()})
        report["first_mover"] = {"elo": round(adv), "low": round(low), "high": round(high), "games": used}
    except ValueError:   # no game with its colours
        pass
    return report


def _fit(pairings, anchors):
    if not pairings:
        return {}
    try:
        return fit(pairings, anchors)
    except ValueError:
        return {}


def write_levels(game: str, report: dict, model_json: Path) -> dict:
    data = json.loads(model_json.read_text()) if model_json.is_file() else {}
    levels = {}
    for level in LEVELS:
        r = report["players"].get(level_spec(level))
        if r and r["games"] >= 20:
            levels[level] = {**r, "reference": report["scale"]}
    data["levels"] = levels
    if "first_mover" in report:
        data["first_mover_advantage"] = {
            **report["first_mover"],
            "reference": "the level games' first movers (after their openings), the levels' ratings held fixed"}
    else:
        data.pop("first_mover_advantage", None)
    tmp = model_json.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    tmp.replace(model_json)
    return levels


def markdown(report: dict) -> str:
    """The report as a table for docs/levels.md: every player, weakest first."""
    rows = ["| player | rating | 95% interval | games |", "|---|---:|---|---:|"]
    for name, r in report["players"].items():
        label = name.replace("?cap=0", "")
        label = label if len(label) < 60 else "…" + label[-58:]
        anchor = " (anchor)" if name in report["anchors"] else ""
        interval = "" if anchor else f"{r['low']} – {r['high']}"
        rows.append(f"| `{label}`{anchor} | {r['rating']} | {interval} | {r['games']} |")
    fm = report.get("first_mover")
    if fm:
        rows.append(f"\nThe first mover's advantage, the ratings above held: {fm['elo']:+d} "
                    f"({fm['low']:+d} to {fm['high']:+d}), from {fm['games']} games with their colours.")
    return "\n".join(rows)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", required=True, choices=["xiangqi", "gomoku", "othello", "connect4"])
    ap.add_argument("--rule", default=None, help="gomoku's rule set (default freestyle)")
    ap.add_argument("--out-dir", default=None, help="where the matches are kept (default docs/runs/level-ratings/GAME)")
    ap.add_argument("--games", type=int, default=20, help="games per level (default 20)")
    ap.add_argument("--block", type=int, default=10, help="games per match block (even; default 10)")
    ap.add_argument("--rung-games", type=int, default=20, help="games between neighbouring rungs (default 20)")
    ap.add_argument("--levels", nargs="*", help="rate only these levels")
    ap.add_argument("--rungs-only", action="store_true", help="play only the ladder's own matches")
    ap.add_argument("--seed", type=int, default=1000)
    ap.add_argument("--retire", default=None, metavar="NAME",
                    help="first rename the games the levels played so far (those of --levels, if given) to "
                         "level:LEVEL-NAME (after a model ships: the name of the model they played with; after a "
                         "level's settings change: the settings it had)")
    ap.add_argument("--start-from", default=None, metavar="NAME",
                    help="re-rating after a model ships: a level without games starts its search at the "
                         "rating of level:LEVEL-NAME, the same level with the model before (its games renamed so)")
    ap.add_argument("--rename", action="append", type=_renaming, default=[], metavar="OLD=NEW",
                    help="first give the games of level:OLD the name level:NEW (repeatable; NEW may have games "
                         "already: the same settings rated under two names, or a setting taken back), then rate")
    ap.add_argument("--write", action="store_true", help="write the levels rated from at least 20 games into models/GAME.json")
    ap.add_argument("--dry-run", action="store_true", help="say which matches would be played")
    ap.add_argument("--markdown", action="store_true", help="print the ratings as a table, not JSON")
    args = ap.parse_args(argv)
    args.out_dir = args.out_dir or str(ROOT / "docs" / "runs" / "level-ratings" / args.game)
    scratch = None
    if (args.retire or args.rename) and args.dry_run:
        # plan as if the games were renamed, on a copy of the match summaries (all that the plan
        # and the fit read): a dry run changes no file
        import shutil
        import tempfile
        scratch = tempfile.TemporaryDirectory(prefix="rate_levels_")
        for summary in Path(args.out_dir).glob("*.json"):
            shutil.copy2(summary, scratch.name)
        args.out_dir = scratch.name
    renamed = []
    if args.retire:
        renamed += retire(Path(args.out_dir), args.retire, [lv for lv in LEVELS if not args.levels or lv in args.levels])
    if args.rename:
        renamed += rename(Path(args.out_dir), dict(args.rename))
    for line in renamed:
        print("would rename:" if scratch else "renamed:", line, file=sys.stderr)
    try:
        report = run(args)
    finally:
        if scratch is not None:
            scratch.cleanup()
    print(markdown(report) if args.markdown else json.dumps(report, indent=1))
    if args.write:  # with --dry-run: what the matches played so far say, no new games
        levels = write_levels(args.game, report, ROOT / "models" / f"{args.game}.json")
        print(json.dumps({"written": levels}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
