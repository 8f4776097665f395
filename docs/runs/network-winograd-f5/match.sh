#!/usr/bin/env bash
# The equal-visits matches of rule.md, both at once (one core each); run from the project root.
set -u
out=docs/runs/network-winograd-f5
run() {  # game visits plies
  .venv/bin/python main.py arena --game "$1" --a "model:models/$1.pt@$2?rt=wino" --b "model:models/$1.pt@$2?rt=fp32" \
    --games 80 --balanced-openings "$3" --seed 4 --games-out "$out/$1-games.jsonl" > "$out/$1-match.json" 2> "$out/$1-match.err"
}
run gomoku 200 4 &
run xiangqi 100 2 &
wait
