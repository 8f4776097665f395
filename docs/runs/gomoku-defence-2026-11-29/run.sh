#!/bin/bash
# The games of rule.md and rule2.md: ARM (base, defence or defence2) against Rapfi at 10,000 nodes, seeds given.
# usage (project root): bash docs/runs/gomoku-defence-2026-11-29/run.sh ARM SEED...
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-defence-2026-11-29
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
arm=$1; shift
if [ "$arm" = defence ] || [ "$arm" = defence2 ]; then
    export ZEROBOARD_GOMOKU_DEFENCE_BUDGET=20000 ZEROBOARD_GOMOKU_DEFENCE_TOTAL=200000
else
    export ZEROBOARD_GOMOKU_DEFENCE_BUDGET=0
fi
for s in "$@"; do
    f=$D/$arm-s$s
    [ -s $f.json ] && continue
    nice -n 5 $PY main.py arena --game gomoku --a "level:strong?cap=0" --b "gomocup:$RAPFI@nodes10000" --games 20 \
        --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
