#!/bin/bash
# Wrong: pins the highest enabled version on each secret's first page of versions.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --first-page
