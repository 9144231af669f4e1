#!/bin/bash
# Wrong: checks the held-back prefixes of D.17 on the key as written, not on its folded form
# so SYS-Path and Kvx.Mode pass.
# (kvx.c made by make_variants.py prefix-before-folding)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
