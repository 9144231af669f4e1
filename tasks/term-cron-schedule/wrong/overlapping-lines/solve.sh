#!/bin/bash
# Wrong: the right set of times, but the health ping's lines overlap (Monday to Saturday all day, and
# every day outside 03:00-03:59), so cron runs it twice at once on most of its firings.
set -euo pipefail
cp /nab/solution/crontab /workspace/ops/crontab
