#!/bin/bash
# Issue 57's rung for half's generation 184, as docs/runs/gomoku-g81-2026-12-01/run.sh rung played
# generation 81: the strong level (level:strong, its 1,000 visits, no time cap) against Rapfi at
# 10,000 nodes, 20 games from the balanced 2-stone openings of each seed S. The strong level plays
# the shipped model, so this runs in a scratch clone of the project whose models/gomoku.pt is
# half-latest.pt (the compiled modules copied beside it), and the results come back here (rung/).
#   bash docs/runs/gomoku-steps-2026-12-01/rung.sh S...
# MODEL and OUT (paths from the project root) play another checkpoint into another folder
# (docs/runs/gomoku-steps25-2026-12-01/rung.sh does); JSON, if set, is copied to the clone's
# models/gomoku.json (a strong_visits not yet committed: ../gomoku-ship-deep2-2026-12-01/rung.sh).
set -u
cd "$(dirname "$0")/../../.."
ROOT=$PWD
PY=${PY:-$ROOT/.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
MODEL=${MODEL:-docs/runs/gomoku-steps-2026-12-01/half-latest.pt}
OUT=${OUT:-docs/runs/gomoku-steps-2026-12-01/rung}
S=$(mktemp -d)
trap 'rm -rf "$S"' EXIT   # the scratch clone goes when the script ends
git clone -q "$ROOT" "$S/p" && cd "$S/p" || exit 1
for f in $(cd "$ROOT" && find engine games -name "*.so"); do cp "$ROOT/$f" "$f"; done
cp "$ROOT/$MODEL" models/gomoku.pt
[ -n "${JSON:-}" ] && cp "$ROOT/$JSON" models/gomoku.json
mkdir -p "$ROOT/$OUT"
for s in "$@"; do
  f=$ROOT/$OUT/rapfi10k-s$s
  [ -s $f.json ] && continue
  $PY main.py arena --game gomoku --a "level:strong?cap=0" --b "gomocup:$RAPFI@nodes10000" --games 20 \
    --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
