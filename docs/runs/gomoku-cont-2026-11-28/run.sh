#!/bin/bash
# The 2026-11-28 gomoku matches against Rapfi (docs/runs/gomoku-cont-2026-11-28/judge.py), from the project root.
#   bash docs/runs/gomoku-cont-2026-11-28/run.sh check   replay 115's first two openings of seed 1 (4 games)
#                                            and compare them with the 2026-11-27 record
#   bash docs/runs/gomoku-cont-2026-11-28/run.sh arms    each arm's base-latest.pt / reply-latest.pt (here)
#                                            from the openings of seeds 1-4, the two arms side by
#                                            side on the two cores, a seed at a time
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
SLICE=docs/runs/ab-gomoku-cap/rapfi_slice.py
HERE=docs/runs/gomoku-cont-2026-11-28
mkdir -p "$HERE/rapfi"
if [ "$1" = check ]; then
  $PY $SLICE "model:models/gomoku.pt@800" "gomocup:$RAPFI@nodes1000" 1 0 2 /tmp/ro115-check.games.jsonl
  $PY - <<'PY'
import json
old = [json.loads(l) for l in open("docs/runs/ab-gomoku-ro/rapfi/ro115-s1.games.jsonl")][:4]
new = [json.loads(l) for l in open("/tmp/ro115-check.games.jsonl")]
same = [o["start"] == n["start"] and o["moves"] == n["moves"] and o["result"] == n["result"] for o, n in zip(old, new)]
print("reproduced" if len(new) == 4 and all(same) else "NOT reproduced", same)
PY
  exit
fi
seed() {   # NAME SEED: NAME-latest.pt against Rapfi from the seed's 50 openings, both sides
  $PY $SLICE "model:$HERE/$1-latest.pt@800" "gomocup:$RAPFI@nodes1000" "$2" 0 50 "$HERE/rapfi/$1-s$2.games.jsonl" \
    2> "$HERE/rapfi/$1-s$2.err"
}
for s in 1 2 3 4; do
  seed base $s & seed reply $s & wait
done
