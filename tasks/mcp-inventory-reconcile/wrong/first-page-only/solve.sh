#!/bin/bash
# Wrong: reads only the first page of each warehouse count.
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --first-page-only
