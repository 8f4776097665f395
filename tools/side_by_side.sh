#!/bin/bash
# Two training arms of a compute-matched comparison, side by side, one worker each at nice 19
# (from the project root); a comparison's own run.sh calls it:
#   bash tools/side_by_side.sh start|resume HOURS GAME DIR_A:CONFIG_A DIR_B:CONFIG_B
# start: DIR_B is first made a copy of DIR_A (unless it exists), so both go on from the same
# generation, replay window and optimiser state; resume: both go on. Each DIR is under runs/ and
# logs to DIR.log. Stop any trainer in DIR_A first.
set -u
cd "$(dirname "$0")/.."
PY=${PY:-.venv/bin/python}
mode=${1:?start or resume}; H=${2:?hours}; game=${3:?game}; a=${4:?DIR_A:CONFIG_A}; b=${5:?DIR_B:CONFIG_B}
case $mode in
  start) mkdir -p "$(dirname "${b%%:*}")"; [ -e "${b%%:*}" ] || cp -a "${a%%:*}" "${b%%:*}" || exit 1 ;;
  resume) ;;
  *) echo "usage: side_by_side.sh start|resume HOURS GAME DIR_A:CONFIG_A DIR_B:CONFIG_B" >&2; exit 2 ;;
esac
for arm in "$a" "$b"; do
  dir=${arm%%:*}; config=${arm#*:}
  rm -f "$dir/trainer.lock"
  nohup nice -n 19 $PY main.py train --game "$game" --run-dir "$dir" --resume \
    --config "$config" --hours "$H" --workers 1 --quiet >> "$dir.log" 2>&1 &
done
wait
