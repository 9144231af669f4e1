#!/bin/bash
# Wrong: the dicts of callables are kept (now holding the v3 functions) and called in v3 order.
# Every plugin computes its v2 results, but the core functions are stored and called through
# the dict, not directly from run().
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --keep-table
