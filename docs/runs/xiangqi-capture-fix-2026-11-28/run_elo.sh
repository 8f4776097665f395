#!/bin/bash
# 2026-11-28: the shipped xiangqi network (generation 171) with the capture search fixed against
# fairy-stockfish limited to Elo 1350 at 1000 nodes a move, from the balanced openings of seeds
# 0 and 1, one core each (the command that played elo1350-g171fix-s*; written down on 2026-11-28,
# where models/xiangqi.json's method named this file and it was missing).
# usage (project root): bash docs/runs/xiangqi-capture-fix-2026-11-28/run_elo.sh
# (?mat=0: the play search as it was, before the 2026-11-28 material term became xiangqi's [play]
# setting; D, NAME and OPTS name another folder, games-file name and model options, as
# docs/runs/xiangqi-material-2026-11-28/run_elo.sh does)
cd "$(dirname "$0")/../../.."
D=${D:-docs/runs/xiangqi-capture-fix-2026-11-28}
NAME=${NAME:-g171fix}
OPTS=${OPTS:-?mat=0}
PY=${PY:-.venv/bin/python}
play() {  # seed
    local f=$D/elo1350-$NAME-s$1
    [ -s $f.json ] && return
    $PY main.py arena --game xiangqi --a "model:models/xiangqi.pt@800$OPTS" \
        --b "uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350" --games 40 \
        --balanced-openings 2 --seed $1 --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err \
        && mv $f.json.part $f.json
}
play 0 &
play 1 &
wait
