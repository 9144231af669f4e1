#!/bin/bash
# Wrong: SHIP-131's first rule (half-kilogram steps, as DPD bills) instead of its final decision
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/^VOLUMETRIC_STEP_G = 100$/VOLUMETRIC_STEP_G = 500/' shipping/billable.py
grep -q '^VOLUMETRIC_STEP_G = 500$' shipping/billable.py
