#!/bin/bash
# Wrong: follows sections 1-8 and D.17 as published (folded keys, held-back prefixes incl.
# '_', unknown escapes) but applies no corrigendum of Annex Q.
# (kvx.c made by make_variants.py early-rules-only)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
