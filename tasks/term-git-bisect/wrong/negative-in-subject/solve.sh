#!/bin/bash
# Wrong: picks the commit whose subject talks about negative numbers instead of bisecting
# ("colsum: do not print a negative zero", which changes nothing for this file).
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
git -C /tmp/textkit log --format=%H -i --grep='negative' -1 main > /workspace/FIRST_BAD_COMMIT
