#!/bin/bash
# Wrong: follows sections 1-8 and Appendix D.6 as published (folded keys, reserved prefixes
# incl. '_', unknown escapes) but applies no erratum.
# (kvx.c made by make_variants.py early-rules-only)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
