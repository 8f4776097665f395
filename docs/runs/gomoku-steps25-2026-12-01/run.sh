#!/bin/bash
# Both arms of rule.md, side by side, one worker each at nice 19 (from the project root):
#   bash docs/runs/gomoku-steps25-2026-12-01/run.sh start H    both from runs/gsteps/half (copied), H hours
#   bash docs/runs/gomoku-steps25-2026-12-01/run.sh resume H   both go on, H hours more
# Run folders: runs/gsteps25/half and runs/gsteps25/quarter; logs beside them.
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-steps25-2026-12-01
PY=${PY:-.venv/bin/python}
mode=${1:?start or resume}; H=${2:?hours}
mkdir -p runs/gsteps25
for arm in half quarter; do
  case $mode in
    start) [ -e runs/gsteps25/$arm ] || cp -a runs/gsteps/half runs/gsteps25/$arm || exit 1 ;;
    resume) ;;
    *) echo "usage: run.sh start|resume HOURS" >&2; exit 2 ;;
  esac
  rm -f runs/gsteps25/$arm/trainer.lock
  nohup nice -n 19 $PY main.py train --game gomoku --run-dir runs/gsteps25/$arm --resume \
    --config $D/$arm.toml --hours "$H" --workers 1 --quiet >> runs/gsteps25/$arm.log 2>&1 &
done
wait
