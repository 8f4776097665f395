#!/bin/bash
set -e
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
$P tools/distil.py gen --game gomoku --out runs/narrow2/seed12.npz --positions 200000 --seed 12 > runs/narrow2/D-gen.log 2>&1
$P tools/distil.py train --game gomoku --data runs/narrow2/seed11.npz runs/narrow2/seed12.npz --out runs/narrow2/D-4x32.pt --blocks 4 --channels 32 --epochs 5 --seed 1 --threads 1 > runs/narrow2/D-train.log 2>&1
$P tools/distil_measure.py runs/narrow2/D-4x32.pt --game gomoku > runs/narrow2/D-measure.jsonl 2> runs/narrow2/D-measure.err
echo done > runs/narrow2/D-done
