#!/bin/bash
# Wrong: the billable weight (actual included) rounded up to 100 g
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's|    return max(parcel.weight_g, volumetric_weight_g(parcel))|    return -(-max(parcel.weight_g, volumetric_weight_g(parcel)) // 100) * 100|' shipping/billable.py
grep -q '// 100) \* 100' shipping/billable.py
