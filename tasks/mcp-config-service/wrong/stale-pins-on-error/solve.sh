#!/bin/bash
# Wrong: on a vault error, keeps the key's previous pin from the stale file and goes on.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --stale-on-error
