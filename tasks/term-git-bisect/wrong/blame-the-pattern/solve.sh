#!/bin/bash
# Wrong: runs git blame on main's is_number() line and reports the commit that last changed
# it (it widened the pattern to a leading "+"; the total was still right afterwards).
set -euo pipefail
cd /workspace
git clone -q textkit.bundle /tmp/textkit
git -C /tmp/textkit blame --porcelain -L '/function is_number/,+1' main -- bin/colsum | head -1 | cut -d' ' -f1 > /workspace/FIRST_BAD_COMMIT
