#!/bin/bash
# Wrong: also swaps the arguments of plugins' local clamp(value, lo, hi) helpers.
set -euo pipefail
cd /workspace
python3 /nab/solution/migrate.py --swap-every-clamp
