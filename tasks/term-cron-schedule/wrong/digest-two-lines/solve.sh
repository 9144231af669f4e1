#!/bin/bash
# Wrong: the digest as two lines (the 1st/15th, and Fridays): a Friday that is the 1st or the 15th runs it twice.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
