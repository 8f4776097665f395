#!/bin/bash
# The games of rule.md (from the project root):
#   bash docs/runs/gomoku-ship-deep3-2026-12-01/judge.sh "9123 9124" [NAME:SPEC ...]
# plays each player (default: the line's newest checkpoint at 600 visits, then the shipped
# generation 1705 at 600) against Rapfi at 10,000 nodes from the 2-stone openings of the two seeds
# given, and pairs them: ../gomoku-ship-deep2-2026-12-01/judge.sh with this folder, the line's run
# folder runs/gdeep/deep2 and generation 1705 as the base.
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-ship-deep3-2026-12-01 RUN=runs/gdeep/deep2 BASE=g1705@600 DEEP=600 \
  exec bash docs/runs/gomoku-ship-deep2-2026-12-01/judge.sh "$@"
