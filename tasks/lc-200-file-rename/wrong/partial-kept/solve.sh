#!/bin/bash
# Wrong: the functools.partial objects are kept, now pre-filled in v3 order
# (partial(mathx.clamp, 0, 12)). Every plugin computes its v2 results, but those plugins import
# functools and call the core through a pre-filled alias, not directly from run().
set -euo pipefail
cd /workspace
python3 /nab/solution/codemod.py --keep-partial
