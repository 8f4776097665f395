#!/bin/bash
# The strength suite's games for the quarter arm's generation 428 (quarter-latest.pt), as generation
# 184's were played: 800 visits against Rapfi at 1,000 nodes from the 50 balanced 3-stone openings
# of each seed S, both sides, paired with 184's and 81's games (suite/; suite/summary.txt, printed as rule.md says).
#   bash docs/runs/gomoku-steps25-2026-12-01/suite.sh S...
cd "$(dirname "$0")/../../.."
MODEL=docs/runs/gomoku-steps25-2026-12-01/quarter-latest.pt OUT=docs/runs/gomoku-steps25-2026-12-01/suite NAME=quarter \
  exec bash docs/runs/gomoku-steps-2026-12-01/suite.sh "$@"
