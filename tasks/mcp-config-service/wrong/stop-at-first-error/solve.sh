#!/bin/bash
# Wrong: stops asking the vault at its first error result; the rest stay unpinned.
set -euo pipefail
cd /workspace
python3 /nab/solution/render.py --stop-at-error
