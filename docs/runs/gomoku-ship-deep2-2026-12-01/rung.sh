#!/bin/bash
# Issue 57's rung for the shipped generation 1705, as generation 728's was played
# (../gomoku-steps-2026-12-01/rung.sh, which this runs): the strong level (level:strong, its
# strong_visits, no time cap) against Rapfi at 10,000 nodes, 20 games from the balanced 2-stone
# openings of each seed S, in a scratch clone given this working tree's models/gomoku.pt and
# models/gomoku.json (the new model and its strong_visits, before they were committed); the
# results come back to rung/ here.
#   bash docs/runs/gomoku-ship-deep2-2026-12-01/rung.sh S...
cd "$(dirname "$0")/../../.."
MODEL=models/gomoku.pt JSON=models/gomoku.json OUT=docs/runs/gomoku-ship-deep2-2026-12-01/rung \
  exec bash docs/runs/gomoku-steps-2026-12-01/rung.sh "$@"
