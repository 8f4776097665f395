#!/bin/bash
# The games of rule.md (from the project root): the line's newest network (novct-latest.pt here,
# copied from runs/gvct/novct/latest.pt when the line is stopped for the judgement) at 800 visits
# against Rapfi (classical, max_node 1000) from the balanced openings of seeds 5-8, both sides,
# two seeds side by side on the two cores; then judge.py pairs them by opening with generation
# 115's games on the same openings (docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi/g115-s*).
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-novct-line-2026-11-30
mkdir -p "$HERE/rapfi"
bash docs/runs/gomoku-cont-2026-11-28/run.sh check | tee /tmp/gnovct-check.txt
grep -q "^reproduced" /tmp/gnovct-check.txt || exit 1
sha256sum "$HERE/novct-latest.pt"
seed() {   # SEED: the line's network against Rapfi from the seed's 50 openings, both sides
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:$HERE/novct-latest.pt@800" "gomocup:$RAPFI@nodes1000" \
    "$1" 0 50 "$HERE/rapfi/novct-s$1.games.jsonl" 2> "$HERE/rapfi/novct-s$1.err"
}
for s in 5 7; do
  seed $s & seed $((s + 1)) & wait
done
$PY "$HERE/judge.py" | tee "$HERE/judge.txt"
