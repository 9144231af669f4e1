#!/bin/bash
# Wrong: keys compared folded (lookups and duplicates) and the held-back prefixes checked
# on the folded form, but each key kept as written, which R-10 forbids (kept and reported
# folded).
# (Review attempt, issue 36 point 7: the oracle's kvx.c with this one change, by hand.)
set -euo pipefail
cp /nab/solution/kvx.c /workspace/src/kvx.c
