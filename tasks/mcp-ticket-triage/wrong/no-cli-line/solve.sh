#!/bin/bash
# Wrong: billable weight on the quote and in the API, not in the CLI output
set -euo pipefail
cd /workspace
bash /nab/solution/solve.sh
sed -i 's/, f"billable weight: {q.billable_weight_g} g"\]/]/' shipping/format.py
! grep -q billable shipping/format.py
