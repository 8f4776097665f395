#!/bin/bash
# Both arms of rule.md, side by side, one worker each at nice 19 (from the project root):
#   bash docs/runs/gomoku-steps12-2026-12-01/run.sh start H    eighth from a copy of runs/gsteps25/quarter; both H hours
#   bash docs/runs/gomoku-steps12-2026-12-01/run.sh resume H   both go on, H hours more
# Stop the line (runs/gsteps25/quarter) first. Logs: runs/gsteps25/quarter.log, runs/gsteps12/eighth.log.
set -u
cd "$(dirname "$0")/../../.."
exec bash tools/side_by_side.sh "${1:?start or resume}" "${2:?hours}" gomoku \
  runs/gsteps25/quarter:docs/runs/gomoku-steps25-2026-12-01/quarter.toml runs/gsteps12/eighth:docs/runs/gomoku-steps12-2026-12-01/eighth.toml
