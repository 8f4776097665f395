#!/bin/bash
# 2026-11-28: the shipped xiangqi network (generation 171) with the material term (mat=8) against
# fairy-stockfish limited to Elo 1350 at 1000 nodes a move, from the balanced openings of seeds
# 0 and 1, one core each, as docs/runs/xiangqi-capture-fix-2026-11-28/run_elo.sh played 171 without it
# (elo1350-mat171-s*.games.jsonl here).
# usage (project root): bash docs/runs/xiangqi-material-2026-11-28/run_elo.sh
cd "$(dirname "$0")/../../.."
D=docs/runs/xiangqi-material-2026-11-28 NAME=mat171 OPTS="?mat=8" exec bash docs/runs/xiangqi-capture-fix-2026-11-28/run_elo.sh
