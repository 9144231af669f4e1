#!/bin/bash
# Wrong: adds the Sunday line without the maintenance window but keeps the every-day line,
# so the ping still runs during the window.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
