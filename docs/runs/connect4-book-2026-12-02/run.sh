#!/bin/bash
# The win/draw/loss solver before and after 2026-12-02, as standalone copies of its search (the
# project's c4_winning_cells linked in), on the same positions (name, cur, mask; p4: 10 random
# 4-ply positions, p6: 12 random 6-ply ones). Each line printed: position, result, CPU seconds,
# positions visited. From the project root:
#   bash docs/runs/connect4-book-2026-12-02/run.sh > docs/runs/connect4-book-2026-12-02/solver.txt
set -e
HERE=docs/runs/connect4-book-2026-12-02
T=$(mktemp -d)
gcc -O2 -march=native -Igames/csrc -DVARIANT=0 -DBITS=19 -o $T/before $HERE/solver_before.c games/csrc/connect4_rules.c
gcc -O2 -march=native -Igames/csrc -DBITS=19 -o $T/after $HERE/solver_after.c games/csrc/connect4_rules.c
gcc -O2 -march=native -Igames/csrc -DBITS=21 -o $T/after21 $HERE/solver_after.c games/csrc/connect4_rules.c
for set in p6 p4; do
  for v in before after after21; do
    echo "== $set $v"
    $T/$v < $HERE/$set.txt | awk '{print; t+=$3; n+=$4} END {print "total CPU-s", t, "positions", n}'
  done
done
rm -rf $T
