#!/bin/bash
# The games of rule.md once both arms have stopped (from the project root):
#   bash docs/runs/gomoku-deeper-2026-12-01/judge.sh
# copies each arm's newest checkpoint here (base-latest.pt, deep-latest.pt; kept if already
# there), then plays base at 800 visits and deep at 600 (the same search time: its network costs
# 1.34 times as much a position) against Rapfi at 10,000 nodes from the 2-stone openings of seeds
# 9113 and 9114 (../gomoku-ship-2026-12-01/judge.sh), and the shipped generation 728 at 800; and pairs them.
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-deeper-2026-12-01
HERE=$HERE SEEDS="9113 9114" NEWEST="base:runs/gsteps25/quarter deep:runs/gdeep/deep" PAIRS="deep:base deep:g728 base:g728" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh \
  "base:model:$HERE/base-latest.pt@800" "deep:model:$HERE/deep-latest.pt@600" \
  "g728:model:docs/runs/gomoku-steps12-2026-12-01/quarter-latest.pt@800"
