#!/bin/bash
# Wrong: the warm-up from 07:00 (the hour, not 07:30) to 18:00.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
