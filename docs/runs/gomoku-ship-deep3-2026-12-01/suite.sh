#!/bin/bash
# The strength suite's games for this judgement's checkpoint (deep-latest.pt), as generation 1705's
# were played (../gomoku-ship-deep2-2026-12-01/suite/; ../gomoku-steps-2026-12-01/suite.sh): 800
# visits against Rapfi at 1,000 nodes from the 3-stone openings of each seed S, both sides.
#   bash docs/runs/gomoku-ship-deep3-2026-12-01/suite.sh S...
cd "$(dirname "$0")/../../.."
MODEL=docs/runs/gomoku-ship-deep3-2026-12-01/deep-latest.pt OUT=docs/runs/gomoku-ship-deep3-2026-12-01/suite NAME=deep \
  exec bash docs/runs/gomoku-steps-2026-12-01/suite.sh "$@"
