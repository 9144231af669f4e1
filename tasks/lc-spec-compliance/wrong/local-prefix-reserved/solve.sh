#!/bin/bash
# Wrong: misses corrigendum C-18, which lifts D.17's holding-back for installation-private
# keys without naming the prefix: '_' keys stay errors.
# (kvx.c made by make_variants.py local-prefix-reserved)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
