#!/bin/bash
# The judgement of the gomoku line's candidate by rule.md (from the project root), begun 2026-11-30:
# the candidate (latest.pt when this starts: generation 50, SHA-256 83f87015...ca1f) at 800 visits
# against Rapfi (classical, max_node 1000) from the balanced openings of seeds 1-4, both sides,
# two seeds side by side on the two cores; then judge.py pairs it with generation 115's games.
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
# latest.pt left the repository after this judgement (not shipped); to play it again, restore it first:
#   git show fa4f8f3:docs/runs/gomoku-line-2026-11-29/latest.pt > docs/runs/gomoku-line-2026-11-29/latest.pt
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-line-2026-11-29
mkdir -p "$HERE/rapfi"
cp "$HERE/latest.pt" /tmp/gomoku-line-candidate.pt
sha256sum /tmp/gomoku-line-candidate.pt
bash docs/runs/gomoku-cont-2026-11-28/run.sh check || exit 1
seed() {   # SEED: the candidate against Rapfi from the seed's 50 openings, both sides
  $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:/tmp/gomoku-line-candidate.pt@800" "gomocup:$RAPFI@nodes1000" \
    "$1" 0 50 "$HERE/rapfi/gen50-s$1.games.jsonl" 2> "$HERE/rapfi/gen50-s$1.err"
}
for s in 1 3; do
  seed $s & seed $((s + 1)) & wait
done
$PY "$HERE/judge.py"
