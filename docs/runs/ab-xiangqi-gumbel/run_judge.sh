#!/bin/bash
# The Gumbel self-play comparison's judge on two cores, once its trainers (runs/xg) have ended.
# usage (project root): bash docs/runs/ab-xiangqi-gumbel/run_judge.sh
cd "$(dirname "$0")/../../.." && exec bash docs/runs/ab-xiangqi-deep/run_judge.sh docs/runs/ab-xiangqi-gumbel runs/xg gumbel base
