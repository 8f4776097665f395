#!/bin/bash
# The games of rule.md once the six-block line has stopped (from the project root):
#   bash docs/runs/gomoku-ship-deep-2026-12-01/judge.sh "9115 9116"; ... judge.sh "9117 9118"
# copies the line's newest checkpoint here (deep-latest.pt; kept if already there), then plays it
# at 600 visits and the shipped generation 728 at 800 against Rapfi at 10,000 nodes from the
# 2-stone openings of the two seeds given (../gomoku-ship-2026-12-01/judge.sh), and pairs them.
# (Judged on 2026-12-01: generation 1304, whose copy was then moved out of the repository, so a
# rerun now copies the line's newest checkpoint instead.)
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-ship-deep-2026-12-01
HERE=$HERE SEEDS="${1:-9115 9116}" NEWEST="deep:runs/gdeep/deep" PAIRS="deep:g728" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh \
  "deep:model:$HERE/deep-latest.pt@600" "g728:model:models/gomoku.pt@800"
