"""The AI's own victories by continuous threats in the games of docs/runs/strong-rungs-2026-11-29
(seeds 1-4): per result, whether the first VCT found with 20,000 moves (4 threes) was found by the
root's 600 moves (3 threes) too. usage (project root): python docs/runs/gomoku-defence-2026-11-29/own_vct.py"""
import json,glob,sys
sys.path.insert(0,'.')
from games import get_game
g=get_game('gomoku')
from collections import Counter
C=Counter()
for f in sorted(glob.glob('docs/runs/strong-rungs-2026-11-29/gomoku-rapfi10k-s*.games.jsonl')):
    for l in open(f):
        gm=json.loads(l)
        s=g.initial_state()
        for t in gm['start'].split(): s=s.apply(s.parse_action(t))
        ai_black=gm['a_first']; first=None
        for i,t in enumerate(gm['moves']):
            a=s.parse_action(t)
            if (i%2==0)==ai_black and first is None:
                deep=s.vct(threes=4,budget=20000); shallow=s.vct(threes=3,budget=600)
                if deep is not None and shallow is None:
                    first=(i, 'missed-at-600')
                elif shallow is not None:
                    first=(i,'found-at-600')
            s=s.apply(a)
        C[(gm['result'], first[1] if first else None)]+=1
for k,v in sorted(C.items(), key=str): print(k,v)
