#!/bin/bash
# Wrong: applies corrigendum C-23 (keys up to 128 characters) from the register, missing
# that section 0.4, at the start of the document, withdraws it: R-19's 64 stands.
# (kvx.c made by make_variants.py withdrawn-corrigendum)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
