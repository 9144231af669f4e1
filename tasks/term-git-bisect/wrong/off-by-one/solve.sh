#!/bin/bash
# Wrong: reports the last good commit (the bad commit's parent) instead of the first bad one.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
cd /tmp/textkit
git bisect start main v1.0 >/dev/null
git bisect run sh -c 'out=$(bin/colsum data/sales.csv amount 2>/dev/null) || exit 125; [ "$out" = 1661.50 ]' > /dev/null
git rev-parse 'refs/bisect/bad^' > /workspace/FIRST_BAD_COMMIT
