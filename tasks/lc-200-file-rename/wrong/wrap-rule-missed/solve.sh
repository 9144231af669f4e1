#!/bin/bash
# Wrong: follows every call to the core and migrates each row of MIGRATION.md's table, but
# misses the rule MIGRATION.md states by behaviour only: mathx.wrap (which brings a value into a
# range) takes the range first in v3 too. Its v2-order calls keep running and compute other numbers.
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --keep-wrap-order
