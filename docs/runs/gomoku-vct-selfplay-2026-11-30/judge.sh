#!/bin/bash
# The games of rule.md (from the project root), at 800 visits against Rapfi (classical, max_node
# 1000) from the balanced openings of seeds 5-8, both sides, two seeds side by side on the two cores:
#   bash docs/runs/gomoku-vct-selfplay-2026-11-30/judge.sh g115    generation 115 (models/gomoku.pt), the baseline
#   bash docs/runs/gomoku-vct-selfplay-2026-11-30/judge.sh arms    each arm's newest network (novct-latest.pt and
#                                                                  vct-latest.pt here), the two arms side by side
# then judge.py pairs them by opening.
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-vct-selfplay-2026-11-30
mkdir -p "$HERE/rapfi"
bash docs/runs/gomoku-cont-2026-11-28/run.sh check | tee /tmp/gvct-check.txt
grep -q "^reproduced" /tmp/gvct-check.txt || exit 1
seed() {   # NAME MODEL SEED: MODEL against Rapfi from the seed's 50 openings, both sides
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:$2@800" "gomocup:$RAPFI@nodes1000" \
    "$3" 0 50 "$HERE/rapfi/$1-s$3.games.jsonl" 2> "$HERE/rapfi/$1-s$3.err"
}
if [ "$1" = g115 ]; then
  sha256sum models/gomoku.pt
  for s in 5 7; do
    seed g115 models/gomoku.pt $s & seed g115 models/gomoku.pt $((s + 1)) & wait
  done
elif [ "$1" = arms ]; then
  sha256sum "$HERE"/novct-latest.pt "$HERE"/vct-latest.pt
  for s in 5 6 7 8; do
    seed novct "$HERE/novct-latest.pt" $s & seed vct "$HERE/vct-latest.pt" $s & wait
  done
  $PY "$HERE/judge.py" | tee "$HERE/judge.txt"
else
  echo "usage: judge.sh g115|arms"; exit 2
fi
