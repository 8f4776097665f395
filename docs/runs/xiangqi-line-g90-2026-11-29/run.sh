#!/bin/bash
# The ship test of the xiangqi line's generation 90 (judge.py): the candidate at 800 visits with
# the material term, 40 games from the balanced openings of each seed.
# usage (project root): bash docs/runs/xiangqi-line-g90-2026-11-29/run.sh MODEL d1:SEED... elo:SEED...
#   d1:S  against fairy-stockfish at depth 1 from seed S's openings (line90-sS)
#   elo:S against fairy-stockfish limited to Elo 1350 at 1000 nodes a move (elo1350-line90-sS)
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-line-g90-2026-11-29
PY=${PY:-.venv/bin/python}
A="model:$1@800?mat=8"; shift
for job in "$@"; do
    s=${job#*:}
    case $job in
        d1:*) f=$D/line90-s$s; b=uci:/usr/games/fairy-stockfish@depth1 ;;
        elo:*) f=$D/elo1350-line90-s$s; b="uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350" ;;
        *) echo "unknown job $job" >&2; exit 2 ;;
    esac
    [ -s $f.json ] && continue
    nice -n 5 $PY main.py arena --game xiangqi --a "$A" --b "$b" --games 40 --balanced-openings 2 --seed $s \
        --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
