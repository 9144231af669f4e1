#!/bin/bash
# Wrong: misses erratum E-5, which withdraws D.6's prefix for local use without naming it:
# '_' keys stay errors.
# (kvx.c made by make_variants.py local-prefix-reserved)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
