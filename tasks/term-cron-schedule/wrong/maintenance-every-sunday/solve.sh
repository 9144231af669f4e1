#!/bin/bash
# Wrong: pauses the health ping at 03:00-03:59 on every Sunday, not only the first of the month.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
