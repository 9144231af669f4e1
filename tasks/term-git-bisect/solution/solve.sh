#!/bin/bash
# Oracle: bisect between v1.0 and main; commits where colsum does not run are skipped (125).
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
cd /tmp/textkit
git bisect start main v1.0 >/dev/null
git bisect run sh -c 'out=$(bin/colsum data/sales.csv amount 2>/dev/null) || exit 125; [ "$out" = 1661.50 ]' > /tmp/bisect.log
cat /tmp/bisect.log
git rev-parse refs/bisect/bad > /workspace/FIRST_BAD_COMMIT
cat /workspace/FIRST_BAD_COMMIT
