#!/bin/bash
# Wrong: pins the right version but writes the name configsvc gives, not the one the secret moved to.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --keep-ref-name
