#!/bin/bash
# The judgement of rule.md (from the project root): each arm's newest network (int8-latest.pt and
# fp32-latest.pt here, copied from runs/gab/ARM/latest.pt when the arms stopped) at 800 visits
# against Rapfi (classical, max_node 1000) from the balanced openings of seeds 1-4, both sides;
# the two arms side by side on the two cores, a seed at a time; then judge.py pairs them with each
# other and with generation 115's games of 2026-11-27.
# The checkpoints left the repository after the judgement; to play them again, restore them first:
#   git show 654e743:docs/runs/gomoku-int8-selfplay-2026-11-30/int8-latest.pt > docs/runs/gomoku-int8-selfplay-2026-11-30/int8-latest.pt
#   (and the same for fp32-latest.pt)
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-int8-selfplay-2026-11-30
mkdir -p "$HERE/rapfi"
sha256sum "$HERE"/int8-latest.pt "$HERE"/fp32-latest.pt
bash docs/runs/gomoku-cont-2026-11-28/run.sh check | tee /tmp/gab-check.txt
grep -q "^reproduced" /tmp/gab-check.txt || exit 1
seed() {   # ARM SEED: the arm's network against Rapfi from the seed's 50 openings, both sides
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:$HERE/$1-latest.pt@800" "gomocup:$RAPFI@nodes1000" \
    "$2" 0 50 "$HERE/rapfi/$1-s$2.games.jsonl" 2> "$HERE/rapfi/$1-s$2.err"
}
for s in 1 2 3 4; do
  seed int8 $s & seed fp32 $s & wait
done
$PY "$HERE/judge.py" | tee "$HERE/judge.txt"
