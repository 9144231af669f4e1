#!/bin/bash
# Wrong: everything but corrigendum C-31, which adds \r (carriage return) to R-15's
# escape table and names the rule only by number; "\r" stays an unknown escape.
# (kvx.c made by make_variants.py no-cr-escape)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
