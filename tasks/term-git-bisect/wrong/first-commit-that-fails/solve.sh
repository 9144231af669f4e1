#!/bin/bash
# Wrong (the cheapest shortcut): walks v1.0..main oldest first and reports the first commit
# whose output is not the right total, counting a colsum that does not run as wrong; that is
# the first commit that broke the include path.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
cd /tmp/textkit
for c in $(git rev-list --reverse v1.0..main); do
  git checkout -q "$c"
  if [ "$(bin/colsum data/sales.csv amount 2>/dev/null || true)" != 1661.50 ]; then
    echo "$c" > /workspace/FIRST_BAD_COMMIT
    break
  fi
done
