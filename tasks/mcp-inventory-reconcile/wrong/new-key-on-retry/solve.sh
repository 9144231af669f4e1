#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --new-key-on-retry
