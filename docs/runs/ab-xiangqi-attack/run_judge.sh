#!/bin/bash
# The attack-planes comparison's judge on two cores, once its trainers (runs/xa) have ended.
# usage (project root): bash docs/runs/ab-xiangqi-attack/run_judge.sh
cd "$(dirname "$0")/../../.." && exec bash docs/runs/ab-xiangqi-deep/run_judge.sh docs/runs/ab-xiangqi-attack runs/xa attack base
