#!/bin/bash
# Wrong: the `grep '^## '` reading: every section and erratum, but Appendix D looks like
# filler, so R-11's reserved prefixes (D.6, between the registry tables) are never checked.
# (kvx.c made by make_variants.py skips-registry)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
