#!/bin/bash
# Wrong: billable weight on the quote and in the CLI, not in the API response
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i '/"billable_weight_g": q.billable_weight_g,/d' shipping/api.py
! grep -q billable shipping/api.py
