#!/bin/bash
# The rule of docs/runs/gomoku-onpolicy-2026-12-04/rule-K.md, run unattended (after run.sh).
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/onpolicy
I=$R/I.pt
test -f $I || { echo "no $I: run docs/runs/gomoku-onpolicy-2026-12-04/run.sh first"; exit 1; }
gen() {  # name, extra arguments
  $P tools/distil.py gen --game gomoku --out $R/$1.npz --positions 50000 --seed ${1//[a-zA-Z]/} \
     --temperature 0.5 --random-moves 0 --opening-stones 2 "${@:2}" > $R/gen-$1.log 2>&1
}
(gen sharp25; gen sharp26) &
(gen sharpI27 --student $I; gen sharpI28 --student $I) &
wait
$P tools/distil.py train --game gomoku --data $R/sharp25.npz $R/sharpI27.npz $R/sharp26.npz $R/sharpI28.npz --out $R/K.pt \
   --start $I --blocks 6 --channels 24 --epochs 4 --lr 5e-4 --seed 1 --threads 2 --hours 0.75 > $R/K-train.log 2>&1
$P tools/distil_measure.py $R/K.pt --game gomoku > $R/K-measure.jsonl 2> $R/K-measure.err
$P tools/distil_pick.py --judge K $R/K-measure.jsonl > $R/pick-K.txt
read s rt role < $R/pick-K.txt
for seed in 3 4; do
  $P main.py arena --game gomoku --a "model:$R/K.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed $seed --quiet --games-out $R/K-games-seed$seed.jsonl > $R/K-match-seed$seed.json 2> $R/K-arena-seed$seed.err &
done
wait
echo done > $R/K-done
