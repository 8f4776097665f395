"""The root defence's CPU (docs/performance.md, 2026-11-29): `GomokuState.threat_defence` timed on
every position of the 80 games of docs/runs/strong-rungs-2026-11-29 (seeds 1-4), either side to move.
usage (project root): python docs/runs/gomoku-defence-2026-11-29/cost.py BUDGET TOTAL   (e.g. 20000 200000)"""
import json,glob,sys,time
sys.path.insert(0,'.')
import games.gomoku as G
from games import get_game
B=int(sys.argv[1]); T=int(sys.argv[2]); G.DEFENCE_BUDGET=B; G.DEFENCE_TOTAL=T
g=get_game('gomoku')
ts=[];trig=0
for f in sorted(glob.glob('docs/runs/strong-rungs-2026-11-29/gomoku-rapfi10k-s*.games.jsonl')):
    for l in open(f):
        gm=json.loads(l)
        s=g.initial_state()
        for t in gm['start'].split(): s=s.apply(s.parse_action(t))
        for i,t in enumerate(gm['moves']):
            t0=time.process_time(); td=s.threat_defence(); ts.append(time.process_time()-t0)
            trig+= td is not None
            s=s.apply(s.parse_action(t))
ts.sort(); n=len(ts)
print(B,T,'positions',n,'triggered',trig,'mean ms %.1f p50 %.1f p90 %.1f p99 %.1f max %.1f'%(1000*sum(ts)/n,1000*ts[n//2],1000*ts[int(n*.9)],1000*ts[int(n*.99)],1000*ts[-1]))
