#!/bin/bash
# Wrong: every exclusive weight step in the package made inclusive, the carriers' contracts included
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/            if weight_g < under_g:/            if weight_g <= under_g:/' shipping/carriers/base.py
grep -q 'weight_g <= under_g' shipping/carriers/base.py
