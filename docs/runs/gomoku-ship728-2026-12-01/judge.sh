#!/bin/bash
# The games of rule.md (from the project root): bash docs/runs/gomoku-ship728-2026-12-01/judge.sh
# Generation 184 first, then 728, two seeds at a time; a seed already complete is kept.
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-ship728-2026-12-01
for player in "g184:model:docs/runs/gomoku-steps-2026-12-01/half-latest.pt@800" \
              "g728:model:docs/runs/gomoku-steps12-2026-12-01/quarter-latest.pt@800"; do
  for seeds in "9109 9110" "9111 9112"; do
    HERE=$HERE SEEDS="$seeds" PAIRS="g728:g184" bash docs/runs/gomoku-ship-2026-12-01/judge.sh "$player" > /dev/null
  done
done
.venv/bin/python docs/runs/ab-gomoku-ro/judge.py $HERE/rapfi "9109 9110 9111 9112" g728:g184
