#!/bin/bash
# The probe of rule.md: ARM (base or vct6000) as the max level's brain at 6,000 visits against the
# strong level (900 visits, no cap), 20 games from the balanced 2-stone openings of seed S.
#   bash docs/runs/level-ratings/gomoku-max-vct-2026-12-01/run.sh ARM S...
set -u
cd "$(dirname "$0")/../../../.."
D=docs/runs/level-ratings/gomoku-max-vct-2026-12-01
arm=$1; shift
brain=$PWD/$D/brain.sh; [ "$arm" = vct6000 ] && brain=$PWD/$D/brain-vct6000.sh
for s in "$@"; do
  f=$D/$arm-s$s
  [ -s $f.json ] && continue
  .venv/bin/python main.py arena --game gomoku --a "gomocup:$brain@nodes6000" --b "level:strong?cap=0" --games 20 \
    --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
