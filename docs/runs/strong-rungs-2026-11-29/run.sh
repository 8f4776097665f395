#!/bin/bash
# Issue 57's strength rungs at the strong level as the app plays it (its strong_visits, no time
# cap so that the machine's load does not change the result), 20 games from the balanced
# openings of each seed, each opening played from both sides.
# usage (project root): bash docs/runs/strong-rungs-2026-11-29/run.sh JOB...
#   xq1800:S  xiangqi against fairy-stockfish limited to Elo 1800 at 1000 nodes a move
#   xqd2:S    xiangqi against fairy-stockfish at depth 2
#   xq90d2:S, xq90e1800:S  the same with the network shipped later on 2026-11-29 (the xiangqi
#             line's generation 90; the jobs above played the network shipped on 2026-11-28)
#             (seeds 1-2 on 2026-11-29 at the strong level's 1,400 visits; seeds 3-4 on 2026-12-01 at its
#             1,500 visits since 2026-11-30)
#   xq47d2:S, xq47e1800:S  the same network at the strong level's 4,700 visits of 2026-12-02
#             (seeds 5-6)
#   ot9:S     othello against Egaroucid's web engine at level 9, book off, at the strong level's
#             6,900 visits of 2026-12-02 (balanced 4-ply openings; seeds 5-6)
cd "$(dirname "$0")/../../.."
D=docs/runs/strong-rungs-2026-11-29
PY=${PY:-.venv/bin/python}
FSF=/usr/games/fairy-stockfish
for job in "$@"; do
    s=${job#*:}
    case $job in
        xq1800:*) g=xiangqi; f=$D/xiangqi-elo1800-s$s; b="uci:$FSF@nodes1000?UCI_LimitStrength=true&UCI_Elo=1800" ;;
        xqd2:*) g=xiangqi; f=$D/xiangqi-depth2-s$s; b="uci:$FSF@depth2" ;;
        xq90d2:*) g=xiangqi; f=$D/xiangqi-line90-depth2-s$s; b="uci:$FSF@depth2" ;;
        xq90e1800:*) g=xiangqi; f=$D/xiangqi-line90-elo1800-s$s; b="uci:$FSF@nodes1000?UCI_LimitStrength=true&UCI_Elo=1800" ;;
        xq47d2:*) g=xiangqi; f=$D/xiangqi-4700-depth2-s$s; b="uci:$FSF@depth2" ;;
        xq47e1800:*) g=xiangqi; f=$D/xiangqi-4700-elo1800-s$s; b="uci:$FSF@nodes1000?UCI_LimitStrength=true&UCI_Elo=1800" ;;
        ot9:*) g=othello; f=$D/othello-6900-level9-s$s; b="nboard:/tmp/refengines/egaroucid/nboard-egaroucid-web 9@depth9" ;;
        *) echo "unknown job $job" >&2; exit 2 ;;
    esac
    [ -s $f.json ] && continue
    plies=2; [ $g = othello ] && plies=4
    nice -n 5 $PY main.py arena --game $g --a "level:strong?cap=0" --b "$b" --games 20 --balanced-openings $plies \
        --seed $s --games-out $f.games.jsonl > $f.json.part 2> $f.err && mv $f.json.part $f.json
done
