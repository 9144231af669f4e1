#!/bin/bash
# Wrong: applies erratum E-2 (last occurrence wins) but not E-3 (empty values) or E-5 (the
# local-use prefix is not reserved).
# (kvx.c made by make_variants.py errata-partial)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
