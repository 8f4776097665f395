#!/bin/bash
# 2026-11-28: a connect4 network without the endgame solver at 800 visits on the four benchmark
# sets (docs/runs/ab-connect4-ro/c4_errors.py) on two cores: middle-medium on one, the other three
# in turn on the other; one line a set
# in OUT (error count and the wrong positions' indices).
# usage (project root): bash docs/runs/connect4-line-2026-11-28/measure.sh MODEL OUT
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
C4=docs/runs/ab-connect4-ro/c4_errors.py
( $PY $C4 "$1" Test_L2_R2 800 > "$2.mm" ) &
( for s in Test_L3_R1 Test_L2_R1 Test_L1_R1; do $PY $C4 "$1" $s 800; done > "$2.rest" ) &
wait
cat "$2.rest" "$2.mm" > "$2" && rm -f "$2.rest" "$2.mm"
