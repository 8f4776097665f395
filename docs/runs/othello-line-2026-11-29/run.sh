#!/bin/bash
# The othello line's ship test (judge.py here): the candidate against Egaroucid's web engine,
# book off, at the strong level's 2,100 visits without the time cap and with the endgame solver
# from 12 empty squares, on the balanced 4-ply openings that the shipped network (generation 66)
# played on 2026-11-29 (docs/runs/othello-solve/level{9,7}_seed*.games.jsonl, threshold 12).
# usage (project root): bash docs/runs/othello-line-2026-11-29/run.sh JOB...
#   l9:S  level 9, seed S (3 or 4)     l7:S  level 7, seed S (1 or 2)
cd "$(dirname "$0")/../../.."
D=docs/runs/othello-line-2026-11-29
PY=${PY:-.venv/bin/python}
CAND=${CAND:-runs/othello-line-candidates/cand.pt}
EGA=/tmp/refengines/egaroucid/nboard-egaroucid-web
for job in "$@"; do
    s=${job#*:}
    case $job in
        l9:*) b="nboard:$EGA 9@depth9"; f=$D/cand-level9-s$s ;;
        l7:*) b="nboard:$EGA 7@depth7"; f=$D/cand-level7-s$s ;;
        *) echo "unknown job $job" >&2; exit 2 ;;
    esac
    PYTHONPATH=$PWD $PY tools/othello_solve_match.py --a "model:$CAND@2100" --b "$b" --thresholds 12 \
        --openings 20 --seed $s --out $f.games.jsonl 2> $f.err
done
