#!/bin/bash
# Wrong: every 40 minutes, but the even hours run to 18 with :40, so it also syncs at 18:40.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
