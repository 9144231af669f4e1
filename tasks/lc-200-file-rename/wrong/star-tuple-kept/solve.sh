#!/bin/bash
# Wrong: a codemod that reorders the arguments it can see: a call that receives its arguments
# as one *tuple built a few lines earlier in run() is renamed but keeps the v2 order.
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --keep-star
