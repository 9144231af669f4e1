#!/bin/bash
# Wrong: adds the Sunday lines but keeps the every-day line, so the ping still runs during the
# window (and twice at once on Sundays).
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
