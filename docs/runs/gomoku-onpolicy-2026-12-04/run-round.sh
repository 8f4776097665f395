#!/bin/bash
# One round of the sharp-game rules (rule-K.md, rule-L.md), run unattended after run.sh:
#   run-round.sh K I 25 0.75 "3 4"    # rule-K.md
#   run-round.sh L K 29 0.6  "5 6"    # rule-L.md, after K's round
# NAME is the new student, FROM the one it continues and plays the teacher with, SEED the first
# of four data seeds (the teacher's self-play SEED and SEED+1, FROM's games SEED+2 and SEED+3),
# HOURS the training cap and JUDGE the opening seeds of its two 80-game matches. The data of the
# recorded rounds were drawn at commit c133f52, whose tools/distil.py drew --opening-stones with
# its own generator; later commits take the arena's random_openings, alike in kind, not in bits.
set -e
NAME=$1; FROM=$2; SEED=$3; HOURS=$4; JUDGE=$5
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
R=runs/onpolicy
S=$R/$FROM.pt
test -f $S || { echo "no $S: run the round that makes $FROM first"; exit 1; }
gen() {  # file name, seed, extra arguments
  $P tools/distil.py gen --game gomoku --out $R/$1.npz --positions 50000 --seed $2 \
     --temperature 0.5 --random-moves 0 --opening-stones 2 "${@:3}" > $R/gen-$1.log 2>&1
}
A=sharp$SEED; B=sharp$((SEED + 1)); C=sharp$FROM$((SEED + 2)); E=sharp$FROM$((SEED + 3))
(gen $A $SEED; gen $B $((SEED + 1))) &
(gen $C $((SEED + 2)) --student $S; gen $E $((SEED + 3)) --student $S) &
wait
$P tools/distil.py train --game gomoku --data $R/$A.npz $R/$C.npz $R/$B.npz $R/$E.npz --out $R/$NAME.pt \
   --start $S --blocks 6 --channels 24 --epochs 4 --lr 5e-4 --seed 1 --threads 2 --hours $HOURS > $R/$NAME-train.log 2>&1
$P tools/distil_measure.py $R/$NAME.pt --game gomoku > $R/$NAME-measure.jsonl 2> $R/$NAME-measure.err
$P tools/distil_pick.py --judge $NAME $R/$NAME-measure.jsonl > $R/pick-$NAME.txt
read s rt role < $R/pick-$NAME.txt
for seed in $JUDGE; do
  $P main.py arena --game gomoku --a "model:$R/$NAME.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed $seed --quiet --games-out $R/$NAME-games-seed$seed.jsonl > $R/$NAME-match-seed$seed.json 2> $R/$NAME-arena-seed$seed.err &
done
wait
echo done > $R/$NAME-done
