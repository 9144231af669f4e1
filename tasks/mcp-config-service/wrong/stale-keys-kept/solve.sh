#!/bin/bash
# Wrong: merges the layers but keeps keys configsvc no longer has (renamed/dropped).
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --keep-stale
