#!/bin/bash
# Wrong: the Fridays line limited to the other days of the month with dow=fri, which cron ORs: every day but the 1st and 15th.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
