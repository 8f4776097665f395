#!/bin/bash
# The games of rule.md once both arms have stopped (from the project root):
#   bash docs/runs/gomoku-steps25-2026-12-01/judge.sh
# copies each arm's newest checkpoint here (half-latest.pt, quarter-latest.pt; kept if already
# there), then plays each of them and generation 184 (../gomoku-steps-2026-12-01/half-latest.pt)
# at 800 visits against Rapfi (classical, max_node 10000) from the 50 balanced 2-stone openings
# of seeds 9103 and 9104, both sides (two seeds side by side on the two cores), and judge.py
# pairs them. A player's seed already complete is kept, so a stopped judgement goes on.
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
set -u
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-steps25-2026-12-01
G184=docs/runs/gomoku-steps-2026-12-01/half-latest.pt
mkdir -p "$HERE/rapfi"
for arm in half quarter; do
  if [ ! -f "$HERE/$arm-latest.pt" ]; then
    ckpt=$(ls runs/gsteps25/$arm/checkpoints/gen_*.pt | sort | tail -1) || exit 1
    cp "$ckpt" "$HERE/$arm-latest.pt" && echo "$arm: $ckpt"
  fi
done
sha256sum "$HERE"/*-latest.pt "$G184"
seed() {   # NAME SPEC SEED: 50 openings of 2 stones, both sides
  out="$HERE/rapfi/$1-s$3.games.jsonl"
  [ -s "$out" ] && [ "$(wc -l < "$out")" -eq 100 ] && return
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "$2" "gomocup:$RAPFI@nodes10000" "$3" 0 50 "$out" 50 2 \
    2> "$HERE/rapfi/$1-s$3.err"
}
for player in "half:model:$HERE/half-latest.pt@800" "quarter:model:$HERE/quarter-latest.pt@800" "g184:model:$G184@800"; do
  name=${player%%:*}; spec=${player#*:}
  seed "$name" "$spec" 9103 & seed "$name" "$spec" 9104 & wait
done
$PY "$HERE/judge.py" | tee "$HERE/judge.txt"
