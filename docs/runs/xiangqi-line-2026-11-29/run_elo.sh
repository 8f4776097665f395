#!/bin/bash
# The 2026-11-29 ship test's second condition (judge.py): the candidate against fairy-stockfish
# limited to Elo 1350 at 1000 nodes a move, 40 games from the balanced openings of each seed (0, 1).
# usage (project root): bash docs/runs/xiangqi-line-2026-11-29/run_elo.sh MODEL SEED...
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-line-2026-11-29
PY=${PY:-.venv/bin/python}
A="model:$1@800?mat=8"; shift
B="uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350"
for s in "$@"; do
    f=$D/elo1350-line45-s$s
    [ -s $f.json ] && continue
    $PY main.py arena --game xiangqi --a "$A" --b "$B" --games 40 --balanced-openings 2 --seed $s \
        --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
