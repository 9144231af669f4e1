#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py
cat reports/reconcile-2024-06-30.csv
