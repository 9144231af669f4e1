#!/bin/bash
# Wrong: '*/40' in the minute field restarts every hour (:00 and :40), it is not every 40 minutes.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
