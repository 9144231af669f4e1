#!/bin/bash
# Wrong: uses only the production layer, missing everything inherited.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --top-layer-only
