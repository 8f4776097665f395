#!/bin/bash
# Issue 57's rung for this judgement's checkpoint, as generation 1705's was played
# (../gomoku-steps-2026-12-01/rung.sh, which this runs): the strong level (level:strong, its 900
# visits, no time cap) against Rapfi at 10,000 nodes, 20 games from the balanced 2-stone openings
# of each seed S, in a scratch clone given deep-latest.pt as its models/gomoku.pt.
#   bash docs/runs/gomoku-ship-deep3-2026-12-01/rung.sh S...
cd "$(dirname "$0")/../../.."
MODEL=docs/runs/gomoku-ship-deep3-2026-12-01/deep-latest.pt OUT=docs/runs/gomoku-ship-deep3-2026-12-01/rung \
  exec bash docs/runs/gomoku-steps-2026-12-01/rung.sh "$@"
