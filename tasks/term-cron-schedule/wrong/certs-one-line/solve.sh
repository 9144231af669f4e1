#!/bin/bash
# Wrong: 09:00 and 21:30 as one line: minutes and hours combine, so 09:30 and 21:00 too.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
