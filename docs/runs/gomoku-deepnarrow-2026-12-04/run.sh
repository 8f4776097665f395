#!/bin/bash
# The rule of 07:17 UTC 2026-12-04 (docs/runs/gomoku-deepnarrow-2026-12-04/rule.md), run unattended.
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/deep24
for s in 21 22; do
  $P tools/distil.py gen --game gomoku --out $R/seed$s.npz --positions 100000 --seed $s > $R/gen$s.log 2>&1 &
done
wait
train() {  # name, blocks
  $P tools/distil.py train --game gomoku --data $R/seed21.npz $R/seed22.npz --out $R/$1.pt --blocks $2 --channels 24 \
     --epochs 6 --lr 2e-3 --seed 1 --threads 1 --hours 1.0 > $R/$1-train.log 2>&1
  $P tools/distil_measure.py $R/$1.pt --game gomoku > $R/$1-measure.jsonl 2> $R/$1-measure.err
}
train G 6 &
train H 7 &
wait
$P tools/distil_pick.py $R/G-measure.jsonl $R/H-measure.jsonl > $R/pick.txt
while read s rt role; do
  $P main.py arena --game gomoku --a "model:$R/$s.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed 3 --quiet --games-out $R/$s-games-seed3.jsonl > $R/$s-match-seed3.json 2> $R/$s-arena-seed3.err &
done < $R/pick.txt
wait
echo done > $R/all-done
