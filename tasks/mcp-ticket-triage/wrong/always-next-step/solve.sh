#!/bin/bash
# Wrong: volumetric rounded to the next 100 g even when it is already a whole step (4000 g becomes 4100 g)
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's|    return -(-parcel.volume_cm3 \* 1000 // per_step) \* VOLUMETRIC_STEP_G|    return (parcel.volume_cm3 * 1000 // per_step + 1) * VOLUMETRIC_STEP_G|' shipping/billable.py
grep -q '+ 1) \* VOLUMETRIC_STEP_G' shipping/billable.py
