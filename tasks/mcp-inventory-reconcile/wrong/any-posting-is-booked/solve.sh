#!/bin/bash
set -euo pipefail
cd /workspace
python3 /nab/solution/reconcile.py --any-posting-is-booked
