#!/bin/bash
# Wrong: asks `git log -S` which commit introduced the number pattern that rejects a minus
# sign, and blames it. That commit added the pattern for -s (strict) only; the plain sum
# did not use it until much later.
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
git -C /tmp/textkit log -S'[0-9]+([.][0-9]+)?' --format=%H main -- bin/colsum | tail -1 > /workspace/FIRST_BAD_COMMIT
