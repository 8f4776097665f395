"""The exact result, for the side to move, of each distinct 2-ply opening of Connect Four rating games,
with its CPU seconds, and a JSON line of them all (decided.py reads it as openings.json):

    python docs/runs/connect4-decided-2026-12-01/openings.py "GAMES*.games.jsonl" > openings.txt
"""
import sys, json, glob, time
sys.path.insert(0, '.')
from games import get_game, connect4
g = get_game('connect4')
seen = {}
for f in sorted(glob.glob(sys.argv[1])):
    for line in open(f):
        r = json.loads(line)
        if r['start'] not in seen:
            s = g.state_from_text(r['start'])
            c = time.process_time()
            seen[r['start']] = connect4.solve(s._cur, s._mask)
            print(r['start'], seen[r['start']], round(time.process_time() - c, 1), flush=True)
print(json.dumps(seen))
