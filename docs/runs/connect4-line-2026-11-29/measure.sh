#!/bin/bash
# The measurement of rule.md on two cores: middle-medium at 2,900 visits in two halves, one a core,
# then the three easy sets at 800 visits, all without the endgame solver
# (docs/runs/ab-connect4-ro/c4_errors.py); one line a set or half in OUT.
# usage (project root): bash docs/runs/connect4-line-2026-11-29/measure.sh MODEL OUT
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
C4=docs/runs/ab-connect4-ro/c4_errors.py
( $PY $C4 "$1" Test_L2_R2 2900 500 0 > "$2.a"; $PY $C4 "$1" Test_L3_R1 800 >> "$2.a" ) &
( $PY $C4 "$1" Test_L2_R2 2900 500 500 > "$2.b"; for s in Test_L2_R1 Test_L1_R1; do $PY $C4 "$1" $s 800; done >> "$2.b" ) &
wait
cat "$2.a" "$2.b" > "$2" && rm -f "$2.a" "$2.b"
