#!/bin/bash
# The games of rule.md (from the project root):
#   bash docs/runs/gomoku-ship-deep2-2026-12-01/judge.sh "9119 9120" [NAME:SPEC ...]
# plays each player (default: the six-block line's newest checkpoint at 600 visits, then the
# shipped generation 728 at 800) against Rapfi at 10,000 nodes from the 2-stone openings of the two
# seeds given (../gomoku-ship-2026-12-01/judge.sh; a seed already complete is kept), and pairs them.
# The line's newest checkpoint is copied here as deep-latest.pt only when a spec names it.
# HERE, RUN (the line's run folder), BASE (the shipped model's name and visits, NAME@VISITS) and
# DEEP (the checkpoint's visits) play a later judgement of the same form
# (../gomoku-ship-deep3-2026-12-01/judge.sh does).
set -u
cd "$(dirname "$0")/../../.."
HERE=${HERE:-docs/runs/gomoku-ship-deep2-2026-12-01}
BASE=${BASE:-g728@800}
SEEDS="${1:-9119 9120}"; shift || true
[ $# -gt 0 ] || set -- "deep:model:$HERE/deep-latest.pt@${DEEP:-600}" "${BASE%@*}:model:models/gomoku.pt@${BASE#*@}"
NEWEST=""
case " $* " in *deep-latest.pt*) NEWEST="deep:${RUN:-runs/gdeep/deep}" ;; esac
HERE=$HERE SEEDS="$SEEDS" NEWEST="$NEWEST" PAIRS="deep:${BASE%@*}" \
  exec bash docs/runs/gomoku-ship-2026-12-01/judge.sh "$@"
