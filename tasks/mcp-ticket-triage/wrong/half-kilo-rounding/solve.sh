#!/bin/bash
# Wrong: SHIP-131's first rule (half-kilogram steps, as DPD bills) instead of its final decision
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/^VOLUMETRIC_STEP_G = 100$/VOLUMETRIC_STEP_G = 500/' shipping/billable.py
grep -q '^VOLUMETRIC_STEP_G = 500$' shipping/billable.py
