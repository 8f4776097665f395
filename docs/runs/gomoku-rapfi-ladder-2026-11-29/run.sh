#!/bin/bash
# Rapfi against itself from the openings of gomoku's 10,000-node rung (docs/performance.md): random
# 2-stone openings, each played from both sides, 20 games a seed. What the openings give each colour
# when both sides are Rapfi at 10,000 nodes, and how far 10,000 nodes is above 1,000.
# usage (project root): bash docs/runs/gomoku-rapfi-ladder-2026-11-29/run.sh PAIR SEED...
#   PAIR: 10k-10k (Rapfi at 10,000 nodes on both sides) or 10k-1k (10,000 nodes as A, 1,000 as B)
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-rapfi-ladder-2026-11-29
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
pair=$1; shift
case $pair in
    10k-10k) b=nodes10000 ;;
    10k-1k) b=nodes1000 ;;
    *) echo "PAIR: 10k-10k or 10k-1k" >&2; exit 2 ;;
esac
for s in "$@"; do
    f=$D/$pair-s$s
    [ -s $f.json ] && continue
    $PY main.py arena --game gomoku --a "gomocup:$RAPFI@nodes10000" --b "gomocup:$RAPFI@$b" --games 20 \
        --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
