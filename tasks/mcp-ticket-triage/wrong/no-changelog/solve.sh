#!/bin/bash
# Wrong: all of SHIP-142 fixed, no CHANGELOG line naming it
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i '/(SHIP-142)\.$/d' CHANGELOG.md
! grep -q SHIP-142 CHANGELOG.md
