#!/bin/bash
# rule.md's xiangqi games: two halves of the 30 openings side by side, then the tally (project root).
cd "$(dirname "$0")/../../.."
PY=${PY:-.venv/bin/python}
H=docs/runs/recall-in-gather-2026-11-30
$PY $H/xq_match.py 0 15 $H/xq-a.games.jsonl 2> $H/xq-a.err &
$PY $H/xq_match.py 15 15 $H/xq-b.games.jsonl 2> $H/xq-b.err &
wait
$PY $H/tally.py
