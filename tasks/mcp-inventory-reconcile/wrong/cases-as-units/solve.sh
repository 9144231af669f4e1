#!/bin/bash
# Wrong: treats case counts as single units.
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --cases-as-units
