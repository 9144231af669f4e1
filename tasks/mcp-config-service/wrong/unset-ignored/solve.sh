#!/bin/bash
# Wrong: merges the layers but ignores unset entries (DEBUG_SQL survives).
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --ignore-unset
