#!/bin/bash
# Wrong: the first Monday as dom 1-7 with dow 1: cron ORs them, so days 1-7 and every Monday.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
