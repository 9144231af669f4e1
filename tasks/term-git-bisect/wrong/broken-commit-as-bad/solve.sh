#!/bin/bash
# Wrong: any commit whose output is not the good total counts as bad (no skip), so bisect
# blames the first commit of a stretch where colsum does not run at all.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
cd /tmp/textkit
git bisect start main v1.0 >/dev/null
git bisect run sh -c '[ "$(bin/colsum data/sales.csv amount)" = 1661.50 ]' > /dev/null 2>&1
git rev-parse refs/bisect/bad > /workspace/FIRST_BAD_COMMIT
