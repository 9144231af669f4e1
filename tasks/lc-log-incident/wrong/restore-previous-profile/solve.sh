#!/bin/bash
# Wrong: every other fact right, but the remediation gives the size to the profile the pool
# used before the root cause (slim), which it no longer uses: sidecar, below slim in its
# chain, sets 4 itself, so the setting changes nothing.
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh > /dev/null
sed -i -E 's/^remediation: .*/remediation: profiles.slim.pool_size=36/' ANSWER.txt
cat ANSWER.txt
