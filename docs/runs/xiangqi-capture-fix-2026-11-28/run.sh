#!/bin/bash
# 2026-11-28: the shipped xiangqi network (generation 171) with the capture search fixed
# (advisors and soldiers no longer capture like elephants in `pseudo_captures`), against
# fairy-stockfish at depth 1 from the balanced openings of seeds 1-6, as its games before the
# fix were played (docs/runs/xiangqi-play-search-2026-11-28/judge.py). Two queues, one a core.
# usage (project root): bash docs/runs/xiangqi-capture-fix-2026-11-28/run.sh [NICE]
# (?mat=0: the play search as it was, before the 2026-11-28 material term became xiangqi's [play] setting)
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-capture-fix-2026-11-28
PY=${PY:-.venv/bin/python}
play() {  # seed
    local f=$D/g171fix-s$1
    [ -s $f.json ] && return
    nice -n ${NICE:-0} $PY main.py arena --game xiangqi --a "model:models/xiangqi.pt@800?mat=0" \
        --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2 --seed $1 \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
}
queue() { for s in "$@"; do play $s; done; }
queue 1 3 5 &
queue 2 4 6 &
wait
