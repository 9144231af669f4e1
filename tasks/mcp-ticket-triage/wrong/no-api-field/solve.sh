#!/bin/bash
# Wrong: billable weight on the quote and in the CLI, not in the API response
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i '/"billable_weight_g": q.billable_weight_g,/d' shipping/api.py
! grep -q billable shipping/api.py
