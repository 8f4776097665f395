#!/bin/bash
# A balanced arena match spread over many cores (written on 2026-11-28 for a lent 16-core machine).
#
# usage: bash docs/runs/ab-gomoku-cap/parallel_slices.sh GAME A_SPEC B_SPEC NAME OUTDIR "SEEDS" OPENINGS PLIES SLICE
#        (from the project root; env: PY (default python3), LIMIT seconds per slice (default 400))
#
# For each seed, plays the seed's OPENINGS balanced openings of PLIES random moves (those of
# `main.py arena --game GAME --games 2*OPENINGS --balanced-openings PLIES --seed SEED`) in slices
# of SLICE openings, every slice of every seed at once, each by rapfi_slice.py beside this file;
# then joins each seed's slices, in order, into OUTDIR/NAME-sSEED.games.jsonl (the arena's
# --games-out format, so the judges read them as they read the arena's). A slice stopped by
# LIMIT keeps the games it finished; an opening missing one of its games is left out by the judges.
# 2026-11-28: 171 with lcb=1 against fairy-stockfish at depth 1, seeds 1-4, 20 openings of 2
# plies, slices of 5: 16 processes on the lent machine's 16 cores, 426 s, 152 of 160 games.
set -u
game=$1 a=$2 b=$3 name=$4 out=$5 seeds=$6 openings=$7 plies=$8 slice=$9
here=$(dirname "$0")
parts=$(mktemp -d)
trap 'rm -rf "$parts"' EXIT   # the slices go once they are joined
mkdir -p "$out"
for s in $seeds; do
  for ((f = 0; f < openings; f += slice)); do
    n=$(( openings - f < slice ? openings - f : slice ))
    timeout "${LIMIT:-400}" "${PY:-python3}" "$here/rapfi_slice.py" "$a" "$b" "$s" "$f" "$n" \
      "$parts/$name-s$s-f$(printf %03d "$f").games.jsonl" "$openings" "$plies" "$game" > "$parts/log-s$s-f$f.txt" 2>&1 &
  done
done
wait
for s in $seeds; do
  cat "$parts/$name-s$s-f"*.games.jsonl > "$out/$name-s$s.games.jsonl" 2>/dev/null
  echo "$out/$name-s$s.games.jsonl: $(wc -l < "$out/$name-s$s.games.jsonl") games"
done
cat "$parts"/log-*.txt
