#!/bin/bash
# Play a two-arm xiangqi comparison's judge on two cores (2026-11-28; judge.py of that folder
# reads the games). Waits for both arms' trainers to end, copies each arm's last network,
# metrics and run.json into the folder, then plays the arms alternately by seed against
# fairy-stockfish at depth 1 (40 games from the balanced openings of seeds 1-6), so that any
# prefix of the results is paired.
# usage (project root): bash docs/runs/ab-xiangqi-deep/run_judge.sh [FOLDER RUNS ARM_A ARM_B]
# defaults: docs/runs/ab-xiangqi-deep runs/xd deep base (the deeper-network comparison)
set -u
cd "$(dirname "$0")/../../.."
D=${1:-docs/runs/ab-xiangqi-deep}
R=${2:-runs/xd}
A=${3:-deep}
B=${4:-base}
PY=${PY:-.venv/bin/python}
# the play search these judges were played with: without the 2026-11-28 material term, which
# xiangqi's [play] settings have used since
OPTS=${OPTS:-?mat=0}
mkdir -p $D/judge
while pgrep -f "main.py train --game xiangqi --run-dir $R/" > /dev/null; do sleep 20; done
for arm in $A $B; do
    cp $R/$arm/latest.pt $D/$arm-latest.pt
    cp $R/$arm/metrics.jsonl $D/metrics-$arm.jsonl
    cp $R/$arm/run.json $D/run-$arm.json
done
play() {  # arm seed
    local f=$D/judge/$1-s$2
    [ -s $f.json ] && return
    $PY main.py arena --game xiangqi --a "model:$D/$1-latest.pt@800$OPTS" \
        --b uci:/usr/games/fairy-stockfish@depth1 --games 40 --balanced-openings 2 --seed $2 \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
}
queue() { for s in "$@"; do play $A $s; play $B $s; done; }
queue 1 3 5 &
queue 2 4 6 &
wait
