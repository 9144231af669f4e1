#!/bin/bash
# Wrong: part 2 done, part 1 (inclusive band limits) forgotten
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/        if weight_g <= up_to_g:/        if weight_g < up_to_g:/' shipping/rates.py
grep -q 'weight_g < up_to_g' shipping/rates.py
