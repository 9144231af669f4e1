#!/bin/bash
# Wrong: applies corrigendum C-7 (last occurrence wins) but not C-12 (empty values), C-18
# ('_' is not held back) or C-31 (the \r escape).
# (kvx.c made by make_variants.py errata-partial)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
