#!/bin/bash
# The games of rule.md (from the project root):
#   bash docs/runs/gomoku-ship-deep2-2026-12-01/judge.sh "9119 9120" [NAME:SPEC ...]
# plays each player (default: the six-block line's newest checkpoint at 600 visits, then the
# shipped generation 728 at 800) against Rapfi at 10,000 nodes from the 2-stone openings of the two
# seeds given (../gomoku-ship-2026-12-01/judge.sh; a seed already complete is kept), and pairs them.
# The line's newest checkpoint is copied here as deep-latest.pt only when a spec names it.
set -u
cd "$(dirname "$0")/../../.."
HERE=docs/runs/gomoku-ship-deep2-2026-12-01
SEEDS="${1:-9119 9120}"; shift || true
[ $# -gt 0 ] || set -- "deep:model:$HERE/deep-latest.pt@600" "g728:model:models/gomoku.pt@800"
NEWEST=""
case " $* " in *deep-latest.pt*) NEWEST="deep:runs/gdeep/deep" ;; esac
HERE=$HERE SEEDS="$SEEDS" NEWEST="$NEWEST" PAIRS="deep:g728" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh "$@"
