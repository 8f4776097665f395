#!/bin/bash
# The games of rule.md (from the project root), once both arms have reached generation G >= 81:
#   bash docs/runs/gomoku-openings-2026-11-30/judge.sh G
# copies each arm's checkpoint of generation G here (base-gG.pt from runs/gvct/novct, open-gG.pt
# from runs/gopen/open), then plays each of them and the shipped generation 115 at 800 visits
# against Rapfi (classical, max_node 1000) from the 50 balanced 2-stone openings of seeds
# 9001-9004, both sides (400 games a player; two seeds side by side on the two cores), and
# judge.py pairs them. A player's seed already played is kept, so a stopped judgement goes on.
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
set -u
cd "$(dirname "$0")/../../.."
G=${1:?the generation both arms are judged at}
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-openings-2026-11-30
mkdir -p "$HERE/rapfi"
for arm in base:runs/gvct/novct open:runs/gopen/open; do
  name=${arm%%:*}; run=${arm#*:}
  ckpt=$(printf "%s/checkpoints/gen_%06d.pt" "$run" "$G")
  [ -f "$HERE/$name-g$G.pt" ] || cp "$ckpt" "$HERE/$name-g$G.pt" || exit 1
done
sha256sum "$HERE"/*-g"$G".pt models/gomoku.pt
seed() {   # NAME SPEC SEED: 50 openings of 2 stones, both sides
  out="$HERE/rapfi/$1-s$3.games.jsonl"
  [ -s "$out" ] && [ "$(wc -l < "$out")" -eq 100 ] && return
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "$2" "gomocup:$RAPFI@nodes1000" "$3" 0 50 "$out" 50 2 \
    2> "$HERE/rapfi/$1-s$3.err"
}
for player in "base:model:$HERE/base-g$G.pt@800" "open:model:$HERE/open-g$G.pt@800" "g115:model:models/gomoku.pt@800"; do
  name=${player%%:*}; spec=${player#*:}
  for s in 9001 9003; do
    seed "$name" "$spec" $s & seed "$name" "$spec" $((s + 1)) & wait
  done
done
$PY "$HERE/judge.py" | tee "$HERE/judge.txt"
