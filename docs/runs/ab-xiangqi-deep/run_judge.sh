#!/bin/bash
# Session 32: play the judge of the deeper-network comparison (judge.py) on two cores.
# Waits for both arms' trainers to end, copies each arm's last network here, then plays
# deep and base alternately by seed, so that any prefix of the results is paired.
# usage (project root): bash docs/runs/ab-xiangqi-deep/run_judge.sh
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/ab-xiangqi-deep
PY=${PY:-.venv/bin/python}
while pgrep -f "main.py train --game xiangqi --run-dir runs/xd/" > /dev/null; do sleep 20; done
cp runs/xd/base/latest.pt $D/base-latest.pt
cp runs/xd/deep/latest.pt $D/deep-latest.pt
cp runs/xd/base/metrics.jsonl $D/metrics-base.jsonl
cp runs/xd/deep/metrics.jsonl $D/metrics-deep.jsonl
cp runs/xd/base/run.json $D/run-base.json
cp runs/xd/deep/run.json $D/run-deep.json
play() {  # arm seed
    local f=$D/judge/$1-s$2
    [ -s $f.json ] && return
    $PY main.py arena --game xiangqi --a "model:$D/$1-latest.pt@800" \
        --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2 --seed $2 \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
}
queue() { for s in "$@"; do play deep $s; play base $s; done; }
queue 1 3 5 &
queue 2 4 6 &
wait
