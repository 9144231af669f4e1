#!/bin/bash
# Wrong: SHIP-131's rounding ignored: the exact volumetric weight, truncated to whole grams
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's|    return -(-parcel.volume_cm3 \* 1000 // per_step) \* VOLUMETRIC_STEP_G|    return parcel.volume_cm3 * 1000 // VOLUMETRIC_DIVISOR_CM3_PER_KG|' shipping/billable.py
grep -q '// VOLUMETRIC_DIVISOR_CM3_PER_KG$' shipping/billable.py
