#!/bin/bash
# rule.md's judging of student M, unattended: waits for the training line (runs/student-m) to stop
# at its deadline, takes its last finished generation (latest.pt) as M, measures conditions (1) and
# (2), picks its runtime, and plays the two 80-game matches of condition (3) side by side.
set -e
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/student-m
while pgrep -f "train --game gomoku --run-dir $R" >/dev/null; do sleep 20; done
cp $R/latest.pt $R/M.pt
$P tools/distil_measure.py $R/M.pt --game gomoku > $R/M-measure.jsonl 2> $R/M-measure.err
$P tools/distil_pick.py --judge M $R/M-measure.jsonl > $R/pick-M.txt
read s rt role < $R/pick-M.txt
for seed in 7 8; do
  $P main.py arena --game gomoku --a "model:$R/M.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" \
     --games 80 --balanced-openings 2 --seed $seed --quiet --games-out $R/M-games-seed$seed.jsonl \
     > $R/M-match-seed$seed.json 2> $R/M-arena-seed$seed.err &
done
wait
echo done > $R/M-done
