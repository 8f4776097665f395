#!/bin/bash
# The games of rule.md once both arms have stopped (from the project root):
#   bash docs/runs/gomoku-steps12-2026-12-01/judge.sh
# copies each arm's newest checkpoint here (quarter-latest.pt, eighth-latest.pt; kept if already
# there), then plays each and generation 184 at 800 visits against Rapfi at 10,000 nodes from the
# 2-stone openings of seeds 9107 and 9108 (../gomoku-ship-2026-12-01/judge.sh); and pairs them.
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-steps12-2026-12-01
HERE=$HERE SEEDS="9107 9108" NEWEST="quarter:runs/gsteps25/quarter eighth:runs/gsteps12/eighth" PAIRS="eighth:quarter eighth:g184 quarter:g184" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh \
  "quarter:model:$HERE/quarter-latest.pt@800" "eighth:model:$HERE/eighth-latest.pt@800" \
  "g184:model:docs/runs/gomoku-steps-2026-12-01/half-latest.pt@800"
