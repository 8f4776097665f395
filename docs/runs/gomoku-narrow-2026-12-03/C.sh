#!/bin/bash
set -e
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
$P tools/distil.py train --game gomoku --data runs/narrow2/seed11.npz --out runs/narrow2/C-4x32.pt --blocks 4 --channels 32 --epochs 10 --seed 1 --threads 1 > runs/narrow2/C-train.log 2>&1
$P tools/distil_measure.py runs/narrow2/C-4x32.pt --game gomoku > runs/narrow2/C-measure.jsonl 2> runs/narrow2/C-measure.err
echo done > runs/narrow2/C-done
