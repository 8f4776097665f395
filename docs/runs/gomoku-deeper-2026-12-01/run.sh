#!/bin/bash
# Both arms of rule.md, side by side, one worker each at nice 19 (from the project root):
#   bash docs/runs/gomoku-deeper-2026-12-01/run.sh start H    deep from a copy of runs/gsteps25/quarter; both H hours
#   bash docs/runs/gomoku-deeper-2026-12-01/run.sh resume H   both go on, H hours more
# Stop the line (runs/gsteps25/quarter) first. Logs: runs/gsteps25/quarter.log, runs/gdeep/deep.log.
set -u
cd "$(dirname "$0")/../../.."
D=docs/runs/gomoku-deeper-2026-12-01
PY=${PY:-.venv/bin/python}
mode=${1:?start or resume}; H=${2:?hours}
case $mode in
  start) mkdir -p runs/gdeep; [ -e runs/gdeep/deep ] || cp -a runs/gsteps25/quarter runs/gdeep/deep || exit 1 ;;
  resume) ;;
  *) echo "usage: run.sh start|resume HOURS" >&2; exit 2 ;;
esac
for arm in gsteps25/quarter:docs/runs/gomoku-steps25-2026-12-01/quarter.toml gdeep/deep:$D/deep.toml; do
  dir=runs/${arm%%:*}; config=${arm#*:}
  rm -f $dir/trainer.lock
  nohup nice -n 19 $PY main.py train --game gomoku --run-dir $dir --resume \
    --config $config --hours "$H" --workers 1 --quiet >> $dir.log 2>&1 &
done
wait
