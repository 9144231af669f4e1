#!/bin/bash
# Wrong: odd days as '1-31/2' next to dow 1-5: a field not starting with '*' is restricted, so cron ORs them.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
