#!/bin/bash
# Wrong: the snapshot's '%' left unescaped: cron ends the command there (the rest is standard input).
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
