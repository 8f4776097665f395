#!/bin/bash
# Issue 57's rung for the quarter arm's generation 428 (quarter-latest.pt), as generation 184's was
# played: the strong level against Rapfi at 10,000 nodes, 20 games from the balanced 2-stone
# openings of each seed S, in a scratch clone whose models/gomoku.pt is that checkpoint (rung/).
#   bash docs/runs/gomoku-steps25-2026-12-01/rung.sh S...
cd "$(dirname "$0")/../../.."
MODEL=docs/runs/gomoku-steps25-2026-12-01/quarter-latest.pt OUT=docs/runs/gomoku-steps25-2026-12-01/rung \
  exec bash docs/runs/gomoku-steps-2026-12-01/rung.sh "$@"
