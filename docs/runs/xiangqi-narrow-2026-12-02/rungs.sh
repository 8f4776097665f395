#!/bin/bash
# Shipping B, step 2: the issue's two xiangqi rungs at B's strong visits, played as
# docs/runs/strong-rungs-2026-11-29/run.sh played the shipped network's (the strong level,
# no time cap, 20 games from the balanced 2-ply openings of each seed, each from both sides),
# from a checkout whose models/xiangqi.pt is B and whose models/xiangqi.json says
# strong_visits 5500 (and no runtime_matches: B plays float32).
# usage: bash rungs.sh CHECKOUT JOB...   JOB: d2:S (go depth 2) or e1800:S (UCI_Elo 1800, 1000 nodes)
OUT=$(cd "$(dirname "$0")" && pwd)
cd "$1" && shift
FSF=/usr/games/fairy-stockfish
for job in "$@"; do
    s=${job#*:}
    case $job in
        d2:*) f=$OUT/B-5500-depth2-s$s; b="uci:$FSF@depth2" ;;
        e1800:*) f=$OUT/B-5500-elo1800-s$s; b="uci:$FSF@nodes1000?UCI_LimitStrength=true&UCI_Elo=1800" ;;
        *) echo "unknown job $job" >&2; exit 2 ;;
    esac
    [ -s $f.json ] && continue
    .venv/bin/python main.py arena --game xiangqi --a "level:strong?cap=0" --b "$b" --games 20 --balanced-openings 2 \
        --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
