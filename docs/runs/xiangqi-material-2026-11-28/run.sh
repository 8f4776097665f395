#!/bin/bash
# The 2026-11-28 material-term match (judge.py): 171 with mat=8 at 800 visits against
# fairy-stockfish at depth 1, 40 games from the balanced openings of each seed given.
# usage (project root): bash docs/runs/xiangqi-material-2026-11-28/run.sh SEED...
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-material-2026-11-28
PY=${PY:-.venv/bin/python}
for s in "$@"; do
    f=$D/mat171-s$s
    [ -s $f.json ] && continue
    $PY main.py arena --game xiangqi --a "model:models/xiangqi.pt@800?mat=8" \
        --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2 --seed $s \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
