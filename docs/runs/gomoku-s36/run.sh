#!/bin/bash
# Session 36's gomoku matches against Rapfi (docs/runs/gomoku-s36/judge.py), from the project root.
#   bash docs/runs/gomoku-s36/run.sh check   replay 115's first two openings of seed 1 (4 games)
#                                            and compare them with session 28's record
#   bash docs/runs/gomoku-s36/run.sh MODEL   seeds 1-4 on two cores (1 and 2, then 3 and 4)
#   bash docs/runs/gomoku-s36/run.sh 56 MODEL   the second look: seeds 5-6 for MODEL and for
#                                            models/gomoku.pt as shipped before (generation 115)
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
SLICE=docs/runs/ab-gomoku-cap/rapfi_slice.py
OUT=docs/runs/gomoku-s36/rapfi
mkdir -p "$OUT"
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
seed() {   # MODEL SEED [NAME]
  $PY $SLICE "model:$1@800" "gomocup:$RAPFI@nodes1000" "$2" 0 50 "$OUT/${3:-cand}-s$2.games.jsonl" 2> "$OUT/${3:-cand}-s$2.err"
}
if [ "$1" = 56 ]; then
  git show fb75035:models/gomoku.pt > /tmp/ro115.pt   # generation 115, as shipped when the session began
  seed "$2" 5 & seed /tmp/ro115.pt 5 ro115 & wait
  seed "$2" 6 & seed /tmp/ro115.pt 6 ro115 & wait
  exit
fi
seed "$1" 1 & seed "$1" 2 & wait
seed "$1" 3 & seed "$1" 4 & wait
