#!/bin/bash
# The 2026-11-29 ship test of the xiangqi line's generation 45 (judge.py): 40 games a seed from
# the balanced openings against fairy-stockfish at depth 1.
# usage (project root): bash docs/runs/xiangqi-line-2026-11-29/run.sh MODEL SEED...
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-line-2026-11-29
PY=${PY:-.venv/bin/python}
A="model:$1@800?mat=8"; shift
for s in "$@"; do
    f=$D/line45-s$s
    [ -s $f.json ] && continue
    $PY main.py arena --game xiangqi --a "$A" --b uci:/usr/games/fairy-stockfish@depth1 --games 40 \
        --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
