#!/bin/bash
# The probe of rule.md: the shipped network at 2,000 visits averaging each evaluation over the
# board's 8 symmetries (the play search otherwise) against the strong level (900 visits, no cap),
# 20 games from the balanced 2-stone openings of each seed S, each opening from both sides.
#   bash docs/runs/level-ratings/gomoku-max-sym-2026-12-01/run.sh S...
set -u
cd "$(dirname "$0")/../../../.."
D=docs/runs/level-ratings/gomoku-max-sym-2026-12-01
for s in "$@"; do
  f=$D/sym8-s$s
  [ -s $f.json ] && continue
  .venv/bin/python main.py arena --game gomoku --a "model:models/gomoku.pt@2000?sym=8" --b "level:strong?cap=0" \
    --games 20 --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
