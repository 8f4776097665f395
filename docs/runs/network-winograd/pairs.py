"""How many of each match's openings gave the same game move for move with the colours swapped
(the two runtimes then chose the same moves throughout). Run from the project root."""
import json

for g in ["gomoku", "othello", "xiangqi", "connect4"]:
    rows = [json.loads(line) for line in open(f"docs/runs/network-winograd/{g}-games.jsonl")]
    by_start = {}
    for r in rows:
        by_start.setdefault(r["start"], []).append(r)
    pairs = [v for v in by_start.values() if len(v) == 2]
    same = sum(1 for a, b in pairs if a["moves"] == b["moves"])
    print(f"{g}: {len(rows)} games, {len(by_start)} distinct openings, {len(pairs)} played exactly twice, "
          f"{same} of those the same game move for move")
