#!/bin/bash
# The games of rule.md (from the project root):
#   bash docs/runs/gomoku-ship-deep3-2026-12-01/judge.sh "9123 9124" [NAME:SPEC ...]
# plays each player (default: the line's newest checkpoint at 600 visits, then the shipped
# generation 1705 at 600) against Rapfi at 10,000 nodes from the 2-stone openings of the two seeds
# given (../gomoku-ship-2026-12-01/judge.sh; a seed already complete is kept), and pairs them.
# The line's newest checkpoint is copied here as deep-latest.pt only when a spec names it.
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-ship-deep3-2026-12-01
SEEDS="${1:-9123 9124}"; shift || true
[ $# -gt 0 ] || set -- "deep:model:$HERE/deep-latest.pt@600" "g1705:model:models/gomoku.pt@600"
NEWEST=""
case " $* " in *deep-latest.pt*) NEWEST="deep:runs/gdeep/deep2" ;; esac
HERE=$HERE SEEDS="$SEEDS" NEWEST="$NEWEST" PAIRS="deep:g1705" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh "$@"
