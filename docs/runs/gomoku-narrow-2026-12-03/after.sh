#!/bin/bash
cd "$(git rev-parse --show-toplevel)"
while [ ! -f runs/narrow2/C-done ] || [ ! -f runs/narrow2/D-done ]; do sleep 10; done
P=.venv/bin/python
$P tools/distil_pick.py runs/narrow2/C-measure.jsonl runs/narrow2/D-measure.jsonl > runs/narrow2/pick.txt
while read s rt role; do
  $P main.py arena --game gomoku --a "model:runs/narrow2/$s-4x32.pt@100?rt=$rt" --b "model:models/gomoku.pt@100?rt=fp32" --games 80 --balanced-openings 2 --seed 3 --quiet --games-out runs/narrow2/$s-games.jsonl > runs/narrow2/$s-match.json 2> runs/narrow2/$s-arena.err
done < runs/narrow2/pick.txt
echo done > runs/narrow2/all-done
