#!/bin/bash
# Wrong: the last day from month lengths, with 28 February (2024 is a leap year: its last day is the 29th).
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
