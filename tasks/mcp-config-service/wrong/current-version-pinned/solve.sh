#!/bin/bash
# Wrong: pins describe_secret's current_version (a disabled or destroyed version included).
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --latest
