#!/bin/bash
# Issue 57's gomoku rung at the strong level as the app plays it (its strong_visits, no time
# cap): against Rapfi (classical evaluation) at 10,000 nodes a move, 20 games from the balanced
# 2-stone openings of each seed, each opening played from both sides (so 10 with each colour).
# usage (project root): bash docs/runs/strong-rungs-2026-11-29/run-gomoku.sh SEED...
cd "$(dirname "$0")/../../.."
D=docs/runs/strong-rungs-2026-11-29
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
for s in "$@"; do
    f=$D/gomoku-rapfi10k-s$s
    [ -s $f.json ] && continue
    nice -n 5 $PY main.py arena --game gomoku --a "level:strong?cap=0" --b "gomocup:$RAPFI@nodes10000" --games 20 \
        --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
