#!/bin/bash
# Wrong: this task's oracle before the spec gained the definitions of section 1.1 and D.6:
# keys lower-cased only, unknown escapes, E-2 and E-3 (what a grep for the errata finds).
# (kvx.c made by make_variants.py previous-oracle)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
