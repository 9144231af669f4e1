#!/bin/bash
# Wrong: SHIP-143 (undecided) done as well: oversize from a longest side of 100 cm
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/^OVERSIZE_LONGEST_SIDE_OVER_CM = 120$/OVERSIZE_LONGEST_SIDE_OVER_CM = 100/' shipping/config.py
grep -q 'OVER_CM = 100$' shipping/config.py
