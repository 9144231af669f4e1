#!/bin/bash
# Wrong: all of SHIP-142 fixed, no CHANGELOG line naming it
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i '/(SHIP-142)\.$/d' CHANGELOG.md
! grep -q SHIP-142 CHANGELOG.md
