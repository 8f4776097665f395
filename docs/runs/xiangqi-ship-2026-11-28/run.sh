#!/bin/bash
# The 2026-11-28 ship test (judge.py): the attack arm's network (generation 85) with the material
# term at 800 visits against fairy-stockfish, 40 games from the balanced openings of each seed.
# usage (project root): bash docs/runs/xiangqi-ship-2026-11-28/run.sh d1:SEED... elo:SEED...
#   d1:S  against depth 1 from seed S's openings (attackmat-sS)
#   elo:S against Elo 1350 at 1000 nodes a move (elo1350-attackmat-sS)
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-ship-2026-11-28
PY=${PY:-.venv/bin/python}
A="model:docs/runs/ab-xiangqi-attack/attack-latest.pt@800?mat=8"
for job in "$@"; do
    s=${job#*:}
    case $job in
        d1:*) f=$D/attackmat-s$s; b=uci:/usr/games/fairy-stockfish@depth1 ;;
        elo:*) f=$D/elo1350-attackmat-s$s; b="uci:/usr/games/fairy-stockfish@nodes1000?UCI_LimitStrength=true&UCI_Elo=1350" ;;
        *) echo "unknown job $job" >&2; exit 2 ;;
    esac
    [ -s $f.json ] && continue
    $PY main.py arena --game xiangqi --a "$A" --b "$b" --games 40 --balanced-openings 2 --seed $s \
        --games-out $f.games.jsonl --progress > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
