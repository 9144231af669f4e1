#!/bin/bash
# Wrong: skips 03:00-03:59 on every day of the first week, not only on its Sunday.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
