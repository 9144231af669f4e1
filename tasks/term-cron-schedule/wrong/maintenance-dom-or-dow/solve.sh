#!/bin/bash
# Wrong: the later Sundays' 03:00 hour as dom 8-31 with dow 0, which cron ORs: every day from the 8th pings twice at 03:xx.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
