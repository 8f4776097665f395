#!/bin/bash
cd "$(git rev-parse --show-toplevel)"
P=.venv/bin/python
$P tools/distil.py gen --game gomoku --out runs/narrow3/seed$1.npz --positions 15000 --seed $1 --search-visits 100 > runs/narrow3/gen$1.log 2>&1
echo done > runs/narrow3/gen$1-done
