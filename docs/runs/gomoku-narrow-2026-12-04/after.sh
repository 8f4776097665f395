#!/bin/bash
# The rule of 06:34 UTC 2026-12-04 (docs/runs/gomoku-narrow-2026-12-04/rule.md), run unattended.
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/narrow3
while [ ! -f $R/gen13-done ] || [ ! -f $R/gen14-done ]; do sleep 10; done
train() {  # name, policy target, value target
  $P tools/distil.py train --game gomoku --data $R/seed13.npz $R/seed14.npz --held-out 2000 --start runs/narrow2/D-4x32.pt \
     --out $R/$1-4x32.pt --blocks 4 --channels 32 --epochs 6 --lr 5e-4 --seed 1 --threads 1 \
     --policy-target $2 --value-target $3 > $R/$1-train.log 2>&1
  $P tools/distil_measure.py $R/$1-4x32.pt --game gomoku > $R/$1-measure.jsonl 2> $R/$1-measure.err
}
train E search search &
train F raw search &
wait
match() {  # name, seed
  rt=$($P tools/distil_pick.py $R/$1-measure.jsonl | cut -d' ' -f2)   # its runtime; E is judged by the rule
  $P main.py arena --game gomoku --a "model:$R/$1-4x32.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed $2 --quiet --games-out $R/$1-games-seed$2.jsonl > $R/$1-match-seed$2.json 2> $R/$1-arena-seed$2.err
}
match E 3 &
match F 3 &
wait
echo done > $R/all-done
