#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --no-retry-on-timeout
