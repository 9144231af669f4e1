#!/bin/bash
# Wrong: keeps dow=1 next to dom=1 for log rotation (cron ORs them: every Monday too).
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
