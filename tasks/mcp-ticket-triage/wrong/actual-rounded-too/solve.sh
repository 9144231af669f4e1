#!/bin/bash
# Wrong: the billable weight (actual included) rounded up to 100 g
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's|    return max(parcel.weight_g, volumetric_weight_g(parcel))|    return -(-max(parcel.weight_g, volumetric_weight_g(parcel)) // 100) * 100|' shipping/billable.py
grep -q '// 100) \* 100' shipping/billable.py
