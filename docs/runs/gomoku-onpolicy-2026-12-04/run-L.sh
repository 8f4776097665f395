#!/bin/bash
# The rule of docs/runs/gomoku-onpolicy-2026-12-04/rule-L.md, run unattended (after run-K.sh).
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/onpolicy
S=$R/K.pt
test -f $S || { echo "no $S: run docs/runs/gomoku-onpolicy-2026-12-04/run-K.sh first"; exit 1; }
gen() {  # name, extra arguments
  $P tools/distil.py gen --game gomoku --out $R/$1.npz --positions 50000 --seed ${1//[a-zA-Z]/} \
     --temperature 0.5 --random-moves 0 --opening-stones 2 "${@:2}" > $R/gen-$1.log 2>&1
}
(gen sharp29; gen sharp30) &
(gen sharpK31 --student $S; gen sharpK32 --student $S) &
wait
$P tools/distil.py train --game gomoku --data $R/sharp29.npz $R/sharpK31.npz $R/sharp30.npz $R/sharpK32.npz --out $R/L.pt \
   --start $S --blocks 6 --channels 24 --epochs 4 --lr 5e-4 --seed 1 --threads 2 --hours 0.6 > $R/L-train.log 2>&1
$P tools/distil_measure.py $R/L.pt --game gomoku > $R/L-measure.jsonl 2> $R/L-measure.err
$P tools/distil_pick.py --judge L $R/L-measure.jsonl > $R/pick-L.txt
read s rt role < $R/pick-L.txt
for seed in 5 6; do
  $P main.py arena --game gomoku --a "model:$R/L.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed $seed --quiet --games-out $R/L-games-seed$seed.jsonl > $R/L-match-seed$seed.json 2> $R/L-arena-seed$seed.err &
done
wait
echo done > $R/L-done
