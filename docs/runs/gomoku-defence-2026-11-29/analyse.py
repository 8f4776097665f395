"""Where the strong level's losses to Rapfi turned (rule.md): for every lost game of
docs/runs/strong-rungs-2026-11-29, every position where the AI was to move and the opponent had a
victory by continuous threats if the AI passed (`GomokuState.threat_defence` with BUDGET moves a
candidate, no total limit): BLUNDER when some candidate was left without a VCT found and the AI
played a refuted move, lost when every candidate was refuted.
usage (project root): python docs/runs/gomoku-defence-2026-11-29/analyse.py BUDGET"""
import json,glob,sys,time
sys.path.insert(0,'.')
import games.gomoku as G
from games import get_game
G.VCT_BUDGET=600
B=int(sys.argv[1]); G.DEFENCE_BUDGET=B; G.DEFENCE_TOTAL=10**9
g=get_game('gomoku')
from collections import Counter
C=Counter()
t0=time.process_time()
for f in sorted(glob.glob('docs/runs/strong-rungs-2026-11-29/gomoku-rapfi10k-s*.games.jsonl')):
    for l in open(f):
        gm=json.loads(l)
        if gm['result']!='loss': continue
        s=g.initial_state()
        for t in gm['start'].split(): s=s.apply(s.parse_action(t))
        ai_black=gm['a_first']
        ev=[]
        for i,t in enumerate(gm['moves']):
            ai_turn = (i%2==0)==ai_black
            a=s.parse_action(t)
            if ai_turn:
                # does AI have its own win (VCT) here?
                own = s.vct(threes=4, budget=B) is not None
                td=s.threat_defence()
                if own: ev.append(f"{i}{t}:OWNWIN{'(played)' if s.apply(a).is_terminal() else ''}")
                if td is not None:
                    d,r=td
                    if a not in d:
                        ev.append(f"{i}{t}:{'BLUNDER' if d else 'lost'}({len(d)}def)")
            s=s.apply(a)
        kinds=[e.split(':')[1][:5] for e in ev]
        first = next((k for k in kinds if k in ('BLUND','lost(')), None)
        C[first]+=1
        print(f[-14:-12], gm['game'], 'B' if ai_black else 'W', len(gm['moves']), ev[:4], flush=True)
print(C, 'cpu', time.process_time()-t0)
