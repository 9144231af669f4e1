#!/bin/bash
# Wrong: picks the most recent commit that talks about the colsum total instead of bisecting.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
git -C /tmp/textkit log --format=%H --grep='colsum: fix total' -1 main > /workspace/FIRST_BAD_COMMIT
