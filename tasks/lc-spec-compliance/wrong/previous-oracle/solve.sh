#!/bin/bash
# Wrong: this task's oracle before the spec gained the definitions of section 1.1 and D.17:
# keys lower-cased only, unknown escapes, C-7 and C-12 (what a grep for the corrigenda finds).
# (kvx.c made by make_variants.py previous-oracle)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
