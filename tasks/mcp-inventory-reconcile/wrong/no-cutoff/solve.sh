#!/bin/bash
# Wrong: book stock includes July movements made after the count.
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --no-cutoff
