#!/bin/bash
# Wrong: skips 03:00-03:59 every day instead of only on Sundays.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
