"""Put xiangqi's balanced-opening matches against fairy-stockfish into models/xiangqi.json (from
the project root), beside the 20-game suite, so that the report and the home card give the
largest measurement of each opponent setting.

usage: python docs/runs/xiangqi-ship-g171/balanced_report.py [--write]

Reads the games files named in MATCHES (each line one game of `main.py arena --games-out`),
counts each match's wins, draws and losses, and prints the entries; with --write, replaces the
report's balanced entries of the same spec (the suite's sampled-opening entries stay) and
rewrites its summary line. docs/runs/xiangqi-capture-fix-2026-11-28/report.py calls `main` with the matches
of 2026-11-28 (the same network with the capture search fixed)."""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the project root, installed or not
from engine.play.arena import MatchResult  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
REPORT = ROOT / "models/xiangqi.json"
ENGINE = "Fairy-Stockfish 11.1 LB 64 (Debian package fairy-stockfish 11.1-1+b1), driven over UCI"
PLAYER = "model:models/xiangqi.pt@800"
DEPTH1 = "uci:/usr/games/fairy-stockfish@depth1"
ELO1350 = "uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350"
LEAD = "docs/runs/ab-xiangqi-lead/judge/lead-s{}.games.jsonl"
SHIP = "docs/runs/xiangqi-ship-2026-11-27/lead171-s{}.games.jsonl"
G171 = "docs/runs/xiangqi-ship-g171/elo1350-g171-s{}.games.jsonl"
MATCHES = [
    {"opponent": "stockfish-depth1", "label": "fairy-stockfish at depth 1", "spec": DEPTH1,
     "files": [LEAD.format(s) for s in (1, 2, 3, 4)] + [SHIP.format(s) for s in (5, 6)],
     "measured": "2026-11-27",
     "method": f"python main.py arena --game xiangqi --a {PLAYER} --b {DEPTH1} --games 40 "
               "--balanced-openings 2 --seed S for S = 1-6: 120 openings of 2 uniformly random moves, "
               "each played from both sides; the strong level's search (800 visits, no sampled moves) "
               "without its 1 s cap (2026-11-28: docs/runs/ab-xiangqi-lead/judge/, "
               "docs/runs/xiangqi-ship-2026-11-27/)"},
    {"opponent": "stockfish-elo1350", "label": "fairy-stockfish at Elo 1350, 1000 nodes", "spec": ELO1350,
     "files": [G171.format(s) for s in (0, 1)],
     "measured": "2026-11-27",
     "method": f"python main.py arena --game xiangqi --a {PLAYER} --b '{ELO1350}' --games 40 "
               "--balanced-openings 2 --seed S for S = 0, 1: 40 openings of 2 uniformly random moves, "
               "each played from both sides; the strong level's search without its 1 s cap "
               "(2026-11-28: docs/runs/xiangqi-ship-g171/)"},
]


def balanced_matches(player: str, here: str, depth1: str, depth1_seeds, elo: str, elo_seeds, measured: str,
                     note: str, depth1_script: str, elo_script: str) -> list:
    """MATCHES for ``player``'s two balanced-opening matches against fairy-stockfish (depth 1 and
    Elo 1350), from the games files ``here``/``depth1``.format(seed) and ``elo``.format(seed),
    played by ``here``/``depth1_script`` and ``elo_script``; ``note`` says what the player
    plays with (the later sessions' report.py files call this)."""
    a = f"'{player}'" if "?" in player else player

    def seeds(ss) -> str:
        ss = list(ss)
        listed = f"{ss[0]}-{ss[-1]}" if len(ss) > 2 else ", ".join(map(str, ss))
        return f"--seed S for S = {listed}: {20 * len(ss)} openings of 2 uniformly random moves"
    return [
        {"opponent": "stockfish-depth1", "label": "fairy-stockfish at depth 1", "spec": DEPTH1, "player": player,
         "files": [f"{here}/{depth1.format(s)}" for s in depth1_seeds], "measured": measured,
         "method": f"python main.py arena --game xiangqi --a {a} --b {DEPTH1} --games 40 --balanced-openings 2 "
                   f"{seeds(depth1_seeds)}, each played from both sides; the strong level's search (800 visits, "
                   f"no sampled moves) without its 1 s cap, {note} ({here}/{depth1_script})"},
        {"opponent": "stockfish-elo1350", "label": "fairy-stockfish at Elo 1350, 1000 nodes", "spec": ELO1350,
         "player": player, "files": [f"{here}/{elo.format(s)}" for s in elo_seeds], "measured": measured,
         "method": f"python main.py arena --game xiangqi --a {a} --b '{ELO1350}' --games 40 --balanced-openings 2 "
                   f"{seeds(elo_seeds)}, each played from both sides; the strong level's search without its 1 s "
                   f"cap, {note} ({here}/{elo_script})"},
    ]


def entry(match: dict) -> dict:
    result = MatchResult()
    for name in match["files"]:
        for line in (ROOT / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                outcome = json.loads(line)["result"]
                result.wins += outcome == "win"
                result.draws += outcome == "draw"
                result.losses += outcome == "loss"
                result.games += 1
    elo, low, high = result.elo()
    out = {k: match[k] for k in ("opponent", "label", "spec")}
    out.update(wins=result.wins, draws=result.draws, losses=result.losses, games=result.games,
               score=round(result.score, 4), elo=round(elo, 1), elo_low=round(low, 1), elo_high=round(high, 1),
               player=match.get("player", PLAYER), balanced_openings=2, engine=ENGINE, method=match["method"],
               measured=match["measured"])
    return out


def main(matches: list | None = None, suite_note: str = "") -> None:
    """Print (and with --write, report) the entries of ``matches`` (default MATCHES);
    ``suite_note`` follows the suite's figures in the summary (when they were measured)."""
    entries = [entry(m) for m in (matches or MATCHES)]
    print(json.dumps(entries, indent=1))
    if "--write" in sys.argv[1:]:
        report = json.loads(REPORT.read_text(encoding="utf-8"))
        specs = {e["spec"] for e in entries}
        kept = [m for m in report["results"]["matches"] if not (m.get("balanced_openings") and m["spec"] in specs)]
        report["results"]["matches"] = kept + entries
        d1, elo = entries
        suite = {m["spec"]: m for m in kept if not m.get("balanced_openings")}
        report["summary"] = (
            "Scores 100% vs random moves and 100% vs greedy material (20 games each); "
            f"{d1['score']:.1%} vs fairy-stockfish at depth 1 ({d1['wins']} wins, {d1['draws']} draws, "
            f"{d1['losses']} losses in {d1['games']} games from {d1['games'] // 2} random 2-move openings played "
            f"from both sides; {suite[DEPTH1]['score']:.1%} in the suite's {suite[DEPTH1]['games']} sampled games"
            f"{suite_note}); "
            f"{elo['score']:.1%} vs fairy-stockfish at Elo 1350, 1000 nodes ({elo['wins']}-{elo['draws']}-"
            f"{elo['losses']} in {elo['games']} such games; {suite[ELO1350]['score']:.1%} in the suite's "
            f"{suite[ELO1350]['games']}{suite_note})")
        REPORT.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
