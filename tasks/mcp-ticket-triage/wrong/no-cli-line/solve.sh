#!/bin/bash
# Wrong: billable weight on the quote and in the API, not in the CLI output
set -euo pipefail
cd /workspace
# The oracle first (oracle.sh beside this file is a copy of solution/solve.sh: nab mounts a
# wrong's own folder at /nab/solution; sync-oracle-copies.sh refreshes the copies).
bash /nab/solution/oracle.sh
sed -i 's/, f"billable weight: {q.billable_weight_g} g"\]/]/' shipping/format.py
! grep -q billable shipping/format.py
