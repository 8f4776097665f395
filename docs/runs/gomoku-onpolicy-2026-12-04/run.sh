#!/bin/bash
# The rule of docs/runs/gomoku-onpolicy-2026-12-04/rule.md, run unattended.
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/onpolicy
G=runs/deep24/G.pt   # docs/runs/gomoku-deepnarrow-2026-12-04/run.sh rebuilds it
test -f $G || { echo "no $G: run docs/runs/gomoku-deepnarrow-2026-12-04/run.sh first"; exit 1; }
gen() {  # seed, extra arguments
  $P tools/distil.py gen --game gomoku --out $R/$1.npz --positions 100000 --seed ${1//[a-z]/} "${@:2}" > $R/gen-$1.log 2>&1
}
(gen seed21; gen seed23) &
(gen seed22; gen onpolicy24 --student $G) &
wait
train() {  # name, last data file
  $P tools/distil.py train --game gomoku --data $R/seed21.npz $R/seed22.npz $R/$2.npz --out $R/$1.pt \
     --start $G --blocks 6 --channels 24 --epochs 4 --lr 5e-4 --seed 1 --threads 1 --hours 1.0 > $R/$1-train.log 2>&1
  $P tools/distil_measure.py $R/$1.pt --game gomoku > $R/$1-measure.jsonl 2> $R/$1-measure.err
}
train I onpolicy24 &
train J seed23 &
wait
$P tools/distil_pick.py --judge I $R/I-measure.jsonl $R/J-measure.jsonl > $R/pick.txt
while read s rt role; do
  $P main.py arena --game gomoku --a "model:$R/$s.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed 3 --quiet --games-out $R/$s-games-seed3.jsonl > $R/$s-match-seed3.json 2> $R/$s-arena-seed3.err &
done < $R/pick.txt
wait
echo done > $R/all-done
