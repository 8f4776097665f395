#!/bin/bash
# The judge of the Gumbel self-play comparison (judge.py) on two cores, after the arms are given hours.
# Waits for both arms' trainers to end, copies each arm's last network here, then plays
# gumbel and base alternately by seed, so that any prefix of the results is paired.
# usage (project root): bash docs/runs/ab-xiangqi-gumbel/run_judge.sh
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/ab-xiangqi-gumbel
PY=${PY:-.venv/bin/python}
while pgrep -f "main.py train --game xiangqi --run-dir runs/xg/" > /dev/null; do sleep 20; done
cp runs/xg/base/latest.pt $D/base-latest.pt
cp runs/xg/gumbel/latest.pt $D/gumbel-latest.pt
cp runs/xg/base/metrics.jsonl $D/metrics-base.jsonl
cp runs/xg/gumbel/metrics.jsonl $D/metrics-gumbel.jsonl
cp runs/xg/base/run.json $D/run-base.json
cp runs/xg/gumbel/run.json $D/run-gumbel.json
play() {  # arm seed
    local f=$D/judge/$1-s$2
    [ -s $f.json ] && return
    $PY main.py arena --game xiangqi --a "model:$D/$1-latest.pt@800" \
        --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2 --seed $2 \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
}
queue() { for s in "$@"; do play gumbel $s; play base $s; done; }
queue 1 3 5 &
queue 2 4 6 &
wait
