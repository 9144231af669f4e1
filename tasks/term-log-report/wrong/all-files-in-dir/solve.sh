#!/bin/bash
set -euo pipefail
mkdir -p /workspace/report
cp /nab/solution/make_report.sh /workspace/report/make_report.sh
bash /workspace/report/make_report.sh /workspace/logs /workspace/report/summary.csv
