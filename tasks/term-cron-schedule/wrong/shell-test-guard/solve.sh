#!/bin/bash
# Wrong: a guard of its own ([ "$(date +\%u)" = 1 ]) where JOBS.md accepts only bin/today-is.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
