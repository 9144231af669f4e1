#!/bin/bash
# Runs the agent's report script on LOG_DIR, from a scratch folder, into a fresh file and
# prints that file. The harness compares the output, on the host, with the expected
# summary (expected/ in the task folder, which never enters a container). Whatever the
# script itself prints is not part of the report.
set -euo pipefail
scratch=$(mktemp -d)
cd "$scratch"
timeout 30 bash /workspace/report/make_report.sh "$1" "$scratch/summary.csv" >/dev/null
cat -- "$scratch/summary.csv"
