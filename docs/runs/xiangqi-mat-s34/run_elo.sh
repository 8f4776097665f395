#!/bin/bash
# Session 34: the shipped xiangqi network (generation 171) with the material term (mat=8) against
# fairy-stockfish limited to Elo 1350 at 1000 nodes a move, from the balanced openings of seeds
# 0 and 1, one core each, as docs/runs/xiangqi-fix-s33/run_elo.sh played 171 without it.
# usage (project root): bash docs/runs/xiangqi-mat-s34/run_elo.sh
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-mat-s34
PY=${PY:-.venv/bin/python}
play() {  # seed
    local f=$D/elo1350-mat171-s$1
    [ -s $f.json ] && return
    $PY main.py arena --game xiangqi --a "model:models/xiangqi.pt@800?mat=8" \
        --b "uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350" --games 40 \
        --balanced-openings 2 --seed $1 --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err \
        && mv $f.json.part $f.json
}
play 0 &
play 1 &
wait
