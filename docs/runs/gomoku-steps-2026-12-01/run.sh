#!/bin/bash
# Both arms of rule.md, side by side, one worker each at nice 19 (from the project root):
#   bash docs/runs/gomoku-steps-2026-12-01/run.sh start H    both from models/gomoku.pt (--init), H hours
#   bash docs/runs/gomoku-steps-2026-12-01/run.sh resume H   both go on (--resume), H hours more
# Run folders: runs/gsteps/base and runs/gsteps/half; logs beside them.
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-steps-2026-12-01
PY=${PY:-.venv/bin/python}
mode=${1:?start or resume}; H=${2:?hours}
mkdir -p runs/gsteps
for arm in base half; do
  case $mode in
    start) from=(--init models/gomoku.pt) ;;
    resume) rm -f runs/gsteps/$arm/trainer.lock; from=(--resume) ;;
    *) echo "usage: run.sh start|resume HOURS" >&2; exit 2 ;;
  esac
  nohup nice -n 19 $PY main.py train --game gomoku --run-dir runs/gsteps/$arm "${from[@]}" \
    --config $D/$arm.toml --hours "$H" --workers 1 --quiet >> runs/gsteps/$arm.log 2>&1 &
done
wait
