#!/bin/bash
# The 2026-11-29 renju matches against Rapfi (judge.py here), from the project root.
#   bash docs/runs/gomoku-renju/run.sh NAME MODEL SEED   MODEL at 800 visits, under renju, against
#        Rapfi (classical evaluation, renju: INFO rule 4, max_node 1000) from the 50 balanced
#        3-stone openings of SEED, each played from both sides: rapfi/NAME-sSEED.games.jsonl
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
HERE=docs/runs/gomoku-renju
$PY main.py arena --game gomoku --rule renju --a "model:$2@800" --b "gomocup:$RAPFI@nodes1000" \
  --games 100 --balanced-openings 3 --seed "$3" --progress --games-out "$HERE/rapfi/$1-s$3.games.jsonl" \
  > "$HERE/rapfi/$1-s$3.json" 2> "$HERE/rapfi/$1-s$3.err"
