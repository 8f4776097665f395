#!/bin/bash
# The strength suite's games for half's generation 184 (half-latest.pt), as generation 81's were
# played (docs/runs/gomoku-g81-2026-12-01/run.sh suite): 800 visits against Rapfi (classical,
# max_node 1000) from the 50 balanced 3-stone openings of each seed S, both sides, so that they
# pair with generation 81's and 115's games on the same openings. A seed already complete is kept.
#   bash docs/runs/gomoku-steps-2026-12-01/suite.sh S...
# MODEL, OUT and NAME play another checkpoint into another folder (MODEL and OUT paths from the
# project root; NAME the files' prefix).
set -u
cd "$(dirname "$0")/../../.."
D=${OUT:-docs/runs/gomoku-steps-2026-12-01/suite}
MODEL=${MODEL:-docs/runs/gomoku-steps-2026-12-01/half-latest.pt}
NAME=${NAME:-half}
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
mkdir -p $D
for s in "$@"; do
  out=$D/$NAME-s$s.games.jsonl
  [ -s "$out" ] && [ "$(wc -l < "$out")" -eq 100 ] && continue
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:$MODEL@800" \
    "gomocup:$RAPFI@nodes1000" "$s" 0 50 "$out" 2> "$D/$NAME-s$s.err"
done
