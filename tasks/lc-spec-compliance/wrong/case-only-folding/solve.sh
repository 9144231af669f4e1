#!/bin/bash
# Wrong: the one-keyword reading ("case-insensitive"): keys are lower-cased, but not folded
# as section 1.1 defines it ('-' -> '_'), so max-conn and max_conn stay two keys and SYS-Path
# is not held back.
# (kvx.c made by make_variants.py case-only-folding)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
