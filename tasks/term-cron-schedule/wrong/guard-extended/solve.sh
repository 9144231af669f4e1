#!/bin/bash
# Wrong: teaches the signed-off guard a condition of its own (first-mon) and uses it.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
sed -i 's/^    last-day) /    first-mon) [ "$dow" = 1 ] \&\& [ "$(date +%-d)" -le 7 ] || exit 1; continue ;;\n    last-day) /' /workspace/ops/bin/today-is
