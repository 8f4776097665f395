#!/bin/bash
# The games of rule.md (from the project root):
#   bash docs/runs/gomoku-ship-2026-12-01/judge.sh [NAME:SPEC ...]
# plays each player (default generation 184, g184) at its spec against Rapfi (classical,
# max_node 10000) from the 50 balanced 2-stone openings of seeds 9105 and 9106, both sides, the
# two seeds side by side, into rapfi/NAME-sS.games.jsonl; a seed already complete is kept.
# Then ../ab-gomoku-ro/judge.py pairs them by opening and side (PAIRS: the comparisons, A:B). RAPFI: the brain (tools/refengines/build_rapfi.sh).
# HERE (a folder from the project root), SEEDS (two seeds) and PAIRS play another
# judgement's games the same way (docs/runs/gomoku-steps12-2026-12-01/judge.sh does); NEWEST
# ("NAME:RUN_DIR ...") first copies each run's newest checkpoint to HERE/NAME-latest.pt (kept if
# already there), for the specs to name.
set -u
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=${HERE:-docs/runs/gomoku-ship-2026-12-01}
read -r S1 S2 <<< "${SEEDS:-9105 9106}"
mkdir -p "$HERE/rapfi"
for arm in ${NEWEST:-}; do
  name=${arm%%:*}; dir=${arm#*:}
  if [ ! -f "$HERE/$name-latest.pt" ]; then
    ckpt=$(ls "$dir"/checkpoints/gen_*.pt | sort | tail -1) || exit 1
    cp "$ckpt" "$HERE/$name-latest.pt" && echo "$name: $ckpt"
  fi
  sha256sum "$HERE/$name-latest.pt"
done
seed() {   # NAME SPEC SEED
  out="$HERE/rapfi/$1-s$3.games.jsonl"
  [ -s "$out" ] && [ "$(wc -l < "$out")" -eq 100 ] && return
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "$2" "gomocup:$RAPFI@nodes10000" "$3" 0 50 "$out" 50 2 \
    2> "$HERE/rapfi/$1-s$3.err"
}
[ $# -gt 0 ] || set -- "g184:model:docs/runs/gomoku-steps-2026-12-01/half-latest.pt@800"
for player in "$@"; do
  name=${player%%:*}; spec=${player#*:}
  seed "$name" "$spec" "$S1" & seed "$name" "$spec" "$S2" & wait
done
$PY docs/runs/ab-gomoku-ro/judge.py "$HERE/rapfi" "$S1 $S2" ${PAIRS:-cand:g184 cand:q428 q428:g184}
