#!/bin/bash
# The shipped gomoku network (the line's generation 81, shipped on 2026-12-01) measured as its
# predecessor, generation 115, was (models/gomoku.json):
#   bash docs/runs/gomoku-g81-2026-12-01/run.sh suite S...  the strength suite's games: 800 visits
#       against Rapfi (classical, max_node 1000) from the 50 balanced 3-stone openings of seed S,
#       both sides (rapfi_slice.py reproduces `main.py arena --balanced-openings 3 --seed S`);
#       seeds 5-8 pair with generation 115's games on the same openings
#       (docs/runs/gomoku-vct-selfplay-2026-11-30/rapfi/g115-s*.games.jsonl)
#   bash docs/runs/gomoku-g81-2026-12-01/run.sh rung S...   issue 57's rung: the strong level as the
#       app plays it (level:strong, its 1,000 visits, no time cap) against Rapfi at 10,000 nodes,
#       20 games from the balanced 2-stone openings of seed S, as
#       docs/runs/strong-rungs-2026-11-29/run-gomoku.sh played generation 115 (seeds 1-4 there,
#       5-8 in docs/runs/gomoku-defence-2026-11-29/base-s*)
# A seed already complete is kept, so a stopped run goes on.
# RAPFI: the brain (tools/refengines/build_rapfi.sh), default /tmp/refengines/rapfi/build/pbrain-rapfi
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-g81-2026-12-01
PY=${PY:-.venv/bin/python}
RAPFI=${RAPFI:-/tmp/refengines/rapfi/build/pbrain-rapfi}
what=${1:?suite or rung}; shift
for s in "$@"; do
  case $what in
    suite)
      out=$D/suite-s$s.games.jsonl
      [ -s "$out" ] && [ "$(wc -l < "$out")" -eq 100 ] && continue
      $PY docs/runs/ab-gomoku-cap/rapfi_slice.py "model:models/gomoku.pt@800" "gomocup:$RAPFI@nodes1000" \
        "$s" 0 50 "$out" 2> "$D/suite-s$s.err" ;;
    rung)
      f=$D/rapfi10k-s$s
      [ -s $f.json ] && continue
      $PY main.py arena --game gomoku --a "level:strong?cap=0" --b "gomocup:$RAPFI@nodes10000" --games 20 \
        --balanced-openings 2 --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json ;;
    *) echo "usage: run.sh suite|rung SEED..." >&2; exit 2 ;;
  esac
done
